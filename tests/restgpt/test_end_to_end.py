"""Every RestGPT-family agent end to end on both sandboxes through the real runner, and the
scripted decision model driving ``restgpt`` to the oracle's score."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from restgraph.evals.benchmark import RunOptions
from restgraph.evals.runner import run_sync
from restgraph.evals.trace import TraceStore

AGENTS = ("restgpt", "restgpt-no-planner", "restgpt-no-parser", "react", "reflexion", "deps", "offline")
BENCHES = ("restbench-tmdb", "restbench-spotify")


def run(tmp: Path, bench: str, agent: str, model: str, limit: int, **agent_options) -> tuple[dict, list]:
    out = tmp / f"{bench}-{agent}-{abs(hash(model)) % 1000}"
    options = RunOptions(
        benchmark=bench,
        agent=agent,
        model=model,
        limit=limit,
        concurrency=4,
        max_steps=200,
        agent_options=agent_options,
    )
    summary = run_sync(options, out, progress=False)
    report = TraceStore(out).load()
    assert not report.skipped
    scores = [json.loads(line) for line in (out / "scores.jsonl").read_text().splitlines()]
    return summary, list(
        zip(
            report.traces,
            sorted(scores, key=lambda s: [t.task_id for t in report.traces].index(s["task_id"])),
            strict=True,
        )
    )


@pytest.mark.parametrize("bench", BENCHES)
@pytest.mark.parametrize("agent", AGENTS)
def test_agent_runs_end_to_end(tmp_path: Path, data_dir: Path, bench: str, agent: str) -> None:
    summary, rows = run(tmp_path, bench, agent, "scripted:restgpt-oracle", 1)
    for trace, score in rows:
        assert trace.status == "finished", (trace.task_id, trace.error)
        assert trace.http_calls() and trace.usage.model_calls > 0 and trace.final_answer
        assert trace.steps[0].update and trace.steps[0].update.get("config", {}).get("budget"), (
            "budget config recorded in the trace"
        )
        assert score["correct_path"], (trace.task_id, score["executed_path"])


@pytest.mark.parametrize(("bench", "limit"), [("restbench-tmdb", 6), ("restbench-spotify", 8)])
@pytest.mark.parametrize("model", ["scripted:restgpt-oracle", "scripted:restgpt-oracle?structured=0"])
def test_scripted_decisions_reach_the_oracle_score(
    tmp_path: Path, data_dir: Path, bench: str, limit: int, model: str
) -> None:
    oracle, _ = run(tmp_path, bench, "oracle", "scripted:constant", limit)
    restgpt, rows = run(tmp_path, bench, "restgpt", model, limit)
    assert oracle["metrics"]["success_rate"] == 1.0
    for key in ("success_rate", "correct_path_rate"):
        assert restgpt["metrics"][key] == oracle["metrics"][key], (
            key,
            [(t.task_id, s.get("reason")) for t, s in rows if not s.get("success")],
        )
    kinds = {c.kind for t, _ in rows for c in t.tool_calls()}
    assert kinds == {"http", "python"}  # parser code ran in the sandbox on every episode
    roles = {c.role for t, _ in rows for c in t.model_calls()}
    assert {"planner", "selector", "caller", "parser"} <= roles
