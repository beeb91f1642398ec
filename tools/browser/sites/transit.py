"""Riverton Metro: a fictional transit site (routes table, per-route timetables by service day,
stop search box)."""

from __future__ import annotations

from fastapi import APIRouter

from restgraph.tools.browser.sites.html import form, link, page, table, text_input

SITE = "Riverton Metro"
DAYS = ["Weekday", "Saturday"]

# number, name, stops in order, {day: [departure times from the first stop]}, minutes between consecutive stops
ROUTES: list[tuple[str, str, list[str], dict[str, list[str]], list[int]]] = [
    (
        "7",
        "Airport Express",
        ["Central Station", "Museum Quarter", "Airport Terminal"],
        {"Weekday": ["05:40", "06:10", "06:40"], "Saturday": ["07:00", "08:00"]},
        [9, 26],
    ),
    (
        "12",
        "Harbor Loop",
        ["Harbor Point", "Old Town Square", "Central Station"],
        {"Weekday": ["06:00", "21:50"], "Saturday": ["08:15", "15:30", "22:40"]},
        [11, 8],
    ),
    (
        "15",
        "Museum Line",
        ["Westbank Park", "Museum Quarter", "Northgate Mall"],
        {"Weekday": ["07:05", "08:05"], "Saturday": ["09:10"]},
        [14, 12],
    ),
    (
        "22",
        "Eastside Connector",
        ["Eastside Depot", "Old Town Square", "Museum Quarter"],
        {"Weekday": ["06:25", "07:25"], "Saturday": ["10:00"]},
        [10, 7],
    ),
    (
        "31",
        "Northgate Shuttle",
        ["Northgate Mall", "Central Station"],
        {"Weekday": ["06:45"], "Saturday": []},
        [18],
    ),
]


def _add(time: str, minutes: int) -> str:
    h, m = map(int, time.split(":"))
    total = h * 60 + m + minutes
    return f"{total // 60 % 24:02d}:{total % 60:02d}"


def timetable(route: tuple, day: str) -> list[list[str]]:
    """One row per departure: the time at every stop."""
    rows = []
    for start in route[3].get(day, []):
        times, t = [start], start
        for gap in route[4]:
            t = _add(t, gap)
            times.append(t)
        rows.append(times)
    return rows


def routes_at(stop: str) -> list[tuple]:
    q = stop.strip().lower()
    return [r for r in ROUTES if q and any(q in s.lower() for s in r[2])]


def router() -> APIRouter:
    r = APIRouter(prefix="/transit")

    def stop_form(query: str = "") -> str:
        return form("/transit/stops", text_input("stop", "Stop name", query), "Find routes")

    @r.get("/")
    def home():
        rows = [
            (link(f"/transit/route/{x[0]}", f"Route {x[0]}"), x[1], f"{x[2][0]} to {x[2][-1]}")
            for x in ROUTES
        ]
        return _page(
            "Routes and timetables",
            table("All routes", ["Route", "Name", "Runs"], rows, raw=True)
            + "<h2>Search stops</h2>"
            + stop_form(),
        )

    @r.get("/route/{number}")
    def route(number: str, day: str = "Weekday"):
        x = next((x for x in ROUTES if x[0] == number), None)
        if x is None:
            return _page("Route not found", "<p>No such route.</p>")
        day = day if day in DAYS else "Weekday"
        switch = " ".join(
            link(f"/transit/route/{number}?day={d}", f"{d} timetable") for d in DAYS if d != day
        )
        rows = timetable(x, day) or [["No service"] + [""] * (len(x[2]) - 1)]
        return _page(
            f"Route {x[0]}: {x[1]} ({day})",
            f"<p>Showing the {day} timetable. {switch}</p>" + table(f"{day} departures", x[2], rows),
        )

    @r.get("/stops")
    def stops(stop: str = ""):
        found = routes_at(stop)
        rows = [(link(f"/transit/route/{x[0]}", f"Route {x[0]}"), x[1]) for x in found]
        return _page(
            "Stop search",
            stop_form(stop) + table(f"Routes serving '{stop}'", ["Route", "Name"], rows, raw=True),
        )

    return r


def _page(title: str, body: str):
    return page(SITE, title, body, home="/transit/")
