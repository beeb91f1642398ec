"""One handler per TMDB operation: parse parameters like TMDB does, look up, render a view.

A handler is ``handler(db, path_params, query) -> body`` and raises ``NotFound`` / ``BadParam``;
``app`` turns those into TMDB's error bodies. ``ROUTES`` lists all 54 templates of
``tmdb_oas.json`` (a test checks the set is exactly the spec's).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tools.sandbox.tmdb import views as v
from tools.sandbox.tmdb.db import FixtureDB, search
from tools.sandbox.tmdb.derive import MOVIE_GENRES, TV_GENRES


class NotFound(LookupError):
    pass


class BadParam(ValueError):
    def __init__(self, message: str, status: int = 422, code: int = 22):
        super().__init__(message)
        self.status, self.code = status, code


Query = Mapping[str, str]
Handler = Callable[[FixtureDB, dict[str, str], Query], dict[str, Any]]


# --- parameter parsing -----------------------------------------------------------------------------
def _id(path: dict[str, str], name: str, table: Mapping[int, Any]) -> Any:
    try:
        key = int(path[name])
    except ValueError:
        raise NotFound from None
    if key not in table:
        raise NotFound
    return table[key]


def _int(query: Query, name: str) -> int | None:
    raw = query.get(name)
    if raw is None or raw == "":
        return None
    try:
        return int(raw)
    except ValueError:
        raise BadParam(f"{name} must be an integer") from None


def _float(query: Query, name: str) -> float | None:
    raw = query.get(name)
    if raw is None or raw == "":
        return None
    try:
        value = float(raw)
    except ValueError:
        raise BadParam(f"{name} must be a number") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise BadParam(f"{name} must be a finite number")
    return value


def _bool(query: Query, name: str) -> bool | None:
    raw = query.get(name)
    if raw is None or raw == "":
        return None
    if raw.lower() not in ("true", "false"):
        raise BadParam(f"{name} must be true or false")
    return raw.lower() == "true"


def _page(query: Query) -> int:
    page = _int(query, "page")
    if page is None:
        return 1
    if not 1 <= page <= 500:
        raise BadParam("Invalid page: Pages start at 1 and max at 500. They are expected to be an integer.", status=400)
    return page


def _query_text(query: Query) -> str:
    text = (query.get("query") or "").strip()
    if not text:
        raise BadParam("query must be provided")
    return text


def _season(db: FixtureDB, show, path: dict[str, str]):  # noqa: ANN001
    try:
        season = db.season(show, int(path["season_number"]))
    except ValueError:
        raise NotFound from None
    if season is None:
        raise NotFound
    return season


def _episode(season, path: dict[str, str]):  # noqa: ANN001
    try:
        number = int(path["episode_number"])
    except ValueError:
        raise NotFound from None
    episode = next((e for e in season.episodes if e.episode_number == number), None)
    if episode is None:
        raise NotFound
    return episode


def _movies(db: FixtureDB, ids: list[int]) -> list[dict[str, Any]]:
    return [v.movie_item(db.movies[i]) for i in ids]


def _shows(db: FixtureDB, ids: list[int]) -> list[dict[str, Any]]:
    return [v.tv_item(db.shows[i]) for i in ids]


# --- movies ------------------------------------------------------------------------------------------
_APPENDABLE = {
    "credits": lambda db, m, q: v.movie_credits(db, m), "images": lambda db, m, q: v.movie_images(m),
    "keywords": lambda db, m, q: {"keywords": v.keywords(m.keywords)}, "release_dates": lambda db, m, q: v.release_dates(m),
    "reviews": lambda db, m, q: v.reviews(m.id, m.reviews, "movie", 1), "similar": lambda db, m, q: v.paged(_movies(db, m.similar), 1),
    "recommendations": lambda db, m, q: v.paged(_movies(db, m.recommendations), 1),
}


def movie_detail(db, path, q):  # noqa: ANN001
    m = _id(path, "movie_id", db.movies)
    body = v.movie_detail(db, m)
    for part in [p.strip() for p in (q.get("append_to_response") or "").split(",") if p.strip()][:20]:
        if part in _APPENDABLE:
            body[part] = _APPENDABLE[part](db, m, q)
    return body


def movie_sub(kind: str) -> Handler:
    def handler(db, path, q):  # noqa: ANN001
        m = _id(path, "movie_id", db.movies)
        page = _page(q)
        if kind == "credits":
            return v.movie_credits(db, m)
        if kind == "images":
            return v.movie_images(m)
        if kind == "keywords":
            return {"id": m.id, "keywords": v.keywords(m.keywords)}
        if kind == "release_dates":
            return v.release_dates(m)
        if kind == "reviews":
            return v.reviews(m.id, m.reviews, "movie", page)
        return {"id": m.id, **v.paged(_movies(db, getattr(m, kind)), page)}

    return handler


def movie_list(name: str, dated: bool = False) -> Handler:
    def handler(db, path, q):  # noqa: ANN001
        page = _page(q)
        extra = {"dates": {"maximum": db.lists.frozen_at, "minimum": db.lists.frozen_at}} if dated else {}
        return v.paged(_movies(db, getattr(db.lists, name)), page, **extra)

    return handler


def movie_latest(db, path, q):  # noqa: ANN001
    body = v.movie_detail(db, db.movies[db.lists.movie_latest])
    # tmdb_oas types these as integers / non-null strings for /movie/latest only
    body.update(popularity=int(round(body["popularity"])), vote_average=int(round(body["vote_average"])), runtime=body["runtime"] or 0)
    for key in ("homepage", "imdb_id", "overview", "tagline"):
        body[key] = body[key] or ""
    return body


# --- tv ------------------------------------------------------------------------------------------------
def tv_detail(db, path, q):  # noqa: ANN001
    return v.tv_detail(db, _id(path, "tv_id", db.shows))


def tv_sub(kind: str) -> Handler:
    def handler(db, path, q):  # noqa: ANN001
        s = _id(path, "tv_id", db.shows)
        page = _page(q)
        if kind == "credits":
            return v.tv_credits(db, s.id, s.cast, s.crew, f"tv{s.id}")
        if kind == "images":
            return v.tv_images(s)
        if kind == "keywords":
            return {"id": s.id, "results": v.keywords(s.keywords)}
        if kind == "reviews":
            return v.reviews(s.id, s.reviews, "tv", page)
        return {"id": s.id, **v.paged(_shows(db, getattr(s, kind)), page)}

    return handler


def season_detail(db, path, q):  # noqa: ANN001
    s = _id(path, "tv_id", db.shows)
    return v.season_detail(db, s, _season(db, s, path))


def season_credits(db, path, q):  # noqa: ANN001
    s = _id(path, "tv_id", db.shows)
    season = _season(db, s, path)
    return v.tv_credits(db, v.season_id(s, season), season.cast or s.cast, season.crew, f"tv{s.id}s{season.season_number}")


def season_images(db, path, q):  # noqa: ANN001
    s = _id(path, "tv_id", db.shows)
    return v.season_images(s, _season(db, s, path))


def episode_detail(db, path, q):  # noqa: ANN001
    s = _id(path, "tv_id", db.shows)
    season = _season(db, s, path)
    return v.episode_detail(db, s, season, _episode(season, path))


def episode_credits(db, path, q):  # noqa: ANN001
    s = _id(path, "tv_id", db.shows)
    season = _season(db, s, path)
    e = _episode(season, path)
    body = v.episode_detail(db, s, season, e)
    return {"cast": v.tv_credits(db, 0, season.cast or s.cast, [], f"tv{s.id}")["cast"], "crew": body["crew"], "guest_stars": body["guest_stars"], "id": body["id"]}


def episode_images(db, path, q):  # noqa: ANN001
    s = _id(path, "tv_id", db.shows)
    season = _season(db, s, path)
    e = _episode(season, path)
    return {"id": v.episode_id(s, season, e), "stills": v.episode_stills(s, season, e)}


def tv_list(name: str) -> Handler:
    def handler(db, path, q):  # noqa: ANN001
        return v.paged(_shows(db, getattr(db.lists, name)), _page(q))

    return handler


def tv_latest(db, path, q):  # noqa: ANN001
    body = v.tv_detail(db, db.shows[db.lists.tv_latest])
    body["popularity"] = int(round(body["popularity"]))
    return body


# --- people ----------------------------------------------------------------------------------------------
def person_detail(db, path, q):  # noqa: ANN001
    return v.person_detail(_id(path, "person_id", db.people))


def person_sub(kind: str) -> Handler:
    def handler(db, path, q):  # noqa: ANN001
        p = _id(path, "person_id", db.people)
        return {"images": v.person_images, "movie_credits": lambda p: v.person_movie_credits(db, p), "tv_credits": lambda p: v.person_tv_credits(db, p)}[kind](p)

    return handler


def person_popular(db, path, q):  # noqa: ANN001
    return v.paged_render([db.people[i] for i in db.lists.person_popular], _page(q), lambda p: v.person_item(db, p))


# --- search, discover, trending, genres --------------------------------------------------------------
def search_movie(db, path, q):  # noqa: ANN001
    text, page = _query_text(q), _page(q)
    year, pyear = _int(q, "year"), _int(q, "primary_release_year")
    _bool(q, "include_adult")
    hits = search(list(db.movies.values()), text, lambda m: [m.title, m.original_title or ""], lambda m: m.popularity)
    for y in (year, pyear):
        if y is not None:
            hits = [m for m in hits if m.release_date[:4] == str(y)]
    return v.paged_render(hits, page, v.movie_item)


def search_tv(db, path, q):  # noqa: ANN001
    text, page, year = _query_text(q), _page(q), _int(q, "first_air_date_year")
    _bool(q, "include_adult")
    hits = search(list(db.shows.values()), text, lambda s: [s.name, s.original_name or ""], lambda s: s.popularity)
    if year is not None:
        hits = [s for s in hits if s.first_air_date[:4] == str(year)]
    return v.paged_render(hits, page, v.tv_item)


def search_person(db, path, q):  # noqa: ANN001
    text, page = _query_text(q), _page(q)
    _bool(q, "include_adult")
    hits = search(list(db.people.values()), text, lambda p: [p.name, *p.also_known_as], lambda p: p.popularity)
    return v.paged_render(hits, page, lambda p: v.person_item(db, p))


def search_company(db, path, q):  # noqa: ANN001
    text, page = _query_text(q), _page(q)
    hits = search(list(db.companies.values()), text, lambda c: [c.name], lambda c: 0.0)
    return v.paged([{"id": c.id, "logo_path": v.company_logos(c.id)[0]["file_path"], "name": c.name, "origin_country": c.origin_country} for c in hits], page)


def search_collection(db, path, q):  # noqa: ANN001
    text, page = _query_text(q), _page(q)
    hits = search(list(db.collections.values()), text, lambda c: [c.name], lambda c: 0.0)
    return v.paged([{k: d[k] for k in ("id", "name", "poster_path", "backdrop_path")} | {"adult": False} for d in (v.collection_detail(db, c.id) for c in hits)], page)


_SORTS = {"popularity": "popularity", "vote_average": "vote_average", "vote_count": "vote_count", "release_date": "release_date", "primary_release_date": "release_date",
          "original_title": "original_title", "revenue": "revenue", "first_air_date": "first_air_date"}


def _sort(items: list, sort_by: str, default: str = "popularity.desc") -> list:
    field, _, direction = (sort_by or default).partition(".")
    if field not in _SORTS or direction not in ("asc", "desc"):
        raise BadParam(f"sort_by must be one of the documented values, got {sort_by!r}")
    attr = _SORTS[field]
    return sorted(items, key=lambda x: (getattr(x, attr, None) or getattr(x, "title", "") or 0, x.id), reverse=direction == "desc")


def _id_list(raw: str | None) -> set[str] | None:
    return None if not raw else {p.strip() for p in raw.replace("|", ",").split(",") if p.strip()}


def discover_movie(db, path, q):  # noqa: ANN001
    page = _page(q)
    vmin, vmax, cmin, cmax = _float(q, "vote_average.gte"), _float(q, "vote_average.lte"), _int(q, "vote_count.gte"), _int(q, "vote_count.lte")
    year, pyear = _int(q, "year"), _int(q, "primary_release_year")
    _int(q, "with_runtime.gte"), _int(q, "with_runtime.lte"), _int(q, "with_release_type"), _bool(q, "include_adult"), _bool(q, "include_video")
    lang, genres = q.get("with_original_language"), _id_list(q.get("with_genres"))
    people = (_id_list(q.get("with_cast")) or set()) | (_id_list(q.get("with_crew")) or set()) | (_id_list(q.get("with_people")) or set())
    companies = _id_list(q.get("with_companies"))
    out = []
    for m in db.movies.values():
        date = m.release_date
        if lang and m.original_language != lang:
            continue
        if vmin is not None and m.vote_average < vmin or vmax is not None and m.vote_average > vmax:
            continue
        if cmin is not None and m.vote_count < cmin or cmax is not None and m.vote_count > cmax:
            continue
        if any(q.get(k) and date < q[k] for k in ("primary_release_date.gte", "release_date.gte")):
            continue
        if any(q.get(k) and date > q[k] for k in ("primary_release_date.lte", "release_date.lte")):
            continue
        if any(y is not None and date[:4] != str(y) for y in (year, pyear)):
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
    vmin, cmin, fyear = _float(q, "vote_average.gte"), _int(q, "vote_count.gte"), _int(q, "first_air_date_year")
    _int(q, "with_runtime.gte"), _int(q, "with_runtime.lte"), _bool(q, "include_null_first_air_dates"), _bool(q, "screened_theatrically")
    lang, genres, networks = q.get("with_original_language"), _id_list(q.get("with_genres")), _id_list(q.get("with_networks"))
    out = []
    for s in db.shows.values():
        if lang and s.original_language != lang or vmin is not None and s.vote_average < vmin or cmin is not None and s.vote_count < cmin:
            continue
        if fyear is not None and s.first_air_date[:4] != str(fyear):
            continue
        if q.get("first_air_date.gte") and s.first_air_date < q["first_air_date.gte"] or q.get("first_air_date.lte") and s.first_air_date > q["first_air_date.lte"]:
            continue
        if genres and not genres <= {str(TV_GENRES[g]) for g in s.genres} or networks and not networks & {str(n) for n in s.networks}:
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


# --- companies, networks, collections, credits, reviews ------------------------------------------------
def company(db, path, q):  # noqa: ANN001
    return v.company_detail(db, _id(path, "company_id", db.companies).id)


def company_images(db, path, q):  # noqa: ANN001
    c = _id(path, "company_id", db.companies)
    return {"id": c.id, "logos": v.company_logos(c.id)}


def network(db, path, q):  # noqa: ANN001
    return v.network_detail(db, _id(path, "network_id", db.networks).id)


def network_images(db, path, q):  # noqa: ANN001
    n = _id(path, "network_id", db.networks)
    return {"id": n.id, "logos": v.network_logos(db, n.id)}


def collection(db, path, q):  # noqa: ANN001
    return v.collection_detail(db, _id(path, "collection_id", db.collections).id)


def collection_images(db, path, q):  # noqa: ANN001
    return v.collection_images(_id(path, "collection_id", db.collections).id)


def credit(db, path, q):  # noqa: ANN001
    from tools.sandbox.tmdb.lookup import find_credit

    found = find_credit(db, path["credit_id"])
    if found is None:
        raise NotFound
    return found


def review(db, path, q):  # noqa: ANN001
    from tools.sandbox.tmdb.lookup import find_review

    found = find_review(db, path["review_id"])
    if found is None:
        raise NotFound
    return found


ROUTES: list[tuple[str, Handler]] = [
    ("/movie/popular", movie_list("movie_popular")), ("/movie/top_rated", movie_list("movie_top_rated")),
    ("/movie/now_playing", movie_list("movie_now_playing", dated=True)), ("/movie/upcoming", movie_list("movie_upcoming", dated=True)),
    ("/movie/latest", movie_latest), ("/movie/{movie_id}", movie_detail),
    *[(f"/movie/{{movie_id}}/{k}", movie_sub(k)) for k in ("credits", "images", "keywords", "release_dates", "reviews", "similar", "recommendations")],
    ("/tv/popular", tv_list("tv_popular")), ("/tv/top_rated", tv_list("tv_top_rated")), ("/tv/on_the_air", tv_list("tv_on_the_air")),
    ("/tv/airing_today", tv_list("tv_airing_today")), ("/tv/latest", tv_latest), ("/tv/{tv_id}", tv_detail),
    *[(f"/tv/{{tv_id}}/{k}", tv_sub(k)) for k in ("credits", "images", "keywords", "reviews", "similar", "recommendations")],
    ("/tv/{tv_id}/season/{season_number}", season_detail), ("/tv/{tv_id}/season/{season_number}/credits", season_credits),
    ("/tv/{tv_id}/season/{season_number}/images", season_images),
    ("/tv/{tv_id}/season/{season_number}/episode/{episode_number}", episode_detail),
    ("/tv/{tv_id}/season/{season_number}/episode/{episode_number}/credits", episode_credits),
    ("/tv/{tv_id}/season/{season_number}/episode/{episode_number}/images", episode_images),
    ("/person/popular", person_popular), ("/person/{person_id}", person_detail),
    *[(f"/person/{{person_id}}/{k}", person_sub(k)) for k in ("images", "movie_credits", "tv_credits")],
    ("/search/movie", search_movie), ("/search/tv", search_tv), ("/search/person", search_person),
    ("/search/company", search_company), ("/search/collection", search_collection),
    ("/discover/movie", discover_movie), ("/discover/tv", discover_tv), ("/trending/{media_type}/{time_window}", trending),
    ("/genre/movie/list", genre_list(MOVIE_GENRES)), ("/genre/tv/list", genre_list(TV_GENRES)),
    ("/company/{company_id}", company), ("/company/{company_id}/images", company_images),
    ("/network/{network_id}", network), ("/network/{network_id}/images", network_images),
    ("/collection/{collection_id}", collection), ("/collection/{collection_id}/images", collection_images),
    ("/credit/{credit_id}", credit), ("/review/{review_id}", review),
]
