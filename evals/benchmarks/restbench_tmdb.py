"""``restbench-tmdb``: RestBench's 100 TMDB queries on the offline TMDB sandbox, scored automatically.

Upstream ran against the live TMDB API (whose lists drift) and judged success by hand. Here every
episode talks to the fixture-backed sandbox (``tools/sandbox/tmdb``, frozen at 2023-07-24) and
success is the query's answer key (``evals/scorers/keys/tmdb.yaml``, values from the fixture)
judged against the final answer by claim analysis (``restgraph.evals.scorers.answer_keys``): the answer
must *assert* the asked entity, number, date, polarity or comparison winner, not merely mention
it. An episode without a final answer (spent budget, timeout, error) fails. The path metrics
follow restbench.md §6 (``restgraph.evals.scorers.restbench``).

Gold per task: ``gold_path`` (normalised, §2.1), ``reference_calls`` and ``reference_answer``
(recomputed from the sandbox when tasks are built; the ``oracle`` agent replays them),
``criterion`` (the fixture facts the key was drawn from), ``query_id``.

Bench options (``-B key=value``):
- ``server=inprocess`` (default): httpx ASGI transport, no socket.
- ``server=loopback``: one real uvicorn server on a free 127.0.0.1 port for the whole run.
- ``live=1`` (off by default): the real API at ``https://api.themoviedb.org/3``, with a v4 read
  token in ``$TMDB_TOKEN`` / ``$TMDB_BEARER_TOKEN`` (Bearer) or a v3 key in ``$TMDB_API_KEY``
  (``api_key`` query parameter). Live answers drift away from the fixture, so live episodes keep
  the path metrics but ``success`` is ``None``; use ``review_csv`` (or an LLM judge shown the
  criterion) to judge them.
"""

from __future__ import annotations

import contextlib
import csv
import functools
import io
import os
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import httpx

from restgraph.evals.benchmark import Benchmark, RunOptions, register_benchmark
from restgraph.evals.benchmarks.restbench_options import RestBenchOptions
from restgraph.evals.datasets.restbench import load_queries, load_spec
from restgraph.evals.scorers.answer_keys import load_keys, verdict
from restgraph.evals.scorers.restbench import (
    RESTBENCH_METRICS,
    aggregate_restbench,
    final_answer,
    path_scores,
)
from restgraph.evals.trace import Task, Trace
from restgraph.tools.openapi import HttpTool, OpenAPIEnvironment, operations
from restgraph.tools.openapi.spec import Operation
from restgraph.tools.options import Options

LIVE_BASE_URL = "https://api.themoviedb.org/3"
INPROCESS_BASE_URL = "http://tmdb.sandbox/3"
#: the sandbox accepts any non-empty credential; this one never leaves the machine
SANDBOX_TOKEN = "restgraph-offline-sandbox"


@dataclass
class Resources:
    mode: str  # inprocess | loopback | live
    base_url: str
    spec: dict[str, Any]  # dereferenced, shared read-only by every episode
    app: Any = None
    token: str = SANDBOX_TOKEN
    auth_style: str = "bearer"

    @functools.cached_property
    def operations(self) -> list[Operation]:
        """The spec's operations, listed once per run (~0.15 ms each time, twice an episode before)."""
        return operations(self.spec)


def live_credentials() -> tuple[str, str]:
    """(token, auth_style) from the environment, or a clear error."""
    bearer = os.environ.get("TMDB_TOKEN") or os.environ.get("TMDB_BEARER_TOKEN")
    if bearer:
        return bearer, "bearer"
    key = os.environ.get("TMDB_API_KEY")
    if key:
        return key, "api_key"
    raise RuntimeError(
        "-B live=1 needs TMDB credentials: $TMDB_TOKEN (v4 read token, Bearer) or $TMDB_API_KEY (v3 key)"
    )


