"""``restgraph run --workers N`` against one process, on real RestGPT episodes (issue 30).

Runs, as a user does, in a fresh interpreter per run (no latency: the harness's CPU is all there is)::

    restgraph run restbench-tmdb --agent restgpt --model scripted:restgpt-oracle \\
        --epochs 10 --concurrency 32 --workers N

for each N of ``--workers`` (default ``1 2``; 1,000 episodes), ``--repeat`` times, the Ns interleaved
so that a change of load hits both. Printed per run: wall (the whole command: start-up included,
as a user waits for it), CPU of every process of the run (the workers' too: this script adopts
the fork server they come from; not the parser sandboxes', which die unreaped in their PID
namespace: ``restgpt_episode_cost.py`` reads those), ``os.getloadavg()`` at the start and end; then per
N the median wall, its ratio to the one-process median (issue 30's goal: <= 0.6 with 2 workers
on 2 cores), and whether the run is the same run: one trace line per (task, epoch) and a
summary.json (scores) byte-identical to the one-process run's.

On a shared machine the ratio depends on the load: a worker process gets a core only when one is
free, and Linux shares CPU between sessions (autogroups), so a second process in the bench's
session gets no more of it than the first had; ``nice`` changes nothing against other sessions.
Read the load beside each figure; on a busy machine ``setsid bash -c 'echo -15 >
/proc/self/autogroup; exec python bench/run_workers.py'`` (root) raises the session's share.

    python bench/run_workers.py [--epochs 10] [--concurrency 32] [--workers 1 2] [--repeat 1] [--limit N]
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

MODEL = "scripted:restgpt-oracle"
PR_SET_CHILD_SUBREAPER = 36


def _adopt_orphans() -> None:
    """Become the child subreaper (Linux ``prctl``): the fork server of a ``--workers`` run outlives
    the run by a moment and is nobody's child then; adopted, it is reaped here and its CPU (and its
    workers') is counted in ``RUSAGE_CHILDREN`` with the run's."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def _reap(timeout: float = 30.0) -> None:
    """Wait for every adopted orphan to end (bounded)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return  # no child left
        if pid == 0:
            time.sleep(0.02)


def _run(argv: list[str]) -> dict[str, Any]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    load_before = os.getloadavg()[0]
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "restgraph.evals.cli", *argv], capture_output=True, text=True
    )
    wall = time.perf_counter() - started
    _reap()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"run failed ({done.returncode}): {' '.join(argv)}\n{done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": wall, "cpu": cpu, "load": (load_before, os.getloadavg()[0])}


def _lines_and_keys(out: Path) -> tuple[int, int]:
    """(trace lines, distinct (task, epoch) pairs among them)."""
    keys = set()
    lines = 0
    with (out / "traces.jsonl").open() as fh:
        for line in fh:
            if line.strip():
                trace = json.loads(line)
                keys.add((trace["task_id"], trace["extra"].get("epoch", 0)))
                lines += 1
    return lines, len(keys)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--epochs", type=int, default=10, help="epochs of the 100 TMDB tasks (10: 1,000)")
    parser.add_argument("--limit", type=int, default=None, help="first N tasks only")
    parser.add_argument("--concurrency", type=int, default=32, help="episodes in flight (per worker)")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="worker counts to compare")
    parser.add_argument("--repeat", type=int, default=1, help="runs per worker count (medians printed)")
    args = parser.parse_args()
    if min(args.epochs, args.concurrency, args.repeat, *args.workers) < 1 or (
        args.limit is not None and args.limit < 1
    ):
        parser.error("--epochs, --concurrency, --workers, --repeat, --limit must be >= 1")
    _adopt_orphans()
    counts = sorted(set(args.workers) | {1})
    base = ["run", "restbench-tmdb", "--agent", "restgpt", "--model", MODEL, "--quiet"]
    base += ["--epochs", str(args.epochs), "--concurrency", str(args.concurrency)]
    if args.limit:
        base += ["--limit", str(args.limit)]
    print(
        f"run --workers: restbench-tmdb restgpt {MODEL} (no latency), epochs {args.epochs}"
        f"{f', limit {args.limit}' if args.limit else ''}, concurrency {args.concurrency} per worker, "
        f"{os.cpu_count()} CPUs"
    )
    print(f"{'workers':>7} {'run':>3} {'episodes':>8} {'wall s':>7} {'CPU s':>7} {'load start/end':>14}")
    walls: dict[int, list[float]] = {n: [] for n in counts}
    same: dict[int, list[str]] = {n: [] for n in counts}
    with tempfile.TemporaryDirectory(prefix="rg-run-workers-") as tmp_s:
        tmp = Path(tmp_s)
        reference: bytes | None = None
        for r in range(args.repeat):
            for n in counts:
                out = tmp / f"w{n}-{r}"
                result = _run([*base, "--workers", str(n), "--out", str(out)])
                lines, keys = _lines_and_keys(out)
                summary = (out / "summary.json").read_bytes()
                if n == 1 and reference is None:
                    reference = summary
                ok = "yes" if lines == keys and summary == reference else f"NO ({lines} lines, {keys} pairs)"
                same[n].append(ok)
                walls[n].append(result["wall"])
                load = f"{result['load'][0]:.1f}/{result['load'][1]:.1f}"
                print(f"{n:>7} {r:>3} {lines:>8} {result['wall']:>7.2f} {result['cpu']:>7.2f} {load:>14}")
    one = statistics.median(walls[1])
    print(
        f"\n{'workers':>7} {'median wall s':>13} {'x one process':>13} {'one trace per task, same summary':>33}"
    )
    for n in counts:
        wall = statistics.median(walls[n])
        verdict = "yes" if all(s == "yes" for s in same[n]) else "; ".join(same[n])
        print(f"{n:>7} {wall:>13.2f} {wall / one:>13.3f} {verdict:>33}")
    print(f"load average now: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
