"""Harbor Homes: a fictional real-estate site (search by town/type/status, sort select,
paginated listings table, one detail page per listing with a facts table)."""

from __future__ import annotations

from fastapi import APIRouter

from restgraph.tools.browser.sites.html import form, link, money, page, paginate, select, table

SITE = "Harbor Homes"
TOWNS = ["Cedar Falls", "Maple Bay", "Pine Harbor"]
TYPES = ["House", "Condo"]
STATUSES = ["For sale", "Sold"]
SORTS = {"newest": "Newest first", "price_asc": "Price: low to high", "price_desc": "Price: high to low"}

# id, address, town, type, beds, sqft, price, status, year sold (None while for sale)
LISTINGS: list[tuple[int, str, str, str, int, int, int, str, int | None]] = [
    (101, "12 Harbor View Rd", "Maple Bay", "Condo", 2, 980, 415000, "Sold", 2023),
    (102, "7 Anchor St, Unit 4", "Maple Bay", "Condo", 2, 1050, 462500, "Sold", 2023),
    (103, "88 Seagull Ct, Unit 2", "Maple Bay", "Condo", 1, 720, 298000, "Sold", 2023),
    (104, "3 Lighthouse Way, Unit 9", "Maple Bay", "Condo", 3, 1400, 538000, "Sold", 2022),
    (105, "41 Willow Lane", "Maple Bay", "House", 3, 1750, 529000, "For sale", None),
    (106, "19 Birch Hollow", "Maple Bay", "House", 3, 1900, 575000, "For sale", None),
    (107, "250 Dune Rd", "Maple Bay", "House", 4, 2400, 689000, "For sale", None),
    (108, "5 Quay St, Unit 1", "Maple Bay", "Condo", 2, 1010, 449900, "Sold", 2023),
    (109, "60 Kelp Ave, Unit 3", "Maple Bay", "Condo", 2, 1100, 471000, "Sold", 2024),
    (201, "14 Cedar Ridge Dr", "Cedar Falls", "House", 4, 2850, 612000, "Sold", 2022),
    (202, "9 Falls View Ct", "Cedar Falls", "House", 3, 2100, 455000, "Sold", 2022),
    (203, "77 Millrace Rd", "Cedar Falls", "House", 5, 2700, 640000, "Sold", 2023),
    (204, "2 Orchard Pl", "Cedar Falls", "House", 2, 1300, 318000, "Sold", 2022),
    (205, "31 Timber Trail", "Cedar Falls", "House", 3, 1980, 402000, "For sale", None),
    (206, "8 Spruce St, Unit 6", "Cedar Falls", "Condo", 2, 900, 259000, "Sold", 2022),
    (301, "4 Pier Rd", "Pine Harbor", "House", 3, 1650, 498000, "Sold", 2023),
    (302, "120 Ocean Blvd, Unit 12", "Pine Harbor", "Condo", 2, 1000, 399000, "For sale", None),
]


def search(town: str = "", kind: str = "", status: str = "", sort: str = "newest") -> list[tuple]:
    found = [
        x
        for x in LISTINGS
        if (not town or x[2] == town) and (not kind or x[3] == kind) and (not status or x[7] == status)
    ]
    if sort == "price_asc":
        return sorted(found, key=lambda x: (x[6], x[0]))
    if sort == "price_desc":
        return sorted(found, key=lambda x: (-x[6], x[0]))
    return sorted(found, key=lambda x: -x[0])


def router() -> APIRouter:
    r = APIRouter(prefix="/homes")

    def search_form(town: str = "", kind: str = "", status: str = "", sort: str = "newest") -> str:
        sort_select = (
            '<label>Sort <select name="sort" aria-label="Sort by">'
            + "".join(
                f'<option value="{k}"{" selected" if k == sort else ""}>{v}</option>'
                for k, v in SORTS.items()
            )
            + "</select></label>"
        )
        fields = " ".join(
            [
                select("town", "Town", ["", *TOWNS], town),
                select("type", "Property type", ["", *TYPES], kind),
                select("status", "Status", ["", *STATUSES], status),
                sort_select,
            ]
        )
        return form("/homes/search", fields, "Search listings")

    @r.get("/")
    def home():
        return _page("Homes for sale and recently sold", "<p>Listings on the coast.</p>" + search_form())

    @r.get("/search")
    def results(town: str = "", type: str = "", status: str = "", sort: str = "newest", page: int = 1):
        found = search(town, type, status, sort)
        chunk, pager = paginate(
            found, page, "/homes/search", {"town": town, "type": type, "status": status, "sort": sort}
        )
        rows = [
            (link(f"/homes/listing/{x[0]}", x[1]), x[2], x[3], str(x[4]), money(x[6]), x[7]) for x in chunk
        ]
        body = (
            search_form(town, type, status, sort)
            + table("Listings", ["Address", "Town", "Type", "Beds", "Price", "Status"], rows, raw=True)
            + pager
        )
        return _page("Listings", body)

    @r.get("/listing/{listing_id}")
    def detail(listing_id: int):
        x = next((x for x in LISTINGS if x[0] == listing_id), None)
        if x is None:
            return _page("Listing not found", "<p>No such listing.</p>")
        facts = [
            ("Town", x[2]),
            ("Type", x[3]),
            ("Bedrooms", x[4]),
            ("Floor area", f"{x[5]:,} sqft"),
            ("Price" if x[8] is None else "Sold price", money(x[6])),
            ("Status", x[7] if x[8] is None else f"Sold in {x[8]}"),
        ]
        return _page(x[1], table("Property facts", ["Fact", "Value"], facts))

    return r


def _page(title: str, body: str):
    return page(SITE, title, body, home="/homes/")
