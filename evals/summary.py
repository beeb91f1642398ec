"""``summary.json``: the run's metrics, recomputed from ``traces.jsonl`` alone.

The same function serves ``restgraph run`` (at the end) and ``restgraph score`` (later, with no
model and no network), so the two produce byte-identical files. Nothing here reads the clock.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from evals.benchmark import Benchmark, get_benchmark
from evals.trace import Trace, TraceStore


def latest_per_task(traces: list[Trace]) -> list[Trace]:
    """One trace per task (the last written wins), in task-id order."""
    by_id: dict[str, Trace] = {}
    for trace in traces:
        by_id[trace.task_id] = trace
    return [by_id[k] for k in sorted(by_id, key=_natural_key)]


def _natural_key(task_id: str) -> tuple:
    """``x/2`` before ``x/10``; numeric and text parts never compared with each other."""
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in task_id.replace("-", "/").split("/"))


def score_traces(benchmark: Benchmark, traces: list[Trace]) -> tuple[list[dict[str, Any]], dict[str, float]]:
    scores = []
    for trace in traces:
        try:
            scores.append(benchmark.score_episode(trace))
        except Exception as exc:  # a scorer crash on one trace is reported, not fatal
            scores.append({"score_error": f"{type(exc).__name__}: {exc}"})
    return scores, benchmark.aggregate(scores, traces)


def build_summary(run_dir: str | Path, benchmark: Benchmark | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    report = TraceStore(run_dir).load()
    traces = latest_per_task(report.traces)
    if not traces:
        raise ValueError(f"no traces in {Path(run_dir) / TraceStore.FILENAME}")
    bench = benchmark or get_benchmark(traces[0].benchmark)
    scores, metrics = score_traces(bench, traces)
    statuses = Counter(t.status for t in traces)
    summary = {
        "benchmark": bench.name,
        "agent": traces[0].agent,
        "model": traces[0].model,
        "n": len(traces),
        "metrics": {k: round(float(v), 6) for k, v in metrics.items()},
        "status_counts": dict(sorted(statuses.items())),
        "usage": {
            "model_calls": sum(t.usage.model_calls for t in traces),
            "input_tokens": sum(t.usage.input_tokens for t in traces),
            "output_tokens": sum(t.usage.output_tokens for t in traces),
            "tool_calls": sum(t.usage.tool_calls for t in traces),
        },
        "peak_in_flight": max(int(t.extra.get("in_flight", 1)) for t in traces),
        "skipped_lines": report.skipped,
    }
    episodes = [{"task_id": t.task_id, "status": t.status, **s} for t, s in zip(traces, scores, strict=True)]
    return summary, episodes


def write_summary(run_dir: str | Path, benchmark: Benchmark | None = None) -> dict[str, Any]:
    run_dir = Path(run_dir)
    summary, episodes = build_summary(run_dir, benchmark)
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=2, sort_keys=True, default=str) + "\n")
    with open(run_dir / "scores.jsonl", "w", encoding="utf-8") as fh:
        for row in episodes:
            fh.write(json.dumps(row, sort_keys=True, default=str) + "\n")
    return summary
