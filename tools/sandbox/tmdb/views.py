"""TMDB-shaped JSON for fixture entities (the bodies the sandbox returns).

Field sets follow the real API (and therefore ``tmdb_oas.json``'s response schemas, which the
tests validate every body against). Quirks of that spec are honoured on purpose, e.g. image
``vote_average`` is an integer for movie/company/network images and ``/movie/latest`` has integer
``popularity``.
"""

from __future__ import annotations

from typing import Any

from restgraph.tools.sandbox.tmdb.db import FixtureDB
from restgraph.tools.sandbox.tmdb.derive import (
    MOVIE_GENRES,
    TV_GENRES,
    department,
    hex_id,
    image_path,
    keyword_id,
)
from restgraph.tools.sandbox.tmdb.models import Episode, Movie, Person, Review, Season, TVShow

PAGE_SIZE = 20


def images(
    kind: str,
    owner: str,
    count: int,
    *,
    aspect: float,
    width: int,
    lang: str | None = "en",
    ext: str = ".jpg",
    int_votes: bool = False,
) -> list[dict[str, Any]]:
    """``int_votes``: the spec types movie/company/network image votes as integers, the rest as numbers
    (some as ``oneOf: [integer, number]``, which a Python int would match twice)."""
    height = int(width / aspect)
    return [
        {
            "aspect_ratio": aspect,
            "file_path": image_path(kind, owner, n, ext),
            "height": height,
            "iso_639_1": lang,
            "vote_average": (5 + n % 3) if int_votes else 5.0 + (n % 3) + 0.25,
            "vote_count": 10 - n,
            "width": width,
        }
        for n in range(count)
    ]


def posters(owner: str, count: int, int_votes: bool = False) -> list[dict[str, Any]]:
    return images("poster", owner, count, aspect=0.667, width=2000, int_votes=int_votes)


def backdrops(owner: str, count: int, int_votes: bool = False) -> list[dict[str, Any]]:
    return images("backdrop", owner, count, aspect=1.778, width=3840, lang=None, int_votes=int_votes)


def first_path(items: list[dict[str, Any]]) -> str | None:
    return items[0]["file_path"] if items else None


