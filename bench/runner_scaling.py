"""Runner scaling: does the cost per episode stay flat from 1,000 to 20,000 episodes?

Runs N zero-latency smoke episodes (one scripted model call each, traces written and fsynced as
in a real run) through ``EpisodeRunner`` for each N and concurrency, and prints the wall time per
episode and its ratio to the smallest N at the same concurrency. A scheduler whose wake-ups cost
grows with the number of pending episodes shows up as a ratio well above 1.

    python bench/runner_scaling.py [--episodes 1000 20000] [--concurrency 4 32]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from restgraph.evals.benchmark import RunOptions
from restgraph.evals.runner import EpisodeRunner


def per_episode_ms(n: int, concurrency: int, root: Path) -> float:
    options = RunOptions(
        benchmark="smoke",
        agent="chat",
        model="scripted:smoke-oracle",
        concurrency=concurrency,
        bench_options={"n": n},
    )
    runner = EpisodeRunner(options, root / f"n{n}-c{concurrency}", progress=False)
    started = time.perf_counter()
    summary = asyncio.run(runner.run())
    wall = time.perf_counter() - started
    assert summary["n"] == n and summary["metrics"]["accuracy"] == 1.0, summary
    return 1000 * wall / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, nargs="+", default=[1000, 20000])
    parser.add_argument("--concurrency", type=int, nargs="+", default=[4, 32])
    args = parser.parse_args()
    print(f"{'concurrency':>11} {'episodes':>8} {'ms/episode':>10} {'ratio':>6}")
    with tempfile.TemporaryDirectory(prefix="rg-scaling-") as tmp:
        for c in args.concurrency:
            base = None
            for n in args.episodes:
                ms = per_episode_ms(n, c, Path(tmp))
                base = base or ms
                print(f"{c:>11} {n:>8} {ms:>10.2f} {ms / base:>6.2f}")


if __name__ == "__main__":
    main()
