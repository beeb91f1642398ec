"""RestBench loader: the queries with normalised gold paths, and the two OpenAPI specs.

Gold-path normalisation follows the spec (§2.1): strip stray spaces, and map the two paths that
are not in their spec (TMDB 99 ``/person/{movie_id}/movie_credits``, Spotify 40 ``/track/{id}``)
onto the operations they mean. The questionable paths that stay are flagged per query.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from restgraph.agents.restgpt.upstream.source import COMMIT as RESTGPT_COMMIT
from restgraph.evals.datasets import DataFile, resolve
from restgraph.tools.datafiles import data_errors, load_json
from restgraph.tools.openapi.spec import load_dereferenced

#: the files at the commit whose code the recorded vectors come from (the repository's last commit,
#: d990128, 2023-09-28): a branch name could move; the sha256 pins check the bytes either way.
_UPSTREAM = f"https://raw.githubusercontent.com/Yifan-Song793/RestGPT/{RESTGPT_COMMIT}"
# sha256 of the verbatim upstream files at that commit.
FILES = {
    "tmdb": DataFile(
        "restbench",
        "tmdb.json",
        f"{_UPSTREAM}/datasets/tmdb.json",
        "6a9686067683ec6c33221de05bd2e763cfbfedf2cac6f4e6b607d7ab80a858d4",
    ),
    "spotify": DataFile(
        "restbench",
        "spotify.json",
        f"{_UPSTREAM}/datasets/spotify.json",
        "b6ba57cc6f29adf352c6a1ceeb4434d6fd508eedfe514afb2d79b6a282f8efc0",
    ),
    "tmdb_oas": DataFile(
        "restbench",
        "tmdb_oas.json",
        f"{_UPSTREAM}/specs/tmdb_oas.json",
        "6e5a3c4ebdf2e3deeada3331ad65c7b802b0aeb58c6167704db700be49b00017",
    ),
    "spotify_oas": DataFile(
        "restbench",
        "spotify_oas.json",
        f"{_UPSTREAM}/specs/spotify_oas.json",
        "7cfaf223ea373d8aa7429e6d62d9085b4678617556865cf23496ab2c4bf44c54",
    ),
}

_PATH_FIXES = {
    "GET /person/{movie_id}/movie_credits": "GET /person/{person_id}/movie_credits",
    "GET /track/{id}": "GET /tracks/{id}",
}

#: Gold paths kept as published but worth a flag in reports (spec §2.1).
QUESTIONABLE = {
    "tmdb": {
        31: "no /search/company before /company/{company_id}",
        89: "compares two entities with one search",
        93: "compares two entities with one search",
        94: "skips the credits call",
        97: "searches a TV drama with /search/movie",
    },
    "spotify": {
        16: "PUT /playlists/{playlist_id} where adding tracks is meant",
        22: "PUT /playlists/{playlist_id} where adding tracks is meant",
        23: "no search before /artists/{id}/top-tracks",
        37: "GET /me rather than /me/playlists",
        10: "'recently played' answered with currently-playing",
    },
}


class RestBenchQuery(BaseModel):
    scenario: str
    index: int  # 1-based, as in the paper and the spec
    query: str
    solution: list[str]  # normalised "METHOD /template"
    raw_solution: list[str] = Field(default_factory=list)
    flag: str | None = None


def normalise_gold(item: str) -> str:
    method, _, path = item.strip().partition(" ")
    key = f"{method.upper()} {path.strip()}"
    return _PATH_FIXES.get(key, key)


def spec_path(scenario: str) -> Path:
    return resolve(FILES[f"{scenario}_oas"])


def load_spec(scenario: str) -> dict[str, Any]:
    """The dereferenced OpenAPI spec of ``scenario`` ("tmdb" or "spotify")."""
    return load_dereferenced(spec_path(scenario))


def load_queries(scenario: str) -> list[RestBenchQuery]:
    if scenario not in ("tmdb", "spotify"):
        raise ValueError(f"unknown RestBench scenario {scenario!r}; use 'tmdb' or 'spotify'")
    path = resolve(FILES[scenario])
    raw: Any = load_json(path)
    queries = []
    with data_errors(path, "expected a list of {query, solution} records"):
        items = list(enumerate(raw, start=1))
    for i, item in items:
        with data_errors(path, f"record {i}"):
            queries.append(
                RestBenchQuery(
                    scenario=scenario,
                    index=i,
                    # as published: the original's run_tmdb.py hands the text over unstripped
                    # (TMDB 59 starts with a space, and so does its first planner prompt)
                    query=item["query"],
                    solution=[normalise_gold(s) for s in item["solution"]],
                    raw_solution=item["solution"],
                    flag=QUESTIONABLE[scenario].get(i),
                )
            )
    return queries
