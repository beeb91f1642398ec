"""``restgraph score`` memory: peak RSS when re-scoring 1,000 and 20,000 episodes.

Makes a real RestGPT run on TMDB (scripted oracle decisions, 20 queries), then writes run
folders of N episodes by repeating its traces under distinct task ids, and runs
``restgraph score`` on each in a fresh process, printing wall time and peak resident memory
(the child's ``ru_maxrss``). Memory that grows with N means scoring holds every trace.

    python bench/score_memory.py [--episodes 1000 20000]
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

from restgraph.evals.benchmark import RunOptions
from restgraph.evals.prompt_store import FILENAME as PROMPTS
from restgraph.evals.runner import run_sync


def seed_run(root: Path) -> list[str]:
    out = root / "seed"
    options = RunOptions(
        benchmark="restbench-tmdb", agent="restgpt", model="scripted:restgpt-oracle", limit=20, concurrency=4
    )
    run_sync(options, out, progress=False)
    return (out / "traces.jsonl").read_text().splitlines()


def make_run(root: Path, lines: list[str], n: int) -> Path:
    out = root / f"n{n}"
    out.mkdir()
    shutil.copy(root / "seed" / "config.json", out / "config.json")
    if (root / "seed" / PROMPTS).is_file():  # schema 2: the lines' prompt refs point into it
        shutil.copy(root / "seed" / PROMPTS, out / PROMPTS)
    with open(out / "traces.jsonl", "w", encoding="utf-8") as fh:
        for i in range(n):
            record = json.loads(lines[i % len(lines)])
            record["task_id"] = f"{record['task_id']}/{i}"
            fh.write(json.dumps(record, separators=(",", ":")) + "\n")
    return out


#: runs ``restgraph score RUN`` and, at exit, prints its own peak resident memory (``VmHWM``)
PROBE = """
import atexit, re, runpy, sys
def peak():
    print("VmHWM", re.search(r"VmHWM:\\s+(\\d+) kB", open("/proc/self/status").read()).group(1), file=sys.stderr)
atexit.register(peak)
sys.argv = ["restgraph", "score", sys.argv[1]]
runpy.run_module("restgraph.evals.cli", run_name="__main__")
"""


def score(run: Path) -> tuple[float, float]:
    """Wall seconds and peak RSS (MiB) of one ``restgraph score`` process.

    The peak is the process's own ``VmHWM``: ``ru_maxrss`` of a child counts the memory of the
    forked copy of this (large) process before it became ``python -m restgraph.evals.cli``.
    """
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", PROBE, str(run)], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"restgraph score {run} failed ({done.returncode}): {done.stderr[-2000:]}")
    peak_kb = int(done.stderr.rsplit("VmHWM", 1)[1].split()[0])
    return time.perf_counter() - started, peak_kb / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, nargs="+", default=[1000, 20000])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rg-score-") as tmp:
        root = Path(tmp)
        lines = seed_run(root)
        mean_bytes = sum(len(line) for line in lines) / len(lines)
        print(f"score memory: restgpt TMDB traces, mean {mean_bytes / 1024:.1f} KiB per episode")
        print(f"{'episodes':>8} {'traces MiB':>10} {'wall s':>7} {'peak RSS MiB':>12}")
        for n in sorted(args.episodes):  # ascending: ru_maxrss of children is a running maximum
            run = make_run(root, lines, n)
            wall, peak = score(run)
            size = (run / "traces.jsonl").stat().st_size / 2**20
            print(f"{n:>8} {size:>10.1f} {wall:>7.1f} {peak:>12.1f}")


if __name__ == "__main__":
    main()
