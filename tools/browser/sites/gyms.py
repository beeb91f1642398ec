"""FitFinder: a fictional gym directory for the town of Riverton (search form with selects,
paginated results table, one detail page per gym with a class timetable)."""

from __future__ import annotations

from fastapi import APIRouter

from restgraph.tools.browser.sites.html import by_slug, form, link, listing, money, page, select, slug, table

SITE = "FitFinder"
NEIGHBORHOODS = ["Eastside", "Northgate", "Old Town", "Westbank"]
ACTIVITIES = ["Boxing", "CrossFit", "Pilates", "Spin", "Yoga"]

# name, neighborhood, monthly price, [(day, time, activity), ...]
GYMS: list[tuple[str, str, float, list[tuple[str, str, str]]]] = [
    (
        "CrossFit East River",
        "Eastside",
        189,
        [("Mon", "06:00", "CrossFit"), ("Wed", "18:30", "CrossFit"), ("Sat", "09:00", "Boxing")],
    ),
    ("Avea Pilates", "Eastside", 149, [("Tue", "07:00", "Pilates"), ("Thu", "19:00", "Pilates")]),
    ("Harbor Spin Lab", "Eastside", 99, [("Mon", "17:30", "Spin"), ("Fri", "06:30", "Spin")]),
    ("Core & Reformer", "Eastside", 165, [("Wed", "08:00", "Pilates"), ("Sat", "10:00", "Yoga")]),
    ("Northgate Yoga Collective", "Northgate", 85, [("Mon", "07:30", "Yoga"), ("Thu", "18:00", "Yoga")]),
    ("Iron Bell Boxing", "Northgate", 120, [("Tue", "19:00", "Boxing"), ("Sat", "11:00", "Boxing")]),
    ("Sunrise Flow Studio", "Northgate", 72.5, [("Wed", "06:15", "Yoga"), ("Sun", "09:30", "Yoga")]),
    ("Peak Performance Gym", "Northgate", 59, [("Mon", "12:00", "Spin"), ("Fri", "17:00", "CrossFit")]),
    ("Lotus Room", "Northgate", 95, [("Tue", "20:00", "Yoga"), ("Thu", "07:00", "Pilates")]),
    (
        "Old Town Athletic Club",
        "Old Town",
        135,
        [("Mon", "06:00", "Spin"), ("Wed", "19:00", "Yoga"), ("Fri", "18:00", "Boxing")],
    ),
    ("Cobblestone CrossFit", "Old Town", 175, [("Tue", "05:45", "CrossFit"), ("Sat", "08:00", "CrossFit")]),
    ("Westbank Pilates House", "Westbank", 155, [("Mon", "09:00", "Pilates"), ("Thu", "12:30", "Pilates")]),
    ("Riverside Cycle Club", "Westbank", 79, [("Tue", "06:00", "Spin"), ("Sun", "10:00", "Spin")]),
]

#: each gym's nearest Riverton Metro stop (printed on its page)
NEAREST_STOP: dict[str, str] = {
    "CrossFit East River": "Eastside Depot",
    "Avea Pilates": "Eastside Depot",
    "Harbor Spin Lab": "Old Town Square",
    "Core & Reformer": "Eastside Depot",
    "Northgate Yoga Collective": "Northgate Mall",
    "Iron Bell Boxing": "Northgate Mall",
    "Sunrise Flow Studio": "Central Station",
    "Peak Performance Gym": "Northgate Mall",
    "Lotus Room": "Museum Quarter",
    "Old Town Athletic Club": "Old Town Square",
    "Cobblestone CrossFit": "Museum Quarter",
    "Westbank Pilates House": "Westbank Park",
    "Riverside Cycle Club": "Harbor Point",
}


def activities(gym: tuple) -> set[str]:
    return {a for _, _, a in gym[3]}


def search(neighborhood: str = "", activity: str = "") -> list[tuple]:
    """Matching gyms, cheapest first (the order the results page shows)."""
    found = [
        g
        for g in GYMS
        if (not neighborhood or g[1] == neighborhood) and (not activity or activity in activities(g))
    ]
    return sorted(found, key=lambda g: (g[2], g[0]))


def router() -> APIRouter:
    r = APIRouter(prefix="/gyms")

    def search_form(neighborhood: str = "", activity: str = "") -> str:
        return form(
            "/gyms/search",
            select("neighborhood", "Neighborhood", ["", *NEIGHBORHOODS], neighborhood)
            + " "
            + select("activity", "Activity", ["", *ACTIVITIES], activity),
            "Find gyms",
        )

    @r.get("/")
    def home():
        body = "<p>Find a gym, studio or club in Riverton.</p>" + search_form()
        return _page("Gyms in Riverton", body)

    @r.get("/search")
    def results(neighborhood: str = "", activity: str = "", page: int = 1):
        body = listing(
            search_form(neighborhood, activity),
            search(neighborhood, activity),
            page,
            "/gyms/search",
            {"neighborhood": neighborhood, "activity": activity},
            "Matching gyms, cheapest first",
            ["Gym", "Neighborhood", "Membership"],
            lambda g: (link(f"/gyms/g/{slug(g[0])}", g[0]), g[1], money(g[2]) + " / month"),
        )
        return _page("Search results", body)

    @r.get("/g/{name}")
    def detail(name: str):
        if (gym := by_slug(GYMS, name)) is None:
            return _page("Gym not found", "<p>No such gym.</p>")
        facts = f"<p>Neighborhood: {gym[1]}. Monthly membership: {money(gym[2])}. Nearest bus stop: {NEAREST_STOP[gym[0]]}.</p>"
        return _page(gym[0], facts + table("Weekly class timetable", ["Day", "Time", "Class"], gym[3]))

    return r


def _page(title: str, body: str):
    return page(SITE, title, body, home="/gyms/")
