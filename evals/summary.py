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
from evals.cost import episode_cost
from evals.run_guard import check_traces
from evals.stats import episode_stats, epoch_metrics, metric_stats
from evals.trace import Trace, TraceStore


def epoch_of(trace: Trace) -> int:
    """Which of ``--epochs K`` tries of its task a trace is (0 for a single-epoch run)."""
    return int(trace.extra.get("epoch", 0) or 0)


def latest_per_task(traces: list[Trace]) -> list[Trace]:
    """One trace per (task, epoch) (the last written wins), in task-id order."""
    by_id: dict[tuple[str, int], Trace] = {}
    for trace in traces:
        by_id[(trace.task_id, epoch_of(trace))] = trace
    return [by_id[k] for k in sorted(by_id, key=lambda k: (_natural_key(k[0]), k[1]))]


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
    duplicates = check_traces(report.traces, Path(run_dir) / TraceStore.FILENAME)
    traces = latest_per_task(report.traces)
    if not traces:
        raise ValueError(f"no traces in {Path(run_dir) / TraceStore.FILENAME}")
    bench = benchmark or get_benchmark(traces[0].benchmark)
    scores, metrics = score_traces(bench, traces)
    statuses = Counter(t.status for t in traces)
    run_stats = run_statistics(bench, traces, scores, metrics, _run_options(run_dir))
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
        **run_stats,
        "peak_in_flight": max(int(t.extra.get("in_flight", 1)) for t in traces),
        "skipped_lines": report.skipped,
        "duplicate_task_lines": duplicates,
    }
    episodes = [{"task_id": t.task_id, **({"epoch": epoch_of(t)} if epoch_of(t) else {}), "status": t.status, **s} for t, s in zip(traces, scores, strict=True)]
    return summary, episodes


def _run_options(run_dir: str | Path) -> dict[str, Any]:
    path = Path(run_dir) / "config.json"
    try:
        return dict(json.loads(path.read_text()).get("options") or {}) if path.is_file() else {}
    except (OSError, ValueError):
        return {}


def run_statistics(bench: Benchmark, traces: list[Trace], scores: list[dict[str, Any]], metrics: dict[str, float], options: dict[str, Any]) -> dict[str, Any]:
    """n, errors, cost, intervals (``evals.stats``) and, with ``--epochs``, pass@k / pass^k."""
    stats = episode_stats(scores)
    costs = [episode_cost(t.model, t.usage.input_tokens, t.usage.output_tokens, options.get("price")) for t in traces]
    epochs = max(epoch_of(t) for t in traces) + 1
    out: dict[str, Any] = {
        "n_tasks": len({t.task_id for t in traces}),
        "success_key": bench.episode_success_key,
        "errors": sum(t.status.startswith("error") for t in traces),
        "cost_usd": None if any(c is None for c in costs) else round(sum(costs), 6),  # type: ignore[arg-type]
        "episode_stats": stats,
        "metric_stats": metric_stats(metrics, stats, len(traces), getattr(bench, "metric_sources", None)),
    }
    if epochs > 1:
        key = bench.episode_success_key
        out["epochs"] = {"k": epochs, "success_key": key, **epoch_metrics(((t.task_id, bool(s.get(key))) for t, s in zip(traces, scores, strict=True)), epochs)}
    return out


def write_summary(run_dir: str | Path, benchmark: Benchmark | None = None) -> dict[str, Any]:
    run_dir = Path(run_dir)
    summary, episodes = build_summary(run_dir, benchmark)
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=2, sort_keys=True, default=str) + "\n")
    with open(run_dir / "scores.jsonl", "w", encoding="utf-8") as fh:
        for row in episodes:
            fh.write(json.dumps(row, sort_keys=True, default=str) + "\n")
    return summary
