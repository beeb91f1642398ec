"""Bounded property-based fuzzing of the TMDB sandbox from ``tmdb_oas.json``.

Two generators: Schemathesis (parameters drawn from the spec's own schemas, so mostly unknown ids
and odd values) and a hypothesis strategy over *valid* fixture ids, seasons, episodes, pages and
search words (so the success shapes get fuzzed too). Properties: no 5xx; every response with a
documented status validates against the spec; errors carry TMDB's error body.
"""

from __future__ import annotations

import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from restgraph.tools.sandbox.tmdb.app import create_app
from restgraph.tools.sandbox.tmdb.db import get_db

SETTINGS = {
    "deadline": None,
    "database": None,
    "derandomize": True,
    "suppress_health_check": list(HealthCheck),
}
AUTH = {"Authorization": "Bearer fuzz"}


def _check(response, template: str, schema_errors, failures: list[str], where: str) -> None:
    if response.status_code >= 500:
        failures.append(f"{where} -> {response.status_code}")
        return
    body = response.json()
    if response.status_code >= 400 and not (
        isinstance(body.get("status_code"), int) and body.get("status_message")
    ):
        failures.append(f"{where} -> {response.status_code} without a TMDB error body: {body}")
    failures.extend(f"{where}: {e}" for e in schema_errors(template, response.status_code, body))


def _fuzz_operation(client: TestClient, op, schema_errors, failures: list[str]) -> None:  # noqa: ANN001 - a schemathesis operation
    @settings(max_examples=5, **SETTINGS)
    @given(case=op.as_strategy())
    def run(case):
        kwargs = case.as_transport_kwargs(base_url="http://tmdb.test/3", headers=AUTH)
        response = client.request(
            **{k: v for k, v in kwargs.items() if k in ("method", "url", "params", "headers")}
        )
        _check(
            response,
            op.path,
            schema_errors,
            failures,
            f"{op.path} {kwargs.get('url')} {kwargs.get('params')}",
        )

    run()


def test_schemathesis_fuzz(tmdb_spec, schema_errors):
    client = TestClient(create_app(), base_url="http://tmdb.test", raise_server_exceptions=True)
    schema = schemathesis.openapi.from_dict(tmdb_spec)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) == 54
    failures: list[str] = []
    for op in operations:
        _fuzz_operation(client, op, schema_errors, failures)
    assert not failures, failures[:10]


DB = get_db()
MOVIE_SUBS = [
    "",
    "/credits",
    "/images",
    "/keywords",
    "/release_dates",
    "/reviews",
    "/similar",
    "/recommendations",
]
TV_SUBS = ["", "/credits", "/images", "/keywords", "/reviews", "/similar", "/recommendations"]
LISTS = [
    "/movie/popular",
    "/movie/top_rated",
    "/movie/now_playing",
    "/movie/upcoming",
    "/movie/latest",
    "/tv/popular",
    "/tv/top_rated",
    "/tv/on_the_air",
    "/tv/airing_today",
    "/tv/latest",
    "/person/popular",
    "/genre/movie/list",
    "/genre/tv/list",
    "/discover/movie",
    "/discover/tv",
]
WORDS = [
    "the",
    "star",
    "lord",
    "avatar",
    "dark",
    "witcher",
    "coppola",
    "nolan",
    "disney",
    "harry",
    "fast",
    "redemptionn",
    "véronique",
    "of",
    "bang",
]
EPISODES = [
    (s.id, season.season_number, e.episode_number)
    for s in DB.shows.values()
    for season in s.seasons
    for e in season.episodes
]


@st.composite
def valid_requests(draw):
    params = {
        k: v for k, v in {"page": draw(st.one_of(st.none(), st.integers(1, 3)))}.items() if v is not None
    }
    kind = draw(
        st.sampled_from(
            ["movie", "tv", "season", "episode", "person", "org", "list", "search", "trending", "discover"]
        )
    )
    if kind == "movie":
        sub = draw(st.sampled_from(MOVIE_SUBS))
        return f"/movie/{{movie_id}}{sub}", f"/movie/{draw(st.sampled_from(sorted(DB.movies)))}{sub}", params
    if kind == "tv":
        sub = draw(st.sampled_from(TV_SUBS))
        return f"/tv/{{tv_id}}{sub}", f"/tv/{draw(st.sampled_from(sorted(DB.shows)))}{sub}", params
    if kind == "season":
        show = DB.shows[draw(st.sampled_from(sorted(DB.shows)))]
        sub = draw(st.sampled_from(["", "/credits", "/images"]))
        return (
            f"/tv/{{tv_id}}/season/{{season_number}}{sub}",
            f"/tv/{show.id}/season/{draw(st.sampled_from([s.season_number for s in show.seasons]))}{sub}",
            params,
        )
    if kind == "episode":
        tv, season, ep = draw(st.sampled_from(EPISODES))
        sub = draw(st.sampled_from(["", "/credits", "/images"]))
        return (
            f"/tv/{{tv_id}}/season/{{season_number}}/episode/{{episode_number}}{sub}",
            f"/tv/{tv}/season/{season}/episode/{ep}{sub}",
            params,
        )
    if kind == "person":
        sub = draw(st.sampled_from(["", "/images", "/movie_credits", "/tv_credits"]))
        return (
            f"/person/{{person_id}}{sub}",
            f"/person/{draw(st.sampled_from(sorted(DB.people)))}{sub}",
            params,
        )
    if kind == "org":
        table, template = draw(
            st.sampled_from(
                [
                    (DB.companies, "/company/{company_id}"),
                    (DB.networks, "/network/{network_id}"),
                    (DB.collections, "/collection/{collection_id}"),
                ]
            )
        )
        sub = draw(st.sampled_from(["", "/images"]))
        return (
            template + sub,
            template.split("{")[0] + str(draw(st.sampled_from(sorted(table)))) + sub,
            params,
        )
    if kind == "list":
        path = draw(st.sampled_from(LISTS))
        return path, path, params
    if kind == "search":
        what = draw(st.sampled_from(["movie", "tv", "person", "company", "collection"]))
        return (
            f"/search/{what}",
            f"/search/{what}",
            {**params, "query": " ".join(draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=3)))},
        )
    if kind == "trending":
        media, window = (
            draw(st.sampled_from(["all", "movie", "tv", "person"])),
            draw(st.sampled_from(["day", "week"])),
        )
        return "/trending/{media_type}/{time_window}", f"/trending/{media}/{window}", params
    filters = draw(
        st.fixed_dictionaries(
            {},
            optional={
                "with_original_language": st.sampled_from(["en", "ja", "fr"]),
                "vote_average.gte": st.floats(0, 10),
                "sort_by": st.sampled_from(["popularity.desc", "vote_average.asc", "release_date.desc"]),
                "primary_release_date.gte": st.sampled_from(["1990-01-01", "2021-01-01"]),
            },
        )
    )
    return "/discover/movie", "/discover/movie", {**params, **filters}


def test_valid_id_fuzz(schema_errors):
    client = TestClient(create_app(), base_url="http://tmdb.test", headers=AUTH)
    failures: list[str] = []

    @settings(max_examples=200, **SETTINGS)
    @given(request=valid_requests())
    def run(request):
        template, path, params = request
        response = client.get("/3" + path, params=params)
        if response.status_code != 200:
            failures.append(f"{path} {params} -> {response.status_code} {response.text[:200]}")
            return
        _check(response, template, schema_errors, failures, f"{path} {params}")

    run()
    assert not failures, failures[:10]
