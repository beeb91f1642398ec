"""The ``-B`` options both RestBench benchmarks (TMDB, Spotify) take; Spotify adds ``strict``."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from restgraph.tools.options import Options


class RestBenchOptions(Options):
    server: Literal["inprocess", "loopback"] = Field(
        "inprocess",
        description="inprocess: httpx ASGI transport, no socket; loopback: one real uvicorn server on 127.0.0.1 for the run",
    )
    live: bool = Field(
        False,
        description="the real API with credentials from the environment (Spotify: DESTRUCTIVE); success is not judged",
    )
    judge: str | None = Field(
        None,
        description="an LLM judge (any model spec) as a second opinion on answer-read success; prompts and replies in judge.jsonl",
    )


class SpotifyOptions(RestBenchOptions):
    collateral: Literal["fail", "allow"] = Field(
        "fail",
        description="fail: a query may change only the state it is about; allow: the permissive §9 predicates as written",
    )
    strict: bool = Field(
        False,
        description="the old name of collateral=fail (the default); accepted for old commands and traces",
    )
