"""The browsing agent on the embedded 135M model: it must run end to end in real Chromium and leave
a complete trace (its answers may well be wrong)."""

from __future__ import annotations

import pytest

from restgraph.evals.benchmark import RunOptions
from restgraph.evals.runner import run_sync
from restgraph.evals.trace import TraceStore

pytestmark = [pytest.mark.browser, pytest.mark.local_model, pytest.mark.slow]


def test_browser_agent_runs_on_the_local_model(tmp_path):
    options = RunOptions(
        benchmark="assistantbench-local",
        agent="browser",
        model="local",
        limit=1,
        concurrency=1,
        agent_options={"max_steps": 1},
        bench_options={"screenshots": "0"},
        episode_timeout_s=900,
    )
    summary = run_sync(options, tmp_path / "run", progress=False)
    assert summary["n"] == 1
    trace = TraceStore(tmp_path / "run").load().traces[0]
    calls = list(trace.model_calls())
    assert calls and calls[0].role == "policy" and calls[0].raw_output
    assert calls[0].parsed is not None or calls[0].parse_error
    assert trace.status in ("finished", "budget_exhausted", "error:parse")
    assert trace.final_answer is not None
