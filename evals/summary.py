"""``summary.json``: the run's metrics, recomputed from ``traces.jsonl`` alone.

The same function serves ``restgraph run`` (at the end) and ``restgraph score`` (later, with no
model and no network), so the two produce byte-identical files. Nothing here reads the clock.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any, overload

from restgraph.evals.benchmark import Benchmark, get_benchmark
from restgraph.evals.cost import episode_cost
from restgraph.evals.judge import merge_judge
from restgraph.evals.reviews import apply_reviews
from restgraph.evals.run_guard import check_traces
from restgraph.evals.stats import episode_stats, epoch_metrics, metric_stats
from restgraph.evals.trace import Trace, TraceStore, epoch_of, natural_key


def score_one(benchmark: Benchmark, trace: Trace) -> dict[str, Any]:
    try:
        return benchmark.score_episode(trace)
    except Exception as exc:  # a scorer crash on one trace is reported, not fatal
        return {"score_error": f"{type(exc).__name__}: {exc}"}


def score_traces(benchmark: Benchmark, traces: list[Trace]) -> tuple[list[dict[str, Any]], dict[str, float]]:
    scores = [score_one(benchmark, trace) for trace in traces]
    return scores, benchmark.aggregate(scores, traces)


class SlimTraces(Sequence[Trace]):
    """Traces without their steps, kept as compact JSON and parsed again when read.

    Steps (prompts, bodies) are ~99% of a trace; scoring reads them once per line as the file
    streams by. Aggregation, statistics and the run guards read only the rest, so ``score`` keeps
    about a kilobyte per episode (bytes, not live objects) instead of the whole run. A run of at
    most ``KEEP_PARSED`` episodes keeps them as objects as well: the summary reads the traces some
    fifteen times, and parsing them again each time was most of a short run's summary time. A
    parsed slim trace is ~20-25 KB (a RestGPT task carries its gold and environment state), so a
    larger run drops them and stays on bytes: keeping the first 5,000 parsed took ``score`` on
    20,000 RestGPT episodes from 188 to 306 MiB peak.
    """

    KEEP_PARSED = 1000

    def __init__(self, rows: list[bytes] | None = None, parsed: list[Trace | None] | None = None) -> None:
        self._rows: list[bytes] = [] if rows is None else rows
        self._parsed: list[Trace | None] = [None] * len(self._rows) if parsed is None else parsed

    def select(self, indices: list[int]) -> SlimTraces:
        """These rows, in this order (shares the bytes and parsed traces, copies nothing)."""
        return SlimTraces([self._rows[i] for i in indices], [self._parsed[i] for i in indices])

    def add(self, trace: Trace) -> int:
        slim = trace.model_copy(update={"steps": []})
        self._rows.append(slim.model_dump_json().encode())
        if len(self._rows) == self.KEEP_PARSED + 1:  # a large run: drop the objects, keep the bytes
            self._parsed = [None] * self.KEEP_PARSED
        self._parsed.append(slim if len(self._rows) <= self.KEEP_PARSED else None)
        return len(self._rows) - 1

    def __len__(self) -> int:
        return len(self._rows)

    def _get(self, i: int) -> Trace:
        trace = self._parsed[i]
        if trace is None:
            trace = Trace.model_validate_json(self._rows[i])
            if len(self._rows) <= self.KEEP_PARSED:
                self._parsed[i] = trace
        return trace

    @overload
    def __getitem__(self, index: int) -> Trace: ...
    @overload
    def __getitem__(self, index: slice) -> list[Trace]: ...
    def __getitem__(self, index: int | slice) -> Trace | list[Trace]:
        if isinstance(index, slice):
            return [self._get(i) for i in range(len(self._rows))[index]]
        return self._get(range(len(self._rows))[index])


def build_summary(
    run_dir: str | Path, benchmark: Benchmark | None = None
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = SlimTraces()
    skipped: list[str] = []
    latest: dict[tuple[str, int], tuple[int, dict[str, Any]]] = {}
    bench = benchmark
    for item in TraceStore(run_dir).stream(prompts=False):  # scorers never read prompts
        if isinstance(item, str):
            skipped.append(item)
            continue
        bench = bench or get_benchmark(item.benchmark)
        # the last written line of a (task, epoch) wins
        latest[(item.task_id, epoch_of(item))] = (lines.add(item), score_one(bench, item))
    duplicates = check_traces(lines, Path(run_dir) / TraceStore.FILENAME)
    if bench is None or not latest:
        raise ValueError(f"no traces in {Path(run_dir) / TraceStore.FILENAME}")
    keys = sorted(latest, key=lambda k: (natural_key(k[0]), k[1]))
    ordered = [latest[k] for k in keys]
    traces = lines.select([i for i, _ in ordered])
    scores = [s for _, s in ordered]
    human = apply_reviews(run_dir, keys, scores, bench.episode_success_key)  # people over the checker
    metrics = bench.aggregate(scores, traces)
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
        "skipped_lines": skipped,
        "duplicate_task_lines": duplicates,
        **({"human_review": human} if human is not None else {}),
    }
    episodes = [
        {"task_id": t.task_id, **({"epoch": epoch_of(t)} if epoch_of(t) else {}), "status": t.status, **s}
        for t, s in zip(traces, scores, strict=True)
    ]
    return summary, episodes


def _run_options(run_dir: str | Path) -> dict[str, Any]:
    path = Path(run_dir) / "config.json"
    try:
        return dict(json.loads(path.read_text()).get("options") or {}) if path.is_file() else {}
    except (OSError, ValueError):
        return {}


def run_statistics(
    bench: Benchmark,
    traces: Sequence[Trace],
    scores: list[dict[str, Any]],
    metrics: dict[str, float],
    options: dict[str, Any],
) -> dict[str, Any]:
    """n, errors, cost, intervals (``restgraph.evals.stats``) and, with ``--epochs``, pass@k / pass^k."""
    stats = episode_stats(scores)
    costs = [
        episode_cost(t.model, t.usage.input_tokens, t.usage.output_tokens, options.get("price"))
        for t in traces
    ]
    epochs = max(epoch_of(t) for t in traces) + 1
    out: dict[str, Any] = {
        "n_tasks": len({t.task_id for t in traces}),
        "success_key": bench.episode_success_key,
        "errors": sum(t.status.startswith("error") for t in traces),
        "cost_usd": None if any(c is None for c in costs) else round(sum(costs), 6),  # type: ignore[arg-type]
        "episode_stats": stats,
        "metric_stats": metric_stats(
            metrics, stats, len(traces), getattr(bench, "metric_sources", None), scores
        ),
    }
    if epochs > 1:
        key = bench.episode_success_key
        out["epochs"] = {
            "k": epochs,
            "success_key": key,
            **epoch_metrics(
                ((t.task_id, bool(s.get(key))) for t, s in zip(traces, scores, strict=True)), epochs
            ),
        }
    return out


def write_summary(run_dir: str | Path, benchmark: Benchmark | None = None) -> dict[str, Any]:
    run_dir = Path(run_dir)
    summary, episodes = build_summary(run_dir, benchmark)
    merge_judge(run_dir, summary, episodes)  # stored LLM-judge verdicts, if the run has any
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=2, sort_keys=True, default=str) + "\n")
    with open(run_dir / "scores.jsonl", "w", encoding="utf-8") as fh:
        for row in episodes:
            fh.write(json.dumps(row, sort_keys=True, default=str) + "\n")
    return summary
