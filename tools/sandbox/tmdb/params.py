"""Parsing path and query parameters the way TMDB does, and the two errors handlers raise.

``NotFound`` becomes TMDB's 404 body (``status_code`` 34); ``BadParam`` a 422 (or 400 for a page
outside 1..500) with ``status_code`` 22.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from restgraph.tools.sandbox.tmdb import views as v
from restgraph.tools.sandbox.tmdb.db import FixtureDB


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
        raise BadParam(
            "Invalid page: Pages start at 1 and max at 500. They are expected to be an integer.", status=400
        )
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
