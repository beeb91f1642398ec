"""Replaying model behaviour: ``replay:RUN_DIR`` and ``scripted:replay?file=...`` re-drive restgpt
with an earlier run's outputs and reproduce its traces (same prompts, same requests, same answers)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from restgraph.agents.models import ModelSpecError, check_spec
from restgraph.evals.benchmark import RunOptions
from restgraph.evals.runner import run_sync
from restgraph.evals.trace import Trace, TraceStore


def behaviour(trace: Trace) -> dict:
    """What must be identical between a run and its replay."""
    return {
        "prompts": [[m.get("content") for m in c.messages or []] for c in trace.model_calls()],
        "outputs": [c.raw_output for c in trace.model_calls()],
        "http": [(c.method, c.url, c.params, c.body, c.status, c.response) for c in trace.http_calls()],
        "answer": trace.final_answer,
        "status": trace.status,
    }


def traces(out: Path) -> dict[str, Trace]:
    return {t.task_id: t for t in TraceStore(out).load().traces}


@pytest.mark.parametrize("bench", ["restbench-tmdb", "restbench-spotify"])
def test_replays_reproduce_an_earlier_run(tmp_path: Path, data_dir: Path, bench: str) -> None:
    def run(name: str, model: str) -> dict[str, Trace]:
        run_sync(
            RunOptions(benchmark=bench, agent="restgpt", model=model, limit=3, concurrency=2),
            tmp_path / name,
            progress=False,
        )
        return traces(tmp_path / name)

    first = run("first", "scripted:restgpt-oracle?structured=0")
    assert all(t.status == "finished" and t.http_calls() for t in first.values())
    again = run("again", f"replay:{tmp_path / 'first'}")
    assert {k: behaviour(t) for k, t in again.items()} == {k: behaviour(t) for k, t in first.items()}
    outputs = {k: [c.raw_output for c in t.model_calls()] for k, t in first.items()}
    (tmp_path / "outputs.json").write_text(json.dumps(outputs))
    from_file = run("file", f"scripted:replay?file={tmp_path / 'outputs.json'}")
    assert {k: behaviour(t) for k, t in from_file.items()} == {k: behaviour(t) for k, t in first.items()}


def test_replay_specs_are_checked(tmp_path: Path) -> None:
    with pytest.raises(ModelSpecError, match="no traces.jsonl"):
        check_spec(f"replay:{tmp_path}")
