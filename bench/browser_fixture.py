"""Browser environment speed on the offline fixture: what one browsing step costs.

Runs ``assistantbench-local`` with the scripted oracle (no model time) at each concurrency and
prints the run's wall time, per-episode wall time, and per-action latency (action + snapshot +
screenshot) percentiles, plus observation sizes, with and without screenshots. The numbers
depend heavily on machine load (Chromium renders on the same cores).

    python bench/browser_fixture.py [--concurrency 1 2 4] [--no-screenshots-too]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from evals.benchmark import RunOptions
from evals.runner import run_sync
from evals.trace import TraceStore


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def one_run(concurrency: int, screenshots: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        options = RunOptions(benchmark="assistantbench-local", agent="browser", model="scripted:browser-oracle", concurrency=concurrency, bench_options={"screenshots": "1" if screenshots else "0"})
        started = time.perf_counter()
        summary = run_sync(options, Path(tmp) / "run", progress=False)
        wall = time.perf_counter() - started
        traces = TraceStore(Path(tmp) / "run").load().traces
    actions = [c.latency_s for t in traces for c in t.tool_calls("browser") if c.name != "refused"]
    obs = [len(c.response or "") for t in traces for c in t.tool_calls("browser")]
    print(
        f"concurrency={concurrency} screenshots={int(screenshots)}  accuracy={summary['metrics']['accuracy']:.3f}  "
        f"run wall {wall:.1f}s  episode wall median {statistics.median(t.wall_s for t in traces):.2f}s  "
        f"actions {len(actions)}: p50 {pct(actions, 0.5):.3f}s p95 {pct(actions, 0.95):.3f}s  "
        f"observation chars p50 {pct(obs, 0.5):.0f} max {max(obs, default=0)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--no-screenshots-too", action="store_true", help="also run without screenshots")
    args = parser.parse_args()
    for concurrency in args.concurrency:
        one_run(concurrency, True)
        if args.no_screenshots_too:
            one_run(concurrency, False)


if __name__ == "__main__":
    main()