@register_benchmark
class RestBenchTMDB(Benchmark):
    name: ClassVar[str] = "restbench-tmdb"
    description: ClassVar[str] = (
        "RestBench TMDB: 100 queries on an offline fixture sandbox, automatic success checks"
    )
    metric_keys: ClassVar[tuple[str, ...]] = RESTBENCH_METRICS
    default_agent: ClassVar[str] = "restgpt"
    env_kind: ClassVar[str] = "openapi"
    #: run_tmdb.py: OpenAI(model_name="text-davinci-003", temperature=0.0, max_tokens=256)
    decoding: ClassVar[dict[str, Any]] = {"temperature": 0.0, "max_tokens": 256}
    options_model: ClassVar[type[Options]] = RestBenchOptions

    def tasks(self, options: RunOptions) -> list[Task]:
        from restgraph.tools.sandbox.tmdb.solutions import all_reference_golds  # cached per sandbox version

        golds = all_reference_golds()
        tasks = []
        for q in load_queries("tmdb"):
            gold = {"query_id": q.index, "gold_path": q.solution, **golds[q.index]}
            tasks.append(
                Task(
                    id=f"tmdb/{q.index}",
                    benchmark=self.name,
                    instruction=q.query,
                    gold=gold,
                    metadata={"raw_solution": q.raw_solution, "flag": q.flag},
                )
            )
        return tasks

    @contextlib.asynccontextmanager
    async def run_resources(self, options: RunOptions) -> AsyncIterator[Resources]:
        spec = load_spec("tmdb")
        opts = self.opts(options)
        if opts.live:
            token, style = live_credentials()
            yield Resources("live", LIVE_BASE_URL, spec, token=token, auth_style=style)
            return
        server = opts.server
        from restgraph.tools.sandbox.tmdb.app import create_app

        app = create_app()
        if server == "loopback":
            from restgraph.tools.openapi.serve import serve_on_loopback

            async with serve_on_loopback(app) as url:
                yield Resources("loopback", url + "/3", spec, app=app)
        else:
            yield Resources("inprocess", INPROCESS_BASE_URL, spec, app=app)

    @contextlib.asynccontextmanager
    async def environment(
        self, task: Task, resources: Resources, options: RunOptions
    ) -> AsyncIterator[OpenAPIEnvironment]:
        transport = httpx.ASGITransport(app=resources.app) if resources.mode == "inprocess" else None
        keys = [op.key for op in resources.operations]
        http = HttpTool(
            resources.base_url,
            transport=transport,
            token=resources.token,
            auth_style=resources.auth_style,
            endpoint_keys=keys,
        )
        env = OpenAPIEnvironment(
            "tmdb",
            resources.spec,
            http,
            resources.base_url,
            extra={"mode": resources.mode, "_ops": resources.operations},  # (env.operations' own cache)
        )
        try:
            yield env
        finally:
            await http.aclose()

    async def final_env_state(self, env: OpenAPIEnvironment) -> dict[str, Any] | None:
        return {"mode": env.extra.get("mode")}  # TMDB is read-only: nothing else to keep

    def score_episode(self, trace: Trace) -> dict[str, Any]:
        gold = trace.task.gold
        scores: dict[str, Any] = path_scores(trace, gold["gold_path"])
        if (trace.env_state or {}).get("mode") == "live":
            return {
                **scores,
                "success": None,
                "reason": "live mode: answers are not checked against the fixture",
            }
        answer = final_answer(trace)
        if not (answer or "").strip():
            return {**scores, "success": False, "reason": f"no final answer (status {trace.status})"}
        ok, reason = verdict("tmdb", gold["query_id"], answer)
        return {**scores, "success": ok, "reason": reason}

    def judge_rubric(self, trace: Trace) -> tuple[str, str, str | None]:
        """(query, answer key in words, answer) for an LLM judge (``restgraph.evals.judge``)."""
        return (
            trace.task.instruction,
            load_keys("tmdb")[trace.task.gold["query_id"]].describe(),
            final_answer(trace),
        )

    def aggregate(self, scores: list[dict[str, Any]], traces: Sequence[Trace]) -> dict[str, float]:
        return aggregate_restbench(scores)


def review_csv(traces: list[Trace], trace_link: str = "{task_id}") -> str:
    """Human-review export for live runs: query, answer, the fixture criterion as a hint, trace link."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["task_id", "query", "answer", "answer_key", "trace", "success"])
    for t in traces:
        writer.writerow(
            [
                t.task.id,
                t.task.instruction,
                t.final_answer or "",
                load_keys("tmdb")[t.task.gold["query_id"]].describe(),
                trace_link.format(task_id=t.task.id),
                "",
            ]
        )
    return out.getvalue()
