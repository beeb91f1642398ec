"""Reference solutions of the 100 RestBench TMDB queries: the shared machinery.

A ``Solution`` (keyed by the 1-based query index) holds
- ``calls``: the concrete request sequence realising the gold path (the oracle replays it);
- ``answer``: a function of the JSON responses of those calls -> the reference answer, so the
  answer key is always recomputed from what the sandbox serves, never typed in;
- ``criterion``: a function of the fixture database -> the success criterion (data, see
  ``restgraph.evals.scorers.tmdb_success``), so accepted facts come from the fixture itself.
``replay`` serves calls straight from the handlers (no HTTP), for building task gold quickly.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from restgraph.tools.sandbox.tmdb import views as v
from restgraph.tools.sandbox.tmdb.db import FixtureDB
from restgraph.tools.sandbox.tmdb.handlers import ROUTES

Responses = list[Any]


@dataclass(frozen=True)
class Solution:
    calls: list[dict[str, Any]]
    answer: Callable[[Responses], str]
    criterion: Callable[[FixtureDB], dict[str, Any]]


def call(path: str, **params: Any) -> dict[str, Any]:
    return {
        "method": "GET",
        "path": path,
        "params": {k.replace("__", "."): val for k, val in params.items()} or None,
        "body": None,
    }


# --- criterion builders ----------------------------------------------------------------------------------
def text(value: str) -> dict[str, Any]:
    return {"kind": "text", "value": value}


def title(value: str) -> dict[str, Any]:
    """A title without its leading article ("Frozen Ground" matches "The Frozen Ground")."""
    return text(re.sub(r"^(the|a|an)\s+", "", value, flags=re.I))


def date(value: str | None) -> dict[str, Any]:
    if not value:  # a solution that needs a date the fixture lacks is a fixture bug: say so
        raise ValueError("the fixture has no date where this solution needs one")
    return {"kind": "date", "value": value[:10]}


def number(value: int) -> dict[str, Any]:
    return {"kind": "number", "value": str(value)}


def all_of(*items: dict[str, Any]) -> dict[str, Any]:
    return {"op": "all", "items": list(items)}


def any_of(items: Iterable[dict[str, Any]], min: int = 1) -> dict[str, Any]:
    unique = list({(i.get("kind"), i.get("value"), i.get("op")): i for i in items}.values())
    if not unique:
        raise ValueError("an any-of criterion needs at least one accepted fact")
    return {"op": "any", "items": unique, "min": min}


# --- fixture facts ------------------------------------------------------------------------------------
def cast_names(db: FixtureDB, pairs: list[tuple[int, str]]) -> list[str]:
    return [db.people[pid].name for pid, _ in pairs]


def crew_names(db: FixtureDB, pairs: list[tuple[int, str]], job: str = "Director") -> list[str]:
    return list(dict.fromkeys(db.people[pid].name for pid, j in pairs if j == job))


def paths(images: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [text(i["file_path"]) for i in images]


def movie_image_facts(db: FixtureDB, mid: int) -> list[dict[str, Any]]:
    body = v.movie_images(db.movies[mid])
    return paths(body["posters"] + body["backdrops"])


def review_facts(items) -> list[dict[str, Any]]:  # noqa: ANN001 - list[Review]
    """A review counts if the answer names its author or quotes its first eight words."""
    out = []
    for r in items:
        out += [text(r.author), text(" ".join(r.content.split()[:8]))]
    return out


def place(value: str | None) -> list[dict[str, Any]]:
    """The first part of a place ("New York City, New York, ..." -> "New York City" or "New York")."""
    head = (value or "").split(",")[0].strip()
    return [text(head)] + ([text(head[:-5])] if head.endswith(" City") else [])


def domain(url: str) -> dict[str, Any]:
    return text(re.sub(r"^https?://(www\.)?", "", url).rstrip("/"))


def directed_by_date(db: FixtureDB, pid: int) -> list[int]:
    return sorted(db.directed(pid), key=lambda mid: db.movies[mid].release_date)


# --- answer helpers (over responses) -------------------------------------------------------------------
def lead(credits: dict[str, Any]) -> str:
    return credits["cast"][0]["name"]


def directors(credits: dict[str, Any]) -> list[str]:
    return list(dict.fromkeys(c["name"] for c in credits["crew"] if c["job"] == "Director"))


def names(items: list[dict[str, Any]], key: str = "title", n: int = 5) -> str:
    return ", ".join(i.get(key) or i.get("name", "") for i in items[:n])


def image_url(path: str) -> str:
    return f"https://image.tmdb.org/t/p/original{path}"


def review_text(body: dict[str, Any], n: int = 2) -> str:
    return " | ".join(f"{r['author']}: {r['content']}" for r in body["results"][:n])


def latest(items: list[dict[str, Any]], key: str = "release_date") -> dict[str, Any]:
    return max((i for i in items if i.get(key)), key=lambda i: i[key])


# --- replay without HTTP --------------------------------------------------------------------------------
_COMPILED = [(re.compile("^" + re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", t) + "$"), h) for t, h in ROUTES]


def replay(db: FixtureDB, calls: list[dict[str, Any]]) -> Responses:
    """Serve ``calls`` from the handlers directly (same bodies as HTTP, minus auth and transport)."""
    out = []
    for c in calls:
        for pattern, handler in _COMPILED:
            match = pattern.match(c["path"])
            if match:
                out.append(
                    handler(
                        db, match.groupdict(), {k: str(val) for k, val in (c.get("params") or {}).items()}
                    )
                )
                break
        else:
            raise KeyError(f"no sandbox route for {c['path']}")
    return out


def url_of(c: dict[str, Any]) -> str:
    return c["path"] + ("?" + urlencode(c["params"]) if c.get("params") else "")
