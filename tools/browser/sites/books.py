"""Lantern Books: a fictional bookshop catalogue (free-text search box, paginated results table,
one detail page per book) and its author events, each held at a restaurant of Riverton Eats (the
venue's hours and menu are on that site)."""

from __future__ import annotations

from fastapi import APIRouter

from restgraph.tools.browser.sites.html import form, link, money, page, paginate, table, text_input

SITE = "Lantern Books"

# isbn, title, author, year, price, pages, publisher
BOOKS: list[tuple[str, str, str, int, float, int, str]] = [
    ("9780000000011", "The River Below", "Tomas Arden", 1998, 14.99, 312, "Quayside Press"),
    ("9780000000028", "River of Glass Lanterns", "Imogen Hale", 1987, 18.50, 276, "Northlight"),
    ("9780000000035", "A River in Winter", "Petra Okafor", 2011, 22.00, 401, "Quayside Press"),
    ("9780000000042", "Down by the Riverbank", "Samuel Greer", 1990, 9.99, 188, "Brambleworth"),
    ("9780000000059", "Two Rivers Meet", "Ana Costa", 2019, 27.95, 455, "Northlight"),
    ("9780000000066", "The Salt Orchard", "Imogen Hale", 2004, 16.00, 344, "Northlight"),
    ("9780000000073", "Letters from the Lighthouse", "Imogen Hale", 2015, 24.00, 290, "Brambleworth"),
    ("9780000000080", "The Copper Kettle", "Imogen Hale", 2021, 12.75, 230, "Quayside Press"),
    ("9780000000097", "Midnight at the River Inn", "Clara Voss", 1983, 11.25, 204, "Brambleworth"),
    ("9780000000103", "Orchard Lane", "Petra Okafor", 1995, 13.40, 268, "Northlight"),
    ("9780000000110", "The Quiet Harbor", "Tomas Arden", 2008, 19.99, 333, "Quayside Press"),
    ("9780000000127", "Glass and Ember", "Ana Costa", 2013, 21.50, 389, "Northlight"),
]

# id, date, author, book title, venue (a Riverton Eats restaurant), start time
EVENTS: list[tuple[int, str, str, str, str, str]] = [
    (1, "2026-03-06", "Petra Okafor", "A River in Winter", "Old Town Creperie", "16:30"),
    (2, "2026-03-14", "Imogen Hale", "The Copper Kettle", "Sunny Side Cafe", "10:00"),
    (3, "2026-03-21", "Tomas Arden", "The Quiet Harbor", "Trattoria Lume", "19:00"),
    (4, "2026-04-04", "Ana Costa", "Two Rivers Meet", "Golden Lotus", "12:30"),
    (5, "2026-04-18", "Clara Voss", "Midnight at the River Inn", "Taqueria Rio", "20:00"),
]


def search(query: str) -> list[tuple]:
    """Case-insensitive substring match on title or author, oldest first."""
    q = query.strip().lower()
    found = [b for b in BOOKS if q and (q in b[1].lower() or q in b[2].lower())]
    return sorted(found, key=lambda b: (b[3], b[1]))


def router() -> APIRouter:
    r = APIRouter(prefix="/books")

    def search_form(query: str = "") -> str:
        return form("/books/search", text_input("q", "Search books by title or author", query), "Search")

    @r.get("/")
    def home():
        return _page(
            "Catalogue",
            "<p>Search our shelves.</p>"
            + search_form()
            + "<p>"
            + link("/books/events", "Author events")
            + "</p>",
        )

    @r.get("/search")
    def results(q: str = "", page: int = 1):
        found = search(q)
        chunk, pager = paginate(found, page, "/books/search", {"q": q})
        rows = [(link(f"/books/book/{b[0]}", b[1]), b[2], str(b[3]), money(b[4])) for b in chunk]
        body = (
            search_form(q)
            + table(
                f"Books matching '{q}', oldest first", ["Title", "Author", "Year", "Price"], rows, raw=True
            )
            + pager
        )
        return _page("Search results", body)

    @r.get("/events")
    def events():
        rows = [(e[1], e[2], e[3], link(f"/books/events/{e[0]}", f"Event details: {e[2]}")) for e in EVENTS]
        return _page(
            "Author events",
            "<p>Readings and signings around town.</p>"
            + table("Upcoming author events", ["Date", "Author", "Book", "Details"], rows, raw=True),
        )

    @r.get("/events/{event_id}")
    def event(event_id: int):
        e = next((e for e in EVENTS if e[0] == event_id), None)
        if e is None:
            return _page("Event not found", "<p>No such event.</p>")
        facts = [
            ("Author", e[2]),
            ("Book", e[3]),
            ("Date", e[1]),
            ("Starts", e[5]),
            ("Venue", f"{e[4]} (see Riverton Eats for directions)"),
        ]
        return _page(f"{e[2]} reads from {e[3]}", table("Event details", ["Fact", "Value"], facts))

    @r.get("/book/{isbn}")
    def detail(isbn: str):
        b = next((b for b in BOOKS if b[0] == isbn), None)
        if b is None:
            return _page("Book not found", "<p>No such book.</p>")
        facts = [
            ("Author", b[2]),
            ("Published", b[3]),
            ("Price", money(b[4])),
            ("Pages", b[5]),
            ("Publisher", b[6]),
            ("ISBN", b[0]),
        ]
        return _page(b[1], table("Book details", ["Field", "Value"], facts))

    return r


def _page(title: str, body: str):
    return page(SITE, title, body, home="/books/")
