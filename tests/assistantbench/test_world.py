"""The offline world of ``assistantbench-local``: at least 30 AssistantBench-style tasks whose
gold answers follow from the fixture sites' data (re-derived here, independently of the golds),
in the formats the official scorer expects, each reachable from the search engine's results."""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable
from statistics import mean

import pytest
from fastapi.testclient import TestClient

from restgraph.evals.scorers.assistantbench import exact_match, score
from restgraph.evals.scorers.assistantbench_official import parse_gold
from restgraph.tools.browser.sites import books, care, create_app, detail_pages, eats, gyms, homes, transit
from restgraph.tools.browser.sites.engine import create_engine_app
from restgraph.tools.browser.sites.plan import HOMES
from restgraph.tools.browser.sites.tasks import TASKS, TASKS_BY_ID
from restgraph.tools.search import SearchError, SearchResult
from restgraph.tools.search.local import LocalSearch

GOLD_KIND = {"number": "number", "string": "string", "list": "string list", "dict": "json"}


# -- the answers, derived from the sites' data ------------------------------------------------------
def _rest(name: str) -> tuple:
    return next(r for r in eats.RESTAURANTS if r[0] == name)


def _event(author: str) -> tuple:
    return next(e for e in books.EVENTS if e[2] == author)


def _weekday(iso: str) -> str:
    return datetime.date.fromisoformat(iso).strftime("%a")


def _routes_at(stop: str) -> list[str]:
    return [f"Route {r[0]}" for r in transit.ROUTES if stop in r[2]]


def _arrivals(stop: str, day: str) -> list[str]:
    return [
        row[r[2].index(stop)] for r in transit.ROUTES if stop in r[2] for row in transit.timetable(r, day)
    ]


def _gym(name: str) -> tuple:
    return next(g for g in gyms.GYMS if g[0] == name)


def _closing(r: tuple, day: str) -> str:
    return eats.hours(r, day).split("-")[-1]


WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri")
DERIVE: dict[str, Callable[[], object]] = {
    "eats-oldtown-latest-saturday": lambda: max(
        eats.search("Old Town"), key=lambda r: "" if eats.hours(r, "Sat") == "Closed" else _closing(r, "Sat")
    )[0],
    "eats-italian-cheapest-dish": lambda: [
        {"restaurant": r[0], "price": min(p for _, p in r[7])} for r in eats.search(cuisine="Italian")
    ],
    "eats-oldtown-closed-monday": lambda: [r[0] for r in eats.search("Old Town") if "Mon" in r[5]],
    "eats-best-near-northgate-mall": lambda: max(
        (r for r in eats.RESTAURANTS if r[6] == "Northgate Mall"), key=lambda r: r[3]
    )[0],
    "event-arden-venue-closing": lambda: _closing(
        _rest(_event("Tomas Arden")[4]), _weekday(_event("Tomas Arden")[1])
    ),
    "event-okafor-venue-cheapest": lambda: min(p for _, p in _rest(_event("Petra Okafor")[4])[7]),
    "event-costa-venue-routes": lambda: _routes_at(_rest(_event("Ana Costa")[4])[6]),
    "event-voss-venue-dict": lambda: {
        "venue": _event("Clara Voss")[4],
        "closes": _closing(_rest(_event("Clara Voss")[4]), _weekday(_event("Clara Voss")[1])),
    },
    "gym-lotus-room-routes": lambda: _routes_at(gyms.NEAREST_STOP["Lotus Room"]),
    "gym-spin-lab-bus": lambda: max(
        row[0]
        for r in transit.ROUTES
        if r[2][0] == "Harbor Point" and gyms.NEAREST_STOP["Harbor Spin Lab"] in r[2]
        for row in transit.timetable(r, "Weekday")
        if row[r[2].index(gyms.NEAREST_STOP["Harbor Spin Lab"])]
        < next(t for d, t, a in _gym("Harbor Spin Lab")[3] if d == "Fri" and t < "12:00")
    ),
    "gym-sunrise-weekend-cafes": lambda: [
        r[0]
        for r in eats.search(cuisine="Cafe")
        if eats.hours(r, next(d for d, _, _ in _gym("Sunrise Flow Studio")[3] if d in ("Sat", "Sun")))
        != "Closed"
    ],
    "gyms-eastside-before-7": lambda: [
        g[0] for g in gyms.search("Eastside") if any(d in WEEKDAYS and t < "07:00" for d, t, _ in g[3])
    ],
    "books-hale-total": lambda: round(sum(b[4] for b in books.search("Imogen Hale")), 2),
    "books-okafor-pages": lambda: sum(b[5] for b in books.search("Petra Okafor")),
    "homes-pine-harbor-areas": lambda: [{"address": x[1], "sqft": x[5]} for x in homes.search("Pine Harbor")],
    "homes-cedar-falls-average-2022": lambda: round(
        mean(x[6] for x in homes.search("Cedar Falls", "House", "Sold") if x[8] == 2022)
    ),
    "homes-maple-bay-3bed-under-600k": lambda: [
        x[1]
        for x in homes.search("Maple Bay", "House", "For sale", "price_asc")
        if x[4] >= 3 and x[6] < 600_000
    ],
    "care-northgate-6-months": lambda: [
        {"center": c[0], "price (USD)": c[3]} for c in care.search("Northgate", "6 months")
    ],
    "care-eastside-yearly-saving": lambda: (
        12
        * (
            max(c[3] for c in care.search("Eastside", "1 year"))
            - min(c[3] for c in care.search("Eastside", "1 year"))
        )
    ),
    "care-eastside-latest": lambda: max(care.search("Eastside"), key=lambda c: c[5][1])[0],
    "care-cobble-kids-airport": lambda: [
        route
        for route in _routes_at(next(c for c in care.CENTERS if c[0] == "Cobble Kids")[6])
        if route in _routes_at("Airport Terminal")
    ][0],
    "transit-first-saturday-museum": lambda: min(_arrivals("Museum Quarter", "Saturday")),
    "transit-saturday-old-town": lambda: len(_arrivals("Old Town Square", "Saturday")),
    "gym-crossfit-dinner-nearby": lambda: sorted(
        r[0]
        for r in eats.RESTAURANTS
        if r[6] == gyms.NEAREST_STOP["CrossFit East River"]
        and eats.hours(r, "Wed") != "Closed"
        and r[4][0] <= "20:00" < r[4][1]
    ),
    "care-maple-tree-gyms": lambda: [
        g[0]
        for g in gyms.GYMS
        if gyms.NEAREST_STOP[g[0]] == next(c for c in care.CENTERS if c[0] == "Maple Tree Nursery")[6]
    ],
    "event-hale-book-and-coffee": lambda: (
        next(b[4] for b in books.BOOKS if b[1] == _event("Imogen Hale")[3])
        + min(p for _, p in _rest(_event("Imogen Hale")[4])[7])
    ),
    # the first twelve (one site each)
    "gyms-eastside-pilates": lambda: [g[0] for g in gyms.search("Eastside", "Pilates")],
    "gyms-northgate-yoga-price": lambda: min(g[2] for g in gyms.search("Northgate", "Yoga")),
    "gyms-most-expensive": lambda: max(gyms.GYMS, key=lambda g: g[2])[0],
    "homes-maple-bay-condo-2023": lambda: max(
        x[6] for x in homes.search("Maple Bay", "Condo", "Sold") if x[8] == 2023
    ),
    "homes-cedar-falls-largest": lambda: (lambda x: {"price": x[6], "sqft": x[5]})(
        max(homes.search("Cedar Falls", "House", "Sold"), key=lambda x: x[5])
    ),
    "homes-maple-bay-cheapest-3bed": lambda: min(
        (x for x in homes.search("Maple Bay", "House", "For sale") if x[4] == 3), key=lambda x: x[6]
    )[1],
    "books-oldest-river": lambda: books.search("river")[0][2],
    "books-hale-under-20": lambda: [
        {"title": b[1], "price": b[4]} for b in books.search("Imogen Hale") if b[4] < 20
    ],
    "books-quiet-harbor-pages": lambda: next(b[5] for b in books.BOOKS if b[1] == "The Quiet Harbor"),
    "transit-route7-minutes": lambda: sum(next(r for r in transit.ROUTES if r[0] == "7")[4]),
    "transit-museum-quarter-routes": lambda: _routes_at("Museum Quarter"),
    "transit-route12-last-saturday": lambda: max(
        next(r for r in transit.ROUTES if r[0] == "12")[3]["Saturday"]
    ),
}


def test_the_world_has_30_tasks_of_every_gold_type_many_of_them_multi_site():
    assert len(TASKS) >= 30 and len(TASKS_BY_ID) == len(TASKS)
    assert {t.answer_type for t in TASKS} == {"number", "string", "list", "dict"}
    multi = [t for t in TASKS if len(t.sites) >= 2]
    assert len(multi) >= 10, [t.id for t in multi]
    assert {t.difficulty for t in TASKS} >= {"Medium", "Hard"}
    assert all(t.sites and set(t.sites) <= set(HOMES) for t in TASKS)


