"""Runner throughput: does concurrency turn waiting on the model into overlap?

Runs N smoke episodes (one model call each) with a scripted model that sleeps LATENCY seconds
per call, in-process through ``EpisodeRunner`` (traces written and fsynced as in a real run), at
several concurrency levels, and prints the wall time next to the ideal:

    ideal(c) = max(total model seconds / c, longest episode's model seconds)

where model seconds = model calls (counted in the traces) x the configured latency. The measured
per-call latency is printed too: above the configured one, it shows how long a finished call
waited for the busy event loop to wake it (the wait in line for the episode's next turn of CPU
work, ``restgraph.tools.baton``, is the harness's and is left out of a call's recorded latency).
``efficiency`` = ideal / wall.

    python bench/runner_throughput.py [--episodes 100] [--latency 0.2] [--concurrency 1 8 32]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from restgraph.evals.benchmark import RunOptions
from restgraph.evals.runner import EpisodeRunner
from restgraph.evals.trace import TraceStore


def measure(episodes: int, latency: float, concurrency: int, root: Path) -> dict[str, float]:
    options = RunOptions(
        benchmark="smoke",
        agent="chat",
        model=f"scripted:smoke-oracle?latency={latency}",
        concurrency=concurrency,
        bench_options={"n": episodes},
    )
    out = root / f"c{concurrency}"
    runner = EpisodeRunner(options, out, progress=False)
    started = time.perf_counter()
    summary = asyncio.run(runner.run())
    wall = time.perf_counter() - started
    traces = TraceStore(out).load().traces
    model_s = [t.usage.model_calls * latency for t in traces]
    ideal = max(sum(model_s) / concurrency, max(model_s))
    measured = sum(t.usage.model_latency_s for t in traces) / max(1, sum(t.usage.model_calls for t in traces))
    assert summary["n"] == episodes and summary["metrics"]["accuracy"] == 1.0, summary
    return {"wall": wall, "ideal": ideal, "call_s": measured, "peak": summary["peak_in_flight"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=100)
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 8, 32])
    args = parser.parse_args()
    print(
        f"runner throughput: {args.episodes} smoke episodes x 1 scripted call, {args.latency}s latency per call"
    )
    print(
        f"{'concurrency':>11} {'wall s':>8} {'ideal s':>8} {'efficiency':>10} {'overhead s':>10} {'peak in flight':>14} {'measured s/call':>15}"
    )
    with tempfile.TemporaryDirectory(prefix="rg-throughput-") as tmp:
        for c in args.concurrency:
            r = measure(args.episodes, args.latency, c, Path(tmp))
            print(
                f"{c:>11} {r['wall']:>8.2f} {r['ideal']:>8.2f} {r['ideal'] / r['wall']:>10.1%} "
                f"{r['wall'] - r['ideal']:>10.2f} {r['peak']:>14} {r['call_s']:>15.3f}"
            )


if __name__ == "__main__":
    main()
