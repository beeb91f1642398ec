"""Sweep scaling: wall time versus the ideal for the local executor and for Ray with 1, 2, 4 workers.

One study of N smoke episodes (one scripted model call each, LATENCY seconds per call) is run by
each executor in a fresh study folder. Concurrency is CONC episodes in flight per cell (local)
or per worker (Ray), so the ideal wall time is

    ideal = N x LATENCY / (CONC x workers)        (workers = 1 for the local executor)

``efficiency`` = ideal / wall; Ray's figure includes starting the local cluster and its worker
processes (printed separately as ``startup s``, the time to the first finished episode).

    python bench/sweep_scaling.py [--episodes 1000] [--latency 0.2] [--concurrency 32] [--workers 1 2 4]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from restgraph.evals.sweep import StudySpec, run_sweep
from restgraph.evals.sweep.ray_executor import LOOPBACK_ONLY_ENV
from restgraph.evals.sweep.study import Variant


def measure(executor: str, workers: int, args: argparse.Namespace, root: Path) -> tuple[float, float]:
    spec = StudySpec(
        benchmarks=["smoke"],
        agents=["chat"],
        models=[f"scripted:smoke-oracle?latency={args.latency}"],
        variants=[Variant(bench_options={"n": args.episodes})],
        concurrency=args.concurrency,
    )
    first: list[float] = []
    started = time.perf_counter()

    def on_trace(*_: object) -> None:
        if not first:
            first.append(time.perf_counter() - started)

    extra = (
        {"workers": workers, "per_worker": args.concurrency, "on_trace": on_trace}
        if executor == "ray"
        else {}
    )
    result = run_sweep(spec, root / f"{executor}-{workers}", executor=executor, log=lambda _: None, **extra)
    wall = time.perf_counter() - started
    summary = next(iter(result["cells"].values()))
    assert summary["n"] == args.episodes and summary["metrics"]["accuracy"] == 1.0, summary
    return wall, (first[0] if first else 0.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=1000)
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    args = parser.parse_args()
    os.environ.setdefault(*LOOPBACK_ONLY_ENV)
    print(
        f"sweep scaling: {args.episodes} smoke episodes x 1 scripted call of {args.latency}s, {args.concurrency} in flight per cell/worker"
    )
    print(f"{'executor':>10} {'workers':>7} {'wall s':>8} {'ideal s':>8} {'efficiency':>10} {'startup s':>9}")
    with tempfile.TemporaryDirectory(prefix="rg-sweep-") as tmp:
        runs = [("local", 1)] + [("ray", w) for w in args.workers]
        for executor, workers in runs:
            wall, startup = measure(executor, workers, args, Path(tmp))
            ideal = args.episodes * args.latency / (args.concurrency * workers)
            print(
                f"{executor:>10} {workers:>7} {wall:>8.2f} {ideal:>8.2f} {ideal / wall:>10.1%} {startup if executor == 'ray' else 0:>9.2f}"
            )


if __name__ == "__main__":
    main()
