"""Riverton Eats: a fictional restaurant guide (neighbourhood and cuisine selects, results table
sorted by rating, paginated; one page per restaurant with its nearest bus stop, opening hours and
menu). Opening hours and menus are only on the detail pages, so questions about them take a visit
per restaurant, as on the real web."""

from __future__ import annotations

from fastapi import APIRouter

from restgraph.tools.browser.sites.html import by_slug, form, link, listing, money, page, select, slug, table

SITE = "Riverton Eats"
NEIGHBORHOODS = ["Eastside", "Northgate", "Old Town", "Westbank"]
CUISINES = ["Cafe", "Chinese", "Indian", "Italian", "Mexican"]
DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]


# name, neighborhood, cuisine, rating, (opens, closes), days closed, nearest bus stop, menu
RESTAURANTS: list[
    tuple[str, str, str, float, tuple[str, str], tuple[str, ...], str, list[tuple[str, float]]]
] = [
    (
        "Trattoria Lume",
        "Old Town",
        "Italian",
        4.6,
        ("17:00", "22:30"),
        ("Mon",),
        "Old Town Square",
        [("Cacio e pepe", 19), ("Osso buco", 31), ("Tiramisu", 9)],
    ),
    (
        "Nonna's Table",
        "Eastside",
        "Italian",
        4.3,
        ("11:30", "21:00"),
        (),
        "Eastside Depot",
        [("Margherita pizza", 15), ("Lasagne", 18.5), ("Panna cotta", 7.5)],
    ),
    (
        "Harbor Pasta Bar",
        "Westbank",
        "Italian",
        4.1,
        ("12:00", "23:00"),
        ("Tue",),
        "Westbank Park",
        [("Linguine alle vongole", 24), ("Penne arrabbiata", 14), ("Gelato", 6)],
    ),
    (
        "Golden Lotus",
        "Northgate",
        "Chinese",
        4.4,
        ("11:00", "22:00"),
        (),
        "Northgate Mall",
        [("Mapo tofu", 16), ("Peking duck", 38), ("Fried rice", 11)],
    ),
    (
        "Dumpling House",
        "Old Town",
        "Chinese",
        4.7,
        ("10:00", "15:00"),
        ("Wed",),
        "Old Town Square",
        [("Pork dumplings", 9.5), ("Wonton soup", 8), ("Scallion pancake", 6.5)],
    ),
    (
        "Saffron Road",
        "Eastside",
        "Indian",
        4.5,
        ("12:00", "22:30"),
        ("Mon",),
        "Eastside Depot",
        [("Chicken tikka masala", 21), ("Chana masala", 15), ("Garlic naan", 4.5)],
    ),
    (
        "Masala Junction",
        "Northgate",
        "Indian",
        3.9,
        ("11:30", "21:30"),
        (),
        "Northgate Mall",
        [("Lamb rogan josh", 23), ("Dal makhani", 13), ("Mango lassi", 5)],
    ),
    (
        "The Brunch Club",
        "Westbank",
        "Cafe",
        4.8,
        ("08:00", "14:00"),
        ("Mon", "Tue"),
        "Westbank Park",
        [("Eggs Benedict", 17), ("Pancake stack", 13), ("Flat white", 4.75)],
    ),
    (
        "Sunny Side Cafe",
        "Eastside",
        "Cafe",
        4.2,
        ("07:00", "15:00"),
        (),
        "Eastside Depot",
        [("Avocado toast", 12), ("Full breakfast", 16), ("Cappuccino", 4.25)],
    ),
    (
        "Old Town Creperie",
        "Old Town",
        "Cafe",
        4.5,
        ("09:00", "18:00"),
        ("Sun",),
        "Museum Quarter",
        [("Galette complete", 14.5), ("Sugar crepe", 7), ("Cider", 6)],
    ),
    (
        "Taqueria Rio",
        "Northgate",
        "Mexican",
        4.6,
        ("11:00", "23:30"),
        ("Sun",),
        "Northgate Mall",
        [("Tacos al pastor", 12), ("Burrito", 14), ("Churros", 6)],
    ),
    (
        "Casa Verde",
        "Westbank",
        "Mexican",
        4.0,
        ("12:00", "22:00"),
        (),
        "Westbank Park",
        [("Enchiladas verdes", 17), ("Quesadilla", 11), ("Horchata", 4)],
    ),
    (
        "Museum Kitchen",
        "Old Town",
        "Cafe",
        4.3,
        ("08:30", "17:00"),
        ("Mon",),
        "Museum Quarter",
        [("Soup of the day", 9), ("Club sandwich", 13.5), ("Scone", 3.5)],
    ),
    (
        "Terminal Taco",
        "Northgate",
        "Mexican",
        3.7,
        ("05:30", "22:00"),
        (),
        "Airport Terminal",
        [("Breakfast burrito", 10), ("Fish tacos", 13), ("Coffee", 3)],
    ),
]


def hours(r: tuple, day: str) -> str:
    """Opening hours on ``day`` as the detail page prints them ("17:00-22:30" or "Closed")."""
    return "Closed" if day in r[5] else f"{r[4][0]}-{r[4][1]}"


def search(neighborhood: str = "", cuisine: str = "") -> list[tuple]:
    """Matching restaurants, best rated first (ties by name)."""
    found = [
        r
        for r in RESTAURANTS
        if (not neighborhood or r[1] == neighborhood) and (not cuisine or r[2] == cuisine)
    ]
    return sorted(found, key=lambda r: (-r[3], r[0]))


def router() -> APIRouter:
    r = APIRouter(prefix="/eats")

    def search_form(neighborhood: str = "", cuisine: str = "") -> str:
        fields = (
            select("neighborhood", "Neighborhood", ["", *NEIGHBORHOODS], neighborhood)
            + " "
            + select("cuisine", "Cuisine", ["", *CUISINES], cuisine)
        )
        return form("/eats/search", fields, "Find restaurants")

    @r.get("/")
    def home():
        return _page("Where to eat in Riverton", "<p>Reviews, opening hours and menus.</p>" + search_form())

    @r.get("/search")
    def results(neighborhood: str = "", cuisine: str = "", page: int = 1):
        body = listing(
            search_form(neighborhood, cuisine),
            search(neighborhood, cuisine),
            page,
            "/eats/search",
            {"neighborhood": neighborhood, "cuisine": cuisine},
            "Restaurants, best rated first",
            ["Restaurant", "Neighborhood", "Cuisine", "Rating"],
            lambda x: (link(f"/eats/r/{slug(x[0])}", x[0]), x[1], x[2], f"{x[3]:.1f}"),
        )
        return _page("Restaurants", body)

    @r.get("/r/{name}")
    def detail(name: str):
        if (x := by_slug(RESTAURANTS, name)) is None:
            return _page("Restaurant not found", "<p>No such restaurant.</p>")
        facts = [
            ("Neighborhood", x[1]),
            ("Cuisine", x[2]),
            ("Rating", f"{x[3]:.1f} / 5"),
            ("Nearest bus stop", x[6]),
        ]
        body = table("About", ["Fact", "Value"], facts) + table(
            "Opening hours", ["Day", "Hours"], [(d, hours(x, d)) for d in DAYS]
        )
        body += table("Menu", ["Dish", "Price"], [(dish, money(price)) for dish, price in x[7]])
        return _page(x[0], body)

    return r


def _page(title: str, body: str):
    return page(SITE, title, body, home="/eats/")
