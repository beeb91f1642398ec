"""One handler per TMDB operation: parse parameters like TMDB does, look up, render a view.

A handler is ``handler(db, path_params, query) -> body`` and raises ``NotFound`` / ``BadParam``
(``params``); ``app`` turns those into TMDB's error bodies. ``ROUTES`` lists all 54 templates of
``tmdb_oas.json`` (a test checks the set is exactly the spec's). Search, discover and trending
live in ``finders``.
"""

from __future__ import annotations

from restgraph.tools.sandbox.tmdb import views as v
from restgraph.tools.sandbox.tmdb.derive import MOVIE_GENRES, TV_GENRES
from restgraph.tools.sandbox.tmdb.finders import (
    discover_movie,
    discover_tv,
    genre_list,
    search_collection,
    search_company,
    search_movie,
    search_person,
    search_tv,
    trending,
)
from restgraph.tools.sandbox.tmdb.params import (
    BadParam,
    Handler,
    NotFound,
    _episode,
    _id,
    _movies,
    _page,
    _season,
    _shows,
)

__all__ = ["ROUTES", "BadParam", "NotFound"]


# --- movies ------------------------------------------------------------------------------------------
_APPENDABLE = {
    "credits": lambda db, m, q: v.movie_credits(db, m),
    "images": lambda db, m, q: v.movie_images(m),
    "keywords": lambda db, m, q: {"keywords": v.keywords(m.keywords)},
    "release_dates": lambda db, m, q: v.release_dates(m),
    "reviews": lambda db, m, q: v.reviews(m.id, m.reviews, "movie", 1),
    "similar": lambda db, m, q: v.paged(_movies(db, m.similar), 1),
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
    body.update(
        popularity=int(round(body["popularity"])),
        vote_average=int(round(body["vote_average"])),
        runtime=body["runtime"] or 0,
    )
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
    return v.tv_credits(
        db, v.season_id(s, season), season.cast or s.cast, season.crew, f"tv{s.id}s{season.season_number}"
    )


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
    return {
        "cast": v.tv_credits(db, 0, season.cast or s.cast, [], f"tv{s.id}")["cast"],
        "crew": body["crew"],
        "guest_stars": body["guest_stars"],
        "id": body["id"],
    }


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
        return {
            "images": v.person_images,
            "movie_credits": lambda p: v.person_movie_credits(db, p),
            "tv_credits": lambda p: v.person_tv_credits(db, p),
        }[kind](p)

    return handler


def person_popular(db, path, q):  # noqa: ANN001
    return v.paged_render(
        [db.people[i] for i in db.lists.person_popular], _page(q), lambda p: v.person_item(db, p)
    )


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
    from restgraph.tools.sandbox.tmdb.lookup import find_credit

    found = find_credit(db, path["credit_id"])
    if found is None:
        raise NotFound
    return found


def review(db, path, q):  # noqa: ANN001
    from restgraph.tools.sandbox.tmdb.lookup import find_review

    found = find_review(db, path["review_id"])
    if found is None:
        raise NotFound
    return found


ROUTES: list[tuple[str, Handler]] = [
    ("/movie/popular", movie_list("movie_popular")),
    ("/movie/top_rated", movie_list("movie_top_rated")),
    ("/movie/now_playing", movie_list("movie_now_playing", dated=True)),
    ("/movie/upcoming", movie_list("movie_upcoming", dated=True)),
    ("/movie/latest", movie_latest),
    ("/movie/{movie_id}", movie_detail),
    *[
        (f"/movie/{{movie_id}}/{k}", movie_sub(k))
        for k in ("credits", "images", "keywords", "release_dates", "reviews", "similar", "recommendations")
    ],
    ("/tv/popular", tv_list("tv_popular")),
    ("/tv/top_rated", tv_list("tv_top_rated")),
    ("/tv/on_the_air", tv_list("tv_on_the_air")),
    ("/tv/airing_today", tv_list("tv_airing_today")),
    ("/tv/latest", tv_latest),
    ("/tv/{tv_id}", tv_detail),
    *[
        (f"/tv/{{tv_id}}/{k}", tv_sub(k))
        for k in ("credits", "images", "keywords", "reviews", "similar", "recommendations")
    ],
    ("/tv/{tv_id}/season/{season_number}", season_detail),
    ("/tv/{tv_id}/season/{season_number}/credits", season_credits),
    ("/tv/{tv_id}/season/{season_number}/images", season_images),
    ("/tv/{tv_id}/season/{season_number}/episode/{episode_number}", episode_detail),
    ("/tv/{tv_id}/season/{season_number}/episode/{episode_number}/credits", episode_credits),
    ("/tv/{tv_id}/season/{season_number}/episode/{episode_number}/images", episode_images),
    ("/person/popular", person_popular),
    ("/person/{person_id}", person_detail),
    *[(f"/person/{{person_id}}/{k}", person_sub(k)) for k in ("images", "movie_credits", "tv_credits")],
    ("/search/movie", search_movie),
    ("/search/tv", search_tv),
    ("/search/person", search_person),
    ("/search/company", search_company),
    ("/search/collection", search_collection),
    ("/discover/movie", discover_movie),
    ("/discover/tv", discover_tv),
    ("/trending/{media_type}/{time_window}", trending),
    ("/genre/movie/list", genre_list(MOVIE_GENRES)),
    ("/genre/tv/list", genre_list(TV_GENRES)),
    ("/company/{company_id}", company),
    ("/company/{company_id}/images", company_images),
    ("/network/{network_id}", network),
    ("/network/{network_id}/images", network_images),
    ("/collection/{collection_id}", collection),
    ("/collection/{collection_id}/images", collection_images),
    ("/credit/{credit_id}", credit),
    ("/review/{review_id}", review),
]