def test_every_task_has_a_derivation():
    assert set(DERIVE) == set(TASKS_BY_ID)


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.id)
def test_gold_follows_from_the_sites_data_in_the_scorers_format(task):
    assert (
        parse_gold(task.gold)[1] == GOLD_KIND[task.answer_type]
    )  # the official scorer reads the gold as its type
    derived = DERIVE[task.id]()
    answer = derived if isinstance(derived, str) else json.dumps(derived)
    assert score(answer, task.gold) == (1.0, 1.0), (task.id, answer)
    assert exact_match(answer, task.gold), (task.id, answer)
    planned = next(step[1] for step in task.plan if step[0] == "answer")
    assert score(planned, task.gold) == (1.0, 1.0), (
        task.id
    )  # the oracle's raw answer, as the scorer receives it


def test_plans_fit_the_step_budget_and_start_from_the_search_engine():
    for task in TASKS:
        actions = [s for s in task.plan if s[0] != "answer"]
        assert len(actions) <= 19, task.id  # the browser agent's default budget is 20 actions
        assert task.plan[0][0] == "search", task.id  # episodes start on the engine, not on a site
        assert task.plan[-1][0] == "answer", task.id


@pytest.fixture(scope="module")
def index() -> LocalSearch:
    return LocalSearch.from_app(create_app())


def test_the_index_covers_every_detail_page(index):
    crawled = {row[0] for row in index._db.execute("SELECT url FROM pages")}
    assert set(detail_pages()) <= crawled


def test_every_search_in_a_plan_lists_the_page_the_plan_opens(index):
    for task in TASKS:
        for step, after in zip(task.plan, task.plan[1:], strict=False):
            if step[0] == "search":
                titles = [hit.title for hit in index.search(step[1], 10)]
                assert after[:2] == ("click", "link") and after[2] in titles, (task.id, step[1], titles)


class _Fixed:
    name = "fixed"

    def __init__(self, hits=None, error=None):
        self.hits, self.error, self.queries = hits or [], error, []

    def search(self, query: str, k: int = 10) -> list[SearchResult]:
        self.queries.append((query, k))
        if self.error:
            raise SearchError(self.error)
        return self.hits[:k]


def test_the_engine_lists_the_backend_results():
    hits = [
        SearchResult(title="A <b> page", url="http://127.0.0.1:9/a?x=1&y=2", snippet="about a"),
        SearchResult(title="B", url="http://127.0.0.1:9/b"),
    ]
    backend = _Fixed(hits)
    client = TestClient(create_engine_app(backend))
    home = client.get("/").text
    assert 'aria-label="Search the web"' in home and 'action="/search"' in home
    page = client.get("/search", params={"q": "  some words "}).text
    assert backend.queries == [("some words", 10)]
    assert (
        '<a href="http://127.0.0.1:9/a?x=1&amp;y=2">A &lt;b&gt; page</a>' in page
        and "about a" in page
        and "2 results" in page
    )
    assert 'value="some words"' in page
    assert "No results for nothing" in TestClient(create_engine_app(_Fixed())).get("/search?q=nothing").text
    assert (
        "The search failed: index down"
        in TestClient(create_engine_app(_Fixed(error="index down"))).get("/search?q=x").text
    )
    assert (
        backend.queries == [("some words", 10)]
        and "results" not in client.get("/search?q=").text.split("<h1>")[1][:20]
    )


def test_the_served_world_engine_lists_its_backends_results_on_the_sites_origin():
    import asyncio

    import httpx

    from restgraph.tools.browser.sites.world import serve_world

    async def main() -> tuple[str, str, list[SearchResult], str]:
        async with serve_world() as world, httpx.AsyncClient() as client:
            page = (await client.get(world.engine_url + "/search", params={"q": "Lotus Room FitFinder"})).text
            hits = await asyncio.to_thread(world.backend.search, "Lotus Room FitFinder", 10)
            target = (await client.get(hits[0].url)).text
            return world.sites_url, world.start_url, hits, page + "\n" + target

    sites_url, start_url, hits, pages = asyncio.run(main())
    assert start_url.endswith("/") and not start_url.startswith(sites_url)  # two origins
    assert hits and all(h.url.startswith(sites_url + "/") for h in hits)
    assert (
        f'<a href="{hits[0].url}">{hits[0].title}</a>' in pages
        and "Nearest bus stop: Museum Quarter" in pages
    )
