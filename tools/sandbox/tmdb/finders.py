"""Handlers of the list-shaped lookups: search, discover, trending and the genre lists.

Searches match and rank like TMDB's (``search``: word/prefix matching, exact name first, then
popularity) and render only the requested page.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from restgraph.tools.sandbox.tmdb import views as v
from restgraph.tools.sandbox.tmdb.db import FixtureDB
from restgraph.tools.sandbox.tmdb.derive import MOVIE_GENRES, TV_GENRES
from restgraph.tools.sandbox.tmdb.padding.entities import is_generated
from restgraph.tools.sandbox.tmdb.params import (
    BadParam,
    Handler,
    NotFound,
    _bool,
    _float,
    _int,
    _movies,
    _page,
    _query_text,
    _shows,
)
from restgraph.tools.sandbox.tmdb.search import SearchIndex


@lru_cache(maxsize=16)
def _index(db: FixtureDB, kind: str) -> SearchIndex:
    """One inverted index per database and kind; organisations have no popularity: authored ones rank first."""
    if kind == "movie":
        return SearchIndex(
            db.movies.values(), lambda m: [m.title, m.original_title or ""], lambda m: (-m.popularity, m.id)
        )
    if kind == "tv":
        return SearchIndex(
            db.shows.values(), lambda s: [s.name, s.original_name or ""], lambda s: (-s.popularity, s.id)
        )
    if kind == "person":
        return SearchIndex(
            db.people.values(), lambda p: [p.name, *p.also_known_as], lambda p: (-p.popularity, p.id)
        )
    table = db.companies if kind == "company" else db.collections
    return SearchIndex(table.values(), lambda c: [c.name], lambda c: (is_generated(c.id), c.id))


# --- search, discover, trending, genres --------------------------------------------------------------
def search_movie(db, path, q):  # noqa: ANN001
    text, page = _query_text(q), _page(q)
    year, pyear = _int(q, "year"), _int(q, "primary_release_year")
    _bool(q, "include_adult")
    hits = _index(db, "movie").search(text)
    for y in (year, pyear):
        if y is not None:
            hits = [m for m in hits if m.release_date[:4] == str(y)]
    return v.paged_render(hits, page, v.movie_item)


def search_tv(db, path, q):  # noqa: ANN001
    text, page, year = _query_text(q), _page(q), _int(q, "first_air_date_year")
    _bool(q, "include_adult")
    hits = _index(db, "tv").search(text)
    if year is not None:
        hits = [s for s in hits if s.first_air_date[:4] == str(year)]
    return v.paged_render(hits, page, v.tv_item)


def search_person(db, path, q):  # noqa: ANN001
    text, page = _query_text(q), _page(q)
    _bool(q, "include_adult")
    hits = _index(db, "person").search(text)
    return v.paged_render(hits, page, lambda p: v.person_item(db, p))


def search_company(db, path, q):  # noqa: ANN001
    text, page = _query_text(q), _page(q)
    hits = _index(db, "company").search(text)
    return v.paged(
        [
            {
                "id": c.id,
                "logo_path": v.company_logos(c.id)[0]["file_path"],
                "name": c.name,
                "origin_country": c.origin_country,
            }
            for c in hits
        ],
        page,
    )


def search_collection(db, path, q):  # noqa: ANN001
    text, page = _query_text(q), _page(q)
    hits = _index(db, "collection").search(text)

    def item(c: Any) -> dict[str, Any]:
        detail = v.collection_detail(db, c.id)
        return {k: detail[k] for k in ("id", "name", "poster_path", "backdrop_path")} | {"adult": False}

    return v.paged_render(hits, page, item)  # only the requested page is rendered


_SORTS = {
    "popularity": "popularity",
    "vote_average": "vote_average",
    "vote_count": "vote_count",
    "release_date": "release_date",
    "primary_release_date": "release_date",
    "original_title": "original_title",
    "revenue": "revenue",
    "first_air_date": "first_air_date",
}


def _sort(items: list, sort_by: str, default: str = "popularity.desc") -> list:
    field, _, direction = (sort_by or default).partition(".")
    if field not in _SORTS or direction not in ("asc", "desc"):
        raise BadParam(f"sort_by must be one of the documented values, got {sort_by!r}")
    attr = _SORTS[field]

    def key(x: Any) -> tuple:
        value = getattr(x, attr, None)
        if attr == "original_title":
            value = value or x.title
        return (
            value is None,
            0 if value is None else value,
            x.id,
        )  # a zero rating stays a number (it fell back to the title)

    return sorted(items, key=key, reverse=direction == "desc")


def _id_list(raw: str | None) -> set[str] | None:
    return None if not raw else {p.strip() for p in raw.replace("|", ",").split(",") if p.strip()}


def discover_movie(db, path, q):  # noqa: ANN001
    page = _page(q)
    vmin, vmax, cmin, cmax = (
        _float(q, "vote_average.gte"),
        _float(q, "vote_average.lte"),
        _int(q, "vote_count.gte"),
        _int(q, "vote_count.lte"),
    )
    year, pyear = _int(q, "year"), _int(q, "primary_release_year")
    (
        _int(q, "with_runtime.gte"),
        _int(q, "with_runtime.lte"),
        _int(q, "with_release_type"),
        _bool(q, "include_adult"),
        _bool(q, "include_video"),
    )
    lang, genres = q.get("with_original_language"), _id_list(q.get("with_genres"))
    people = (
        (_id_list(q.get("with_cast")) or set())
        | (_id_list(q.get("with_crew")) or set())
        | (_id_list(q.get("with_people")) or set())
    )
    companies = _id_list(q.get("with_companies"))
    after = max(
        (q[k] for k in ("primary_release_date.gte", "release_date.gte") if q.get(k)), default=""
    )  # bounds read once: the scan
    before = min(
        (q[k] for k in ("primary_release_date.lte", "release_date.lte") if q.get(k)), default="\uffff"
    )  # covers every film
    years = {str(y) for y in (year, pyear) if y is not None}
    vmin, cmin = -1.0 if vmin is None else vmin, -1 if cmin is None else cmin
    vmax, cmax = float("inf") if vmax is None else vmax, float("inf") if cmax is None else cmax
    out = []
    for m in db.movies.values():
        date = m.release_date
        if (
            lang
            and m.original_language != lang
            or not vmin <= m.vote_average <= vmax
            or not cmin <= m.vote_count <= cmax
        ):
            continue
        if not after <= date <= before or years and (len(years) > 1 or date[:4] not in years):
            continue
        if genres and not genres <= {str(MOVIE_GENRES[g]) for g in m.genres}:
            continue
        if people and not people & {str(pid) for pid, _ in m.cast + m.crew}:
            continue
        if companies and not companies & {str(c) for c in m.companies}:
            continue
        out.append(m)
    return v.paged_render(_sort(out, q.get("sort_by", "")), page, v.movie_item)


def discover_tv(db, path, q):  # noqa: ANN001
    page = _page(q)
    vmin, cmin, fyear = (
        _float(q, "vote_average.gte"),
        _int(q, "vote_count.gte"),
        _int(q, "first_air_date_year"),
    )
    (
        _int(q, "with_runtime.gte"),
        _int(q, "with_runtime.lte"),
        _bool(q, "include_null_first_air_dates"),
        _bool(q, "screened_theatrically"),
    )
    lang, genres, networks = (
        q.get("with_original_language"),
        _id_list(q.get("with_genres")),
        _id_list(q.get("with_networks")),
    )
    out = []
    for s in db.shows.values():
        if (
            lang
            and s.original_language != lang
            or vmin is not None
            and s.vote_average < vmin
            or cmin is not None
            and s.vote_count < cmin
        ):
            continue
        if fyear is not None and s.first_air_date[:4] != str(fyear):
            continue
        if (
            q.get("first_air_date.gte")
            and s.first_air_date < q["first_air_date.gte"]
            or q.get("first_air_date.lte")
            and s.first_air_date > q["first_air_date.lte"]
        ):
            continue
        if (
            genres
            and not genres <= {str(TV_GENRES[g]) for g in s.genres}
            or networks
            and not networks & {str(n) for n in s.networks}
        ):
            continue
        out.append(s)
    return v.paged_render(_sort(out, q.get("sort_by", "")), page, v.tv_item)


def trending(db, path, q):  # noqa: ANN001
    media, window = path["media_type"], path["time_window"]
    if media not in ("all", "movie", "tv", "person") or window not in ("day", "week"):
        raise NotFound
    page = _page(q)
    lists = db.lists

    def items(kind: str) -> list[dict[str, Any]]:
        ids = getattr(lists, f"trending_{kind}_{window}")
        if kind == "movie":
            return [x | {"media_type": "movie"} for x in _movies(db, ids)]
        if kind == "tv":
            return [x | {"media_type": "tv"} for x in _shows(db, ids)]
        return [v.person_item(db, db.people[i]) | {"media_type": "person"} for i in ids]

    if media != "all":
        return v.paged(items(media), page)
    merged = [x for trio in zip(items("movie"), items("tv"), items("person"), strict=False) for x in trio]
    return v.paged(merged, page)


def genre_list(table: dict[str, int]) -> Handler:
    def handler(db, path, q):  # noqa: ANN001
        return {"genres": [{"id": i, "name": n} for n, i in table.items()]}

    return handler
