"""``/credit/{credit_id}`` and ``/review/{review_id}``: reverse lookups of derived ids.

Credit and review ids are hashes (``derive.hex_id``), so these endpoints index every credit and
review once per database and answer from that index.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from restgraph.tools.sandbox.tmdb import views as v
from restgraph.tools.sandbox.tmdb.db import FixtureDB
from restgraph.tools.sandbox.tmdb.derive import department, hex_id


@lru_cache(maxsize=2)
def _credits(db: FixtureDB) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}

    def add(
        cid: str, pid: int, media: dict[str, Any], media_type: str, character: str | None, job: str | None
    ) -> None:
        out.setdefault(
            cid,
            {
                "credit_type": "cast" if job is None else "crew",
                "department": "Actors" if job is None else department(job),
                "job": job or "Actor",
                "media": media | {"character": character or ""},
                "media_type": media_type,
                "id": cid,
                "person": {"id": pid, "name": db.people[pid].name},
            },
        )

    for m in db.movies.values():
        media = {
            "id": m.id,
            "title": m.title,
            "name": m.title,
            "original_name": m.original_title or m.title,
            "episodes": [],
            "seasons": [],
        }
        for pid, ch in m.cast:
            add(hex_id("cast", f"movie{m.id}", pid, ch), pid, media, "movie", ch, None)
        for pid, job in m.crew:
            add(hex_id("crew", f"movie{m.id}", pid, job), pid, media, "movie", None, job)
    for s in db.shows.values():
        seasons = [
            {"air_date": x.air_date, "poster_path": v.season_poster(s, x), "season_number": x.season_number}
            for x in s.seasons
        ]
        media = {
            "id": s.id,
            "name": s.name,
            "original_name": s.original_name or s.name,
            "episodes": [],
            "seasons": seasons,
        }
        for pid, ch in s.cast:
            add(hex_id("cast", f"tv{s.id}", pid, ch), pid, media, "tv", ch, None)
        for pid, job in s.crew:
            add(hex_id("crew", f"tv{s.id}", pid, job), pid, media, "tv", None, job)
    return out


@lru_cache(maxsize=2)
def _reviews(db: FixtureDB) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for kind, table in (("movie", db.movies), ("tv", db.shows)):
        for item in table.values():
            for n, r in enumerate(item.reviews):
                body = v.review(item.id, r, kind, n)
                out[body["id"]] = body | {
                    "iso_639_1": "en",
                    "media_id": item.id,
                    "media_title": getattr(item, "title", None) or getattr(item, "name", None),
                    "media_type": kind,
                }
    return out


def find_credit(db: FixtureDB, credit_id: str) -> dict[str, Any] | None:
    return _credits(db).get(credit_id)


def find_review(db: FixtureDB, review_id: str) -> dict[str, Any] | None:
    return _reviews(db).get(review_id)