def paged(results: list[dict[str, Any]], page: int, **extra: Any) -> dict[str, Any]:
    start = (page - 1) * PAGE_SIZE
    total = len(results)
    return {
        "page": page,
        "results": results[start : start + PAGE_SIZE],
        "total_pages": max(1, -(-total // PAGE_SIZE)) if total else 0,
        "total_results": total,
        **extra,
    }


def paged_render(items: list[Any], page: int, render: Any, **extra: Any) -> dict[str, Any]:
    """Like ``paged`` but renders only the requested page (searches can hit most of the database)."""
    start = (page - 1) * PAGE_SIZE
    body = paged([{}] * len(items), page, **extra)
    body["results"] = [render(i) for i in items[start : start + PAGE_SIZE]]
    return body


# --- movies ------------------------------------------------------------------------------------------
def movie_poster(m: Movie) -> str | None:
    return image_path("poster", f"movie{m.id}", 0) if m.images else None


_ITEMS: dict[tuple[str, int], tuple[Any, dict[str, Any]]] = {}


def _memo(kind: str, entity: Any, build: Any) -> dict[str, Any]:
    """A list item is a pure function of its (read-only) entity: built once, handed out as a shallow copy.
    The entity is kept with its body, so an id() is never reused while the entry lives."""
    hit = _ITEMS.get((kind, id(entity)))
    if hit is None or hit[0] is not entity:
        hit = _ITEMS[(kind, id(entity))] = (entity, build(entity))
    return dict(hit[1])


def movie_item(m: Movie) -> dict[str, Any]:
    return _memo("movie", m, _movie_item)


def _movie_item(m: Movie) -> dict[str, Any]:
    return {
        "adult": False,
        "backdrop_path": image_path("backdrop", f"movie{m.id}", 0) if m.images else None,
        "genre_ids": [MOVIE_GENRES[g] for g in m.genres],
        "id": m.id,
        "original_language": m.original_language,
        "original_title": m.original_title or m.title,
        "overview": m.overview,
        "popularity": m.popularity,
        "poster_path": movie_poster(m),
        "release_date": m.release_date,
        "title": m.title,
        "video": False,
        "vote_average": m.vote_average,
        "vote_count": m.vote_count,
    }


def movie_detail(db: FixtureDB, m: Movie) -> dict[str, Any]:
    coll = db.collection_of(m.id)
    body = movie_item(m)
    del body["genre_ids"]
    body.update(
        {
            "belongs_to_collection": None
            if coll is None
            else {
                "id": coll.id,
                "name": coll.name,
                "poster_path": first_path(posters(f"collection{coll.id}", 2)),
                "backdrop_path": first_path(backdrops(f"collection{coll.id}", 2)),
            },
            "budget": m.budget,
            "genres": [{"id": MOVIE_GENRES[g], "name": g} for g in m.genres],
            "homepage": m.homepage,
            "imdb_id": m.imdb_id,
            "production_companies": [company_brief(db, cid) for cid in m.companies],
            "production_countries": [{"iso_3166_1": c, "name": c} for c in m.countries],
            "revenue": m.revenue,
            "runtime": m.runtime,
            "spoken_languages": [
                {"iso_639_1": lang, "name": lang} for lang in (m.languages or [m.original_language])
            ],
            "status": m.status,
            "tagline": m.tagline,
        }
    )
    return body


def movie_credits(db: FixtureDB, m: Movie) -> dict[str, Any]:
    cast = [
        cast_entry(db, pid, ch, i, f"movie{m.id}") | {"cast_id": i + 1} for i, (pid, ch) in enumerate(m.cast)
    ]
    crew = [crew_entry(db, pid, job, f"movie{m.id}") for pid, job in m.crew]
    return {"id": m.id, "cast": cast, "crew": crew}


def cast_entry(db: FixtureDB, pid: int, character: str, order: int, owner: str) -> dict[str, Any]:
    p = db.people[pid]
    return {
        "adult": False,
        "gender": p.gender,
        "id": pid,
        "known_for_department": p.known_for_department,
        "name": p.name,
        "original_name": p.name,
        "popularity": p.popularity,
        "profile_path": person_profile(p),
        "character": character,
        "credit_id": hex_id("cast", owner, pid, character),
        "order": order,
    }


def crew_entry(db: FixtureDB, pid: int, job: str, owner: str) -> dict[str, Any]:
    p = db.people[pid]
    return {
        "adult": False,
        "gender": p.gender,
        "id": pid,
        "known_for_department": p.known_for_department,
        "name": p.name,
        "original_name": p.name,
        "popularity": p.popularity,
        "profile_path": person_profile(p),
        "credit_id": hex_id("crew", owner, pid, job),
        "department": department(job),
        "job": job,
    }


def movie_images(m: Movie) -> dict[str, Any]:
    return {
        "id": m.id,
        "backdrops": backdrops(f"movie{m.id}", m.images, True),
        "posters": posters(f"movie{m.id}", m.images, True),
        "logos": [],
    }


def keywords(names: list[str]) -> list[dict[str, Any]]:
    return [{"id": keyword_id(n), "name": n} for n in names]


def release_dates(m: Movie) -> dict[str, Any]:
    by_country: dict[str, list[dict[str, Any]]] = {}
    for r in m.release_dates:
        by_country.setdefault(r.country, []).append(
            {
                "certification": r.certification,
                "iso_639_1": "",
                "note": r.note,
                "release_date": f"{r.date}T00:00:00.000Z",
                "type": r.type,
            }
        )
    return {"id": m.id, "results": [{"iso_3166_1": c, "release_dates": v} for c, v in by_country.items()]}


def reviews(media_id: int, items: list[Review], kind: str, page: int) -> dict[str, Any]:
    results = [review(media_id, r, kind, i) for i, r in enumerate(items)]
    return {"id": media_id, **paged(results, page)}


def review(media_id: int, r: Review, kind: str, n: int) -> dict[str, Any]:
    rid = hex_id("review", kind, media_id, n)
    return {
        "author": r.author,
        "author_details": {"name": "", "username": r.author, "avatar_path": None, "rating": None},
        "content": r.content,
        "created_at": r.created_at,
        "id": rid,
        "updated_at": r.created_at,
        "url": f"https://www.themoviedb.org/review/{rid}",
    }


# --- people ------------------------------------------------------------------------------------------
def person_profile(p: Person) -> str | None:
    return image_path("profile", f"person{p.id}", 0) if p.images else None


def person_images(p: Person) -> dict[str, Any]:
    return {
        "id": p.id,
        "profiles": images("profile", f"person{p.id}", p.images, aspect=0.667, width=1000, lang=None),
    }


def person_detail(p: Person) -> dict[str, Any]:
    return {
        "adult": False,
        "also_known_as": p.also_known_as,
        "biography": p.biography,
        "birthday": p.birthday,
        "deathday": p.deathday,
        "gender": p.gender,
        "homepage": p.homepage,
        "id": p.id,
        "imdb_id": p.imdb_id,
        "known_for_department": p.known_for_department,
        "name": p.name,
        "place_of_birth": p.place_of_birth,
        "popularity": p.popularity,
        "profile_path": person_profile(p),
    }


def known_for(db: FixtureDB, p: Person) -> list[dict[str, Any]]:
    """Up to three of the person's most popular works in their own department (TMDB's known_for)."""
    cache = db.__dict__.setdefault("_known_for", {})
    top = cache.get(p.id)
    if top is None:
        acting = p.known_for_department == "Acting"
        seen: dict[tuple[str, int], float] = {}
        for c in db.credits.get(p.id, []):
            if (c.job is None) == acting:
                item = db.movies[c.media_id] if c.media_type == "movie" else db.shows[c.media_id]
                seen[(c.media_type, c.media_id)] = item.popularity
        top = cache[p.id] = sorted(seen, key=lambda k: (-seen[k], k))[:3]
    return [
        (movie_item(db.movies[i]) if t == "movie" else tv_item(db.shows[i])) | {"media_type": t}
        for t, i in top
    ]


def person_item(db: FixtureDB, p: Person) -> dict[str, Any]:
    return {
        "adult": False,
        "gender": p.gender,
        "id": p.id,
        "known_for": known_for(db, p),
        "known_for_department": p.known_for_department,
        "name": p.name,
        "popularity": p.popularity,
        "profile_path": person_profile(p) or "",
    }


def person_movie_credits(db: FixtureDB, p: Person) -> dict[str, Any]:
    cast, crew = [], []
    for c in db.credits.get(p.id, []):
        if c.media_type != "movie":
            continue
        item = movie_item(db.movies[c.media_id])
        if c.job is None:
            cast.append(
                item
                | {
                    "character": c.character,
                    "credit_id": hex_id("cast", f"movie{c.media_id}", p.id, c.character),
                    "order": 0,
                }
            )
        else:
            crew.append(
                item
                | {
                    "credit_id": hex_id("crew", f"movie{c.media_id}", p.id, c.job),
                    "department": department(c.job),
                    "job": c.job,
                }
            )
    return {"cast": cast, "crew": crew, "id": p.id}


def person_tv_credits(db: FixtureDB, p: Person) -> dict[str, Any]:
    cast, crew = [], []
    for c in db.credits.get(p.id, []):
        if c.media_type != "tv":
            continue
        item = tv_item(db.shows[c.media_id]) | {"episode_count": c.episode_count}
        if c.job is None:
            cast.append(
                item
                | {
                    "character": c.character,
                    "credit_id": hex_id("cast", f"tv{c.media_id}", p.id, c.character),
                }
            )
        else:
            crew.append(
                item
                | {
                    "credit_id": hex_id("crew", f"tv{c.media_id}", p.id, c.job),
                    "department": department(c.job),
                    "job": c.job,
                }
            )
    return {"cast": cast, "crew": crew, "id": p.id}


# --- tv ----------------------------------------------------------------------------------------------
def tv_item(s: TVShow) -> dict[str, Any]:
    return _memo("tv", s, _tv_item)


def _tv_item(s: TVShow) -> dict[str, Any]:
    return {
        "backdrop_path": image_path("backdrop", f"tv{s.id}", 0) if s.images else None,
        "first_air_date": s.first_air_date,
        "genre_ids": [TV_GENRES[g] for g in s.genres],
        "id": s.id,
        "name": s.name,
        "origin_country": s.origin_country,
        "original_language": s.original_language,
        "original_name": s.original_name or s.name,
        "overview": s.overview,
        "popularity": s.popularity,
        "poster_path": image_path("poster", f"tv{s.id}", 0) if s.images else None,
        "vote_average": s.vote_average,
        "vote_count": s.vote_count,
    }


def season_poster(s: TVShow, season: Season) -> str:
    return first_path(posters(f"tv{s.id}s{season.season_number}", max(season.images, 1))) or ""


def tv_detail(db: FixtureDB, s: TVShow) -> dict[str, Any]:
    body = tv_item(s)
    del body["genre_ids"]
    last_ep = _last_episode(s)
    body.update(
        {
            "created_by": [
                {
                    "id": pid,
                    "credit_id": hex_id("creator", s.id, pid),
                    "name": db.people[pid].name,
                    "gender": db.people[pid].gender,
                    "profile_path": person_profile(db.people[pid]) or "",
                }
                for pid in s.created_by
            ],
            "episode_run_time": s.episode_run_time,
            "genres": [{"id": TV_GENRES[g], "name": g} for g in s.genres],
            "homepage": s.homepage,
            "in_production": s.in_production,
            "languages": s.languages or [s.original_language],
            "last_air_date": s.last_air_date or s.first_air_date,
            "last_episode_to_air": last_ep,
            "next_episode_to_air": None,
            "networks": [
                {
                    "id": n,
                    "name": db.networks[n].name,
                    "logo_path": network_logos(db, n)[0]["file_path"],
                    "origin_country": db.networks[n].origin_country,
                }
                for n in s.networks
            ],
            "number_of_episodes": db.episode_total(s),
            "number_of_seasons": len([x for x in s.seasons if x.season_number > 0]),
            "production_companies": [company_brief(db, cid) for cid in s.companies],
            "seasons": [
                {
                    "air_date": x.air_date,
                    "episode_count": x.episode_count,
                    "id": season_id(s, x),
                    "name": x.name or f"Season {x.season_number}",
                    "overview": x.overview,
                    "poster_path": season_poster(s, x),
                    "season_number": x.season_number,
                }
                for x in s.seasons
            ],
            "status": s.status,
            "type": s.type,
        }
    )
    return body


def _last_episode(s: TVShow) -> dict[str, Any]:
    """The last aired episode: the final episode of the last season (the spec makes it a required object,
    so seasons authored without episode details get a stub named like TMDB's untitled episodes)."""
    season = max(s.seasons, key=lambda x: x.season_number)
    e = next((x for x in season.episodes if x.episode_number == season.episode_count), None)
    e = e or Episode(
        episode_number=season.episode_count,
        name=f"Episode {season.episode_count}",
        air_date=s.last_air_date or season.air_date,
    )
    return {
        "air_date": e.air_date,
        "episode_number": e.episode_number,
        "id": episode_id(s, season, e),
        "name": e.name,
        "overview": e.overview,
        "production_code": "",
        "season_number": season.season_number,
        "show_id": s.id,
        "still_path": episode_still(s, season, e) or "",
        "vote_average": e.vote_average,
        "vote_count": e.vote_count,
    }


def season_id(s: TVShow, season: Season) -> int:
    return s.id * 100 + season.season_number + 3_000_000


def episode_id(s: TVShow, season: Season, e: Episode) -> int:
    return 5_000_000 + s.id * 1000 + season.season_number * 50 + e.episode_number


def episode_stills(s: TVShow, season: Season, e: Episode) -> list[dict[str, Any]]:
    return images(
        "still",
        f"tv{s.id}s{season.season_number}e{e.episode_number}",
        e.images,
        aspect=1.778,
        width=1920,
        lang=None,
    )


def episode_still(s: TVShow, season: Season, e: Episode) -> str | None:
    return first_path(episode_stills(s, season, e))


def tv_credits(
    db: FixtureDB, owner_id: int, cast: list[tuple[int, str]], crew: list[tuple[int, str]], owner: str
) -> dict[str, Any]:
    return {
        "cast": [cast_entry(db, pid, ch, i, owner) for i, (pid, ch) in enumerate(cast)],
        "crew": [crew_entry(db, pid, job, owner) for pid, job in crew],
        "id": owner_id,
    }


def episode_detail(db: FixtureDB, s: TVShow, season: Season, e: Episode) -> dict[str, Any]:
    owner = f"tv{s.id}s{season.season_number}e{e.episode_number}"
    guests = [cast_entry(db, pid, ch, i, owner) for i, (pid, ch) in enumerate(e.guest_stars)]
    crew = [crew_entry(db, pid, job, owner) for pid, job in e.crew]
    return {
        "air_date": e.air_date,
        "crew": crew,
        "episode_number": e.episode_number,
        "guest_stars": guests,
        "id": episode_id(s, season, e),
        "name": e.name,
        "overview": e.overview,
        "production_code": None,
        "runtime": None,
        "season_number": season.season_number,
        "still_path": episode_still(s, season, e),
        "vote_average": e.vote_average,
        "vote_count": e.vote_count,
    }


def season_detail(db: FixtureDB, s: TVShow, season: Season) -> dict[str, Any]:
    return {
        "_id": hex_id("season", s.id, season.season_number),
        "air_date": season.air_date,
        "episodes": [episode_detail(db, s, season, e) for e in season.episodes],
        "id": season_id(s, season),
        "name": season.name or f"Season {season.season_number}",
        "overview": season.overview,
        "poster_path": season_poster(s, season),
        "season_number": season.season_number,
    }


def tv_images(s: TVShow) -> dict[str, Any]:
    return {
        "backdrops": backdrops(f"tv{s.id}", s.images),
        "id": s.id,
        "posters": posters(f"tv{s.id}", s.images),
        "logos": [],
    }


def season_images(s: TVShow, season: Season) -> dict[str, Any]:
    return {
        "id": season_id(s, season),
        "posters": posters(f"tv{s.id}s{season.season_number}", max(season.images, 1)),
    }


# --- companies, networks, collections --------------------------------------------------------------
def company_logos(cid: int) -> list[dict[str, Any]]:
    return [
        logo | {"id": image_path("logo-id", f"company{cid}", n)[1:25], "file_type": ".png"}
        for n, logo in enumerate(
            images("logo", f"company{cid}", 2, aspect=2.0, width=800, lang=None, ext=".png", int_votes=True)
        )
    ]


def network_logos(db: FixtureDB, nid: int) -> list[dict[str, Any]]:
    return [
        logo | {"id": image_path("logo-id", f"network{nid}", n)[1:25], "file_type": ".png"}
        for n, logo in enumerate(
            images("logo", f"network{nid}", 2, aspect=2.5, width=1000, lang=None, ext=".png", int_votes=True)
        )
    ]


def company_brief(db: FixtureDB, cid: int) -> dict[str, Any]:
    c = db.companies[cid]
    return {
        "id": cid,
        "logo_path": company_logos(cid)[0]["file_path"],
        "name": c.name,
        "origin_country": c.origin_country,
    }


def company_detail(db: FixtureDB, cid: int) -> dict[str, Any]:
    c = db.companies[cid]
    parent = None if c.parent is None else company_brief(db, c.parent)
    return {
        "description": c.description,
        "headquarters": c.headquarters,
        "homepage": c.homepage,
        "id": cid,
        "logo_path": company_logos(cid)[0]["file_path"],
        "name": c.name,
        "origin_country": c.origin_country,
        "parent_company": parent,
    }


def network_detail(db: FixtureDB, nid: int) -> dict[str, Any]:
    n = db.networks[nid]
    return {
        "headquarters": n.headquarters,
        "homepage": n.homepage,
        "id": nid,
        "logo_path": network_logos(db, nid)[0]["file_path"],
        "name": n.name,
        "origin_country": n.origin_country,
    }


def collection_detail(db: FixtureDB, cid: int) -> dict[str, Any]:
    c = db.collections[cid]
    return {
        "backdrop_path": first_path(backdrops(f"collection{cid}", 2)),
        "id": cid,
        "name": c.name,
        "overview": c.overview,
        "parts": [movie_item(db.movies[m]) for m in c.parts],
        "poster_path": first_path(posters(f"collection{cid}", 2)),
    }


def collection_images(cid: int) -> dict[str, Any]:
    return {
        "backdrops": backdrops(f"collection{cid}", 2),
        "id": cid,
        "posters": posters(f"collection{cid}", 2),
    }
