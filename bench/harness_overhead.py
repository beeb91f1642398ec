"""Harness overhead per model call, for a whole ``restgraph run`` as a user runs it.

A subprocess runs ``restgraph run smoke --agent chat-vote -A calls=3`` (3 model calls per
episode) over N episodes with a zero-latency scripted model, so everything measured is harness:
interpreter and package start-up, graph building, streaming, trace recording, redaction, the
fsynced append per episode, scoring and summary. Printed per concurrency level:

- ms per call, whole run: wall / (N x 3);
- ms per call, marginal: (wall - wall of a 1-episode run) / ((N - 1) x 3), i.e. start-up removed.

    python bench/harness_overhead.py [--episodes 200] [--calls 3] [--concurrency 1 32]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def restgraph_cmd() -> list[str]:
    exe = shutil.which("restgraph")
    return [exe] if exe else [sys.executable, "-m", "restgraph.evals.cli"]


def timed_run(episodes: int, calls: int, concurrency: int, out: Path) -> tuple[float, dict]:
    cmd = [
        *restgraph_cmd(),
        "run",
        "smoke",
        "--agent",
        "chat-vote",
        "-A",
        f"calls={calls}",
        "--model",
        "scripted:smoke-oracle",
        "-B",
        f"n={episodes}",
        "--concurrency",
        str(concurrency),
        "--out",
        str(out),
        "--quiet",
    ]
    started = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - started
    if proc.returncode != 0:
        sys.exit(f"run failed ({proc.returncode}): {proc.stderr[-2000:]}")
    summary = json.loads((out / "summary.json").read_text())
    assert summary["usage"]["model_calls"] == episodes * calls, summary["usage"]
    return wall, summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=200)
    parser.add_argument("--calls", type=int, default=3)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 32])
    args = parser.parse_args()
    total_calls = args.episodes * args.calls
    print(
        f"harness overhead: `restgraph run` subprocess, {args.episodes} episodes x {args.calls} zero-latency scripted calls"
    )
    print(
        f"{'concurrency':>11} {'wall s':>8} {'start-up s':>10} {'ms/call (whole run)':>19} {'ms/call (marginal)':>18} {'traces.jsonl KB':>15}"
    )
    with tempfile.TemporaryDirectory(prefix="rg-overhead-") as tmp:
        for c in args.concurrency:
            startup, _ = timed_run(1, args.calls, c, Path(tmp) / f"one-c{c}")
            wall, _ = timed_run(args.episodes, args.calls, c, Path(tmp) / f"c{c}")
            marginal = (wall - startup) * 1000 / max(1, total_calls - args.calls)
            size_kb = (Path(tmp) / f"c{c}" / "traces.jsonl").stat().st_size / 1024
            print(
                f"{c:>11} {wall:>8.2f} {startup:>10.2f} {wall * 1000 / total_calls:>19.2f} {marginal:>18.2f} {size_kb:>15.0f}"
            )


if __name__ == "__main__":
    main()
