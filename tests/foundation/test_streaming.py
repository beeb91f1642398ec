"""``--resume`` and ``restgraph score`` read the traces one line at a time: neither materialises the
run (``TraceStore.load``) nor loads the prompt store, so their memory stays flat in the number of
episodes (bench/score_memory.py measures the peak)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from restgraph.evals import prompt_store
from restgraph.evals.trace import TraceStore
from tests.foundation.conftest import cli, smoke_ids


def _refuse(*args: object, **kwargs: object) -> None:
    raise AssertionError("materialised every trace (or read the prompt store) where streaming suffices")


def test_resume_and_score_stream_without_prompts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "run"
    args = ["run", "smoke", "--model", "scripted:smoke-oracle", "-B", "n=8", "--out", out, "--quiet"]
    assert cli(*args).exit_code == 0
    path = out / "traces.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:5]))  # three episodes lost
    (out / "summary.json").unlink()

    monkeypatch.setattr(TraceStore, "load", _refuse)
    monkeypatch.setattr(prompt_store.PromptStore, "text", _refuse)
    assert cli(*args, "--resume").exit_code == 0
    assert cli("score", out).exit_code == 0
    monkeypatch.undo()

    assert {json.loads(line)["task_id"] for line in path.read_bytes().splitlines()} == smoke_ids(8)
    assert json.loads((out / "summary.json").read_text())["n"] == 8
    loaded = TraceStore(out).load().traces  # the prompts are all there for whoever asks
    assert all(c.messages and c.messages[-1]["content"] for t in loaded for c in t.model_calls())


def test_a_large_run_keeps_no_parsed_traces_in_its_summary(monkeypatch: pytest.MonkeyPatch) -> None:
    """Parsed slim traces are kept only for a run of at most KEEP_PARSED episodes; past that, the
    objects already kept are dropped, so the summary's memory is bytes only (flat per episode)."""
    from restgraph.evals.summary import SlimTraces
    from restgraph.evals.trace import Trace
    from restgraph.tools.trace_schema import Task

    monkeypatch.setattr(SlimTraces, "KEEP_PARSED", 3)
    slim = SlimTraces()

    def trace(i: int) -> Trace:
        return Trace(
            run_id="r",
            task_id=f"t{i}",
            task=Task(id=f"t{i}", benchmark="smoke", instruction="q"),
            benchmark="smoke",
            agent="chat",
            model="m",
            status="finished",
        )

    for i in range(3):
        slim.add(trace(i))
    assert all(p is not None for p in slim._parsed)  # a small run: parsed once, read many times
    slim.add(trace(3))
    assert all(p is None for p in slim._parsed) and [t.task_id for t in slim[:]] == ["t0", "t1", "t2", "t3"]
