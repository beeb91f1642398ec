"""Little Steps: a fictional childcare directory (neighbourhood and youngest-age selects, results
table without prices; tuition, hours and the nearest bus stop only on each centre's page), the
kind of site behind AssistantBench's daycare-tuition tasks."""

from __future__ import annotations

from fastapi import APIRouter

from restgraph.tools.browser.sites.html import by_slug, form, link, listing, money, page, select, slug, table

SITE = "Little Steps"
NEIGHBORHOODS = ["Eastside", "Northgate", "Old Town", "Westbank"]
#: the age select: label -> months (a centre is listed when it takes children that young)
AGES = {"3 months": 3, "6 months": 6, "1 year": 12, "18 months": 18, "2 years": 24, "3 years": 36}

# name, neighborhood, youngest age in months, full-time monthly tuition, part-time monthly tuition, (opens, closes), nearest bus stop
CENTERS: list[tuple[str, str, int, int, int, tuple[str, str], str]] = [
    ("Acorn Early Learning", "Eastside", 3, 1850, 1100, ("07:00", "18:00"), "Eastside Depot"),
    ("Bright Harbor Daycare", "Eastside", 12, 1620, 980, ("07:30", "17:30"), "Eastside Depot"),
    ("Little Sprouts Eastside", "Eastside", 6, 1710, 1050, ("08:00", "18:30"), "Old Town Square"),
    ("Northgate Kids Corner", "Northgate", 6, 1540, 900, ("07:00", "18:00"), "Northgate Mall"),
    ("Maple Tree Nursery", "Northgate", 3, 1980, 1200, ("07:30", "18:00"), "Northgate Mall"),
    ("Old Town Playhouse", "Old Town", 18, 1390, 820, ("08:00", "17:00"), "Old Town Square"),
    ("Cobble Kids", "Old Town", 6, 1760, 1010, ("07:00", "17:30"), "Museum Quarter"),
    ("Westbank Wonders", "Westbank", 12, 1480, 890, ("07:45", "18:15"), "Westbank Park"),
    ("River Otters Preschool", "Westbank", 36, 1250, 760, ("08:30", "15:30"), "Westbank Park"),
]


def age_label(months: int) -> str:
    return next(label for label, m in AGES.items() if m == months)


def search(neighborhood: str = "", age: str = "") -> list[tuple]:
    """Centres in ``neighborhood`` taking children of ``age`` (a key of ``AGES``), by name."""
    limit = AGES.get(age)
    found = [
        c for c in CENTERS if (not neighborhood or c[1] == neighborhood) and (limit is None or c[2] <= limit)
    ]
    return sorted(found, key=lambda c: c[0])


def router() -> APIRouter:
    r = APIRouter(prefix="/care")

    def search_form(neighborhood: str = "", age: str = "") -> str:
        fields = (
            select("neighborhood", "Neighborhood", ["", *NEIGHBORHOODS], neighborhood)
            + " "
            + select("age", "Child's age", ["", *AGES], age)
        )
        return form("/care/search", fields, "Find childcare")

    @r.get("/")
    def home():
        return _page(
            "Childcare in Riverton",
            "<p>Daycare centres and preschools, with tuition and hours.</p>" + search_form(),
        )

    @r.get("/search")
    def results(neighborhood: str = "", age: str = "", page: int = 1):
        body = listing(
            search_form(neighborhood, age),
            search(neighborhood, age),
            page,
            "/care/search",
            {"neighborhood": neighborhood, "age": age},
            "Childcare centres",
            ["Centre", "Neighborhood", "Ages"],
            lambda c: (link(f"/care/c/{slug(c[0])}", c[0]), c[1], f"from {age_label(c[2])}"),
        )
        return _page("Childcare centres", body)

    @r.get("/c/{name}")
    def detail(name: str):
        if (c := by_slug(CENTERS, name)) is None:
            return _page("Centre not found", "<p>No such centre.</p>")
        facts = [
            ("Neighborhood", c[1]),
            ("Ages", f"from {age_label(c[2])}"),
            ("Full-time tuition", f"{money(c[3])} per month"),
            ("Part-time tuition", f"{money(c[4])} per month"),
            ("Hours", f"{c[5][0]}-{c[5][1]}, Monday to Friday"),
            ("Nearest bus stop", c[6]),
        ]
        return _page(c[0], table("Centre details", ["Fact", "Value"], facts))

    return r


def _page(title: str, body: str):
    return page(SITE, title, body, home="/care/")
