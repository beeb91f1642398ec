"""``restbench-spotify``: RestBench's 57 Spotify queries on the offline stateful sandbox.

Upstream judged success by hand on a live Premium account it wiped before each query. Here each
episode gets its own bearer token, i.e. its own copy of the §8.4 initial state in one shared
sandbox app, and success is decided by the §9 state predicates over the episode's final state,
request log and answer (``restgraph.evals.scorers.spotify``). The final state, its diff against the
initial state and the request log are stored in ``trace.env_state``, so ``restgraph score``
re-scores without any server.

Bench options (``-B key=value``):
- ``server=inprocess`` (default): httpx ASGI transport, no socket.
- ``server=loopback``: a real uvicorn server on a free 127.0.0.1 port for the run.
- ``collateral=fail`` (default): a query may change only the state it is about, and only as it
  asks (following every artist for "follow Taylor Swift" fails; read-only queries must leave the
  state unchanged). ``collateral=allow``: the permissive §9 predicates as written (only losses
  outside the query's scope fail). ``strict=1`` is the old name of the default. The resolved value
  is written into the run's bench options, so ``config.json`` and every trace record it.
- ``live=1``: **DESTRUCTIVE**, off by default. Sends the agent's requests to
  ``https://api.spotify.com/v1`` with the user token in ``$SPOTIFY_TOKEN`` (all 19 scopes); the
  agent may delete your saved tracks, follows and playlist items. Live episodes keep paths and
  call counts, but their success is not judged (``success`` is ``None``): the live account is
  not in the §8.4 state the predicates assume.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import uuid
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import httpx

from restgraph.evals.benchmark import Benchmark, RunOptions, register_benchmark
from restgraph.evals.benchmarks.restbench_options import SpotifyOptions
from restgraph.evals.datasets.restbench import load_queries, load_spec
from restgraph.evals.scorers.answer_keys import load_keys
from restgraph.evals.scorers.restbench import (
    RESTBENCH_METRICS,
    aggregate_restbench,
    final_answer,
    path_scores,
)
from restgraph.evals.scorers.spotify import evaluate, state_diff
from restgraph.evals.scorers.spotify_predicates import READ_ONLY, Episode
from restgraph.evals.trace import Task, Trace
from restgraph.tools.openapi import HttpTool, OpenAPIEnvironment, operations
from restgraph.tools.options import Options, read_recorded
from restgraph.tools.sandbox.spotify.app import create_app
from restgraph.tools.sandbox.spotify.models import LogEntry, SpotifyState
from restgraph.tools.sandbox.spotify.solutions import reference_solutions
from restgraph.tools.sandbox.spotify.state import initial_state, initial_state_json

LIVE_BASE_URL = "https://api.spotify.com/v1"
INPROCESS_BASE_URL = "http://spotify.sandbox/v1"


def collateral_mode(bench_options: dict[str, Any]) -> str:
    """``fail`` (default; also the old ``strict=1``) or ``allow`` (``-B collateral=allow``)."""
    return read_recorded(SpotifyOptions, bench_options).collateral


def fixture_sha() -> str:
    """Fingerprint of the initial state; scoring warns when a trace was made on another fixture."""
    return hashlib.sha256(initial_state_json().encode()).hexdigest()[:16]


@dataclass
class Resources:
    mode: str  # inprocess | loopback | live
    base_url: str
    #: the dereferenced spec, loaded once per run and shared read-only by every episode (agents
    #: that narrow schemas must copy first, restbench.md §4 defect 4)
    spec: dict[str, Any]
    app: Any = None
    token: str | None = None


@register_benchmark
class RestBenchSpotify(Benchmark):
    name: ClassVar[str] = "restbench-spotify"
    description: ClassVar[str] = (
        "RestBench Spotify: 57 queries on a stateful offline sandbox, state-predicate success (-B live=1 is DESTRUCTIVE)"
    )
    metric_keys: ClassVar[tuple[str, ...]] = RESTBENCH_METRICS
    default_agent: ClassVar[str] = "restgpt"
    env_kind: ClassVar[str] = "openapi"
    #: run_spotify.py: OpenAI(model_name="text-davinci-003", temperature=0.0, max_tokens=700)
    decoding: ClassVar[dict[str, Any]] = {"temperature": 0.0, "max_tokens": 700}
    options_model: ClassVar[type[Options]] = SpotifyOptions

    def tasks(self, options: RunOptions) -> list[Task]:
        options.bench_options["collateral"] = collateral_mode(options.bench_options)
        solutions = reference_solutions()
        tasks = []
        for q in load_queries("spotify"):
            ref = solutions[q.index]
            gold = {
                "query_id": q.index,
                "gold_path": q.solution,
                "reference_calls": ref["calls"],
                "reference_answer": ref["answer"],
                "read_only": q.index in READ_ONLY,
            }
            tasks.append(
                Task(
                    id=f"spotify/{q.index}",
                    benchmark=self.name,
                    instruction=q.query,
                    gold=gold,
                    metadata={"raw_solution": q.raw_solution, "flag": q.flag},
                )
            )
        return tasks

    @contextlib.asynccontextmanager
    async def run_resources(self, options: RunOptions) -> AsyncIterator[Resources]:
        opts = self.opts(options)
        if opts.live:
            token = os.environ.get("SPOTIFY_TOKEN")
            if not token:
                raise RuntimeError(
                    "-B live=1 needs a Spotify user token in $SPOTIFY_TOKEN (all 19 scopes of the spec); live mode is DESTRUCTIVE"
                )
            yield Resources("live", LIVE_BASE_URL, load_spec("spotify"), token=token)
            return
        server = opts.server
        app = create_app()
        if server == "loopback":
            from restgraph.tools.openapi.serve import serve_on_loopback

            async with serve_on_loopback(app) as url:
                yield Resources("loopback", url + "/v1", load_spec("spotify"), app=app)
        else:
            yield Resources("inprocess", INPROCESS_BASE_URL, load_spec("spotify"), app=app)

    @contextlib.asynccontextmanager
    async def environment(
        self, task: Task, resources: Resources, options: RunOptions
    ) -> AsyncIterator[OpenAPIEnvironment]:
        spec = resources.spec
        token = resources.token or f"rg-{uuid.uuid4().hex}"
        transport = httpx.ASGITransport(app=resources.app) if resources.mode == "inprocess" else None
        http = HttpTool(
            resources.base_url,
            transport=transport,
            token=token,
            endpoint_keys=[op.key for op in operations(spec)],
        )
        reset = (lambda: resources.app.state.store.reset(token)) if resources.app is not None else None
        env = OpenAPIEnvironment(
            "spotify",
            spec,
            http,
            resources.base_url,
            extra={"token": token, "mode": resources.mode, "app": resources.app},
            reset=reset,
        )
        try:
            yield env
        finally:
            await http.aclose()
            if resources.app is not None:
                resources.app.state.store.reset(token)

    async def final_env_state(self, env: OpenAPIEnvironment) -> dict[str, Any] | None:
        if env.extra["mode"] == "live":
            return {"mode": "live"}
        snap = env.extra["app"].state.store.snapshot(env.extra["token"])
        final = SpotifyState.model_validate(snap["final_state"])
        return {
            "mode": env.extra["mode"],
            "fixture_sha": fixture_sha(),
            "final_state": snap["final_state"],
            "diff": state_diff(initial_state(), final),
            "request_log": snap["request_log"],
        }

    def score_episode(self, trace: Trace) -> dict[str, Any]:
        gold = trace.task.gold
        scores: dict[str, Any] = path_scores(trace, gold["gold_path"])
        env_state = trace.env_state or {}
        if env_state.get("mode") == "live":
            return {**scores, "success": None, "reason": "live mode: success is not judged"}
        if "final_state" not in env_state:
            return {**scores, "success": False, "reason": f"no final state recorded (status {trace.status})"}
        episode = Episode(
            initial=initial_state(),
            final=SpotifyState.model_validate(env_state["final_state"]),
            answer=final_answer(trace) or "",
            log=[LogEntry.model_validate(e) for e in env_state.get("request_log", [])],
        )
        mode = collateral_mode(trace.config.get("bench_options", {}))
        strict_result, permissive = (
            evaluate(gold["query_id"], episode),
            evaluate(gold["query_id"], episode, permissive=True),
        )
        chosen = permissive if mode == "allow" else strict_result
        out = {
            **scores,
            "success": chosen["success"],
            "reason": chosen["reason"],
            "collateral": mode,
            "strict_success": strict_result["success"],
            "permissive_success": permissive["success"],
            "read_only": gold.get("read_only", False),
        }
        if trace.status != "finished":
            out["answer"] = "none: the episode ended without a final answer"
        if env_state.get("fixture_sha") not in (None, fixture_sha()):
            out["warning"] = "trace was recorded on a different sandbox fixture"
        return out

    def judge_rubric(self, trace: Trace) -> tuple[str, str, str | None] | None:
        """(query, answer key in words, answer) for an LLM judge, for the queries whose success reads
        the answer; state-based queries are not judged (None)."""
        qid = trace.task.gold["query_id"]
        if qid not in READ_ONLY:
            return None
        return trace.task.instruction, load_keys("spotify")[qid].describe(), final_answer(trace)

    def aggregate(self, scores: list[dict[str, Any]], traces: Sequence[Trace]) -> dict[str, float]:
        return aggregate_restbench(scores)
