"""Start-up: how long the ``restgraph`` command takes before it is useful.

Each case runs the installed command as a whole new process, RUNS times, and prints the median
and range of its wall time (interpreter start included, as a user sees it):

- ``--help``, ``list`` and three usage errors (unknown benchmark, unknown agent, bad ``--limit``):
  these must answer without importing LangGraph or any benchmark;
- ``run smoke`` with the scripted oracle model (no model cost): the time from spawning the process
  to the first episode's start and end, read from the first trace's ``started_at``/``ended_at``
  (wall-clock stamps written by the runner), and the whole process;
- the start-up CPU of one-task runs (issue 30): the whole process's user+sys, children included
  (the parser sandbox, the bubblewrap probe), median of RUNS, for ``run smoke``, ``run
  restbench-tmdb --agent oracle --limit 1`` and the same with RestGPT on its scripted oracle model,
  each as a ratio to ``run smoke`` (goal: TMDB oracle <= 1.0 s and <= 1.3x smoke). These runs read
  the warm caches (padded world, reference golds, dereferenced spec, bytecode); the first run of each
  case warms them and is not counted. Printed first, the floor under all of them: a bare interpreter
  importing ``langgraph.graph``.

Every command runs with bytecode caching on, as an installed package does (``PYTHONDONTWRITEBYTECODE``
is dropped from the children's environment).

The modules each case imported are checked too (``-X importtime``): the light cases must import
none of ``langgraph``, ``scipy``, ``fastapi``.

    python bench/startup_time.py [--runs 7] [--only light|smoke|runs]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

HEAVY = ("langgraph", "scipy", "fastapi")
LIGHT_CASES = {
    "--help": ["--help"],
    "list": ["list"],
    "usage: unknown benchmark": ["run", "no-such-bench"],
    "usage: unknown agent": ["run", "smoke", "--agent", "no-such-agent"],
    "usage: bad --limit": ["run", "smoke", "--limit", "5:2"],
}


def command() -> list[str]:
    exe = shutil.which("restgraph", path=str(Path(sys.executable).parent))
    return [exe] if exe else [sys.executable, "-m", "restgraph.evals.cli"]


#: as a user's install runs: with bytecode caches. This machine's environment sets
#: PYTHONDONTWRITEBYTECODE, which made every run compile restgraph's ~110 modules anew (0.15-0.2 s)
ENV = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}, "COLUMNS": "200"}
CPU: list[float] = []  # CPU seconds (user + sys) of each timed child: wall time minus the machine's load


def timed(args: list[str]) -> tuple[float, subprocess.CompletedProcess]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([*command(), *args], capture_output=True, text=True, env=ENV)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return wall, done


def heavy_imports(args: list[str]) -> list[str]:
    """The HEAVY top-level packages a case imports (``-X importtime`` of the same command)."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "restgraph.evals.cli", *args],
        capture_output=True,
        text=True,
    )
    names = {
        line.rsplit("|", 1)[-1].strip().split(".")[0]
        for line in done.stderr.splitlines()
        if line.startswith("import time:")
    }
    return sorted(names & set(HEAVY))


def first_episode(root: Path, i: int) -> tuple[float, float, float]:
    """(spawn -> first episode started, spawn -> first episode ended, whole process) in seconds."""
    out = root / f"smoke{i}"
    spawned = time.time()
    wall, done = timed(
        ["run", "smoke", "--model", "scripted:smoke-oracle", "--limit", "1", "--quiet", "--out", str(out)]
    )
    if done.returncode != 0:
        raise SystemExit(f"run smoke failed: {done.stderr}")
    trace = json.loads((out / "traces.jsonl").read_text().splitlines()[0])
    start = datetime.fromisoformat(trace["started_at"]).timestamp() - spawned
    end = datetime.fromisoformat(trace["ended_at"]).timestamp() - spawned
    return start, end, wall


RUN_CASES = {
    "run smoke": ["run", "smoke", "--agent", "chat", "--model", "scripted:smoke-oracle"],
    "run restbench-tmdb --agent oracle": ["run", "restbench-tmdb", "--agent", "oracle"],
    "run restbench-tmdb --agent restgpt (scripted)": [
        *("run", "restbench-tmdb", "--agent", "restgpt"),
        *("--model", "scripted:restgpt-oracle"),
    ],
}


def floor_cpu(runs: int) -> float:
    """CPU of a bare interpreter importing ``langgraph.graph``: what every run of a LangGraph agent
    pays before any restgraph code (LangChain's tracers and LangSmith's schemas come with it), frozen
    before exit as the restgraph command does."""
    spent = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, "-c", "import gc, langgraph.graph; gc.freeze()"], check=True, env=ENV)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        spent.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return statistics.median(spent)


def run_cpu(root: Path, runs: int) -> None:
    """Median whole-process CPU of each one-task run, and its ratio to ``run smoke``'s."""
    label = "floor: python -c 'import langgraph.graph'"
    print(f"{label:<56} cpu median {floor_cpu(runs):.3f} s")
    medians: dict[str, float] = {}
    for case, (name, argv) in enumerate(RUN_CASES.items()):
        CPU.clear()
        walls = []
        loads = []
        for i in range(runs + 1):  # the first warms the caches and is dropped
            out = root / f"case{case}-{i}"
            wall, done = timed([*argv, "--limit", "1", "--quiet", "--out", str(out)])
            if done.returncode != 0:
                raise SystemExit(f"{name} failed ({done.returncode}): {done.stderr[-2000:]}")
            walls.append(wall)
            loads.append(os.getloadavg()[0])
        medians[name] = statistics.median(CPU[1:])
        ratio = medians[name] / medians["run smoke"]
        print(
            f"{name + ' --limit 1':<56} cpu median {medians[name]:.3f} s (min {min(CPU[1:]):.3f}, max "
            f"{max(CPU[1:]):.3f}, n={runs})  {ratio:.2f}x smoke  wall median {statistics.median(walls[1:]):.3f} s"
            f"  load {min(loads):.1f}-{max(loads):.1f}"
        )


def fmt(values: list[float]) -> str:
    return f"median {statistics.median(values):6.3f} s  (min {min(values):.3f}, max {max(values):.3f}, n={len(values)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--only", choices=("light", "smoke", "runs"), help="one group of cases only")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if args.only in (None, "light"):
        light(args.runs)
    if args.only in (None, "smoke"):
        smoke(args.runs)
    if args.only in (None, "runs"):
        with tempfile.TemporaryDirectory() as tmp:
            run_cpu(Path(tmp), args.runs)
    print(
        f"load average now: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (wall times above it stretch; cpu does not)"
    )


def light(runs: int) -> None:
    for name, argv in LIGHT_CASES.items():
        walls, codes = [], set()
        CPU.clear()
        for _ in range(runs):
            wall, done = timed(argv)
            walls.append(wall)
            codes.add(done.returncode)
        print(
            f"{name:<34} wall {fmt(walls)}  cpu median {statistics.median(CPU):.3f} s  exit "
            f"{sorted(codes)}  heavy imports: {heavy_imports(argv) or 'none'}"
        )


def smoke(n: int) -> None:
    CPU.clear()
    with tempfile.TemporaryDirectory() as tmp:
        runs = [first_episode(Path(tmp), i) for i in range(n)]
    print(f"{'run smoke: first episode starts':<34} wall {fmt([r[0] for r in runs])}")
    print(f"{'run smoke: first episode ends':<34} wall {fmt([r[1] for r in runs])}")
    print(
        f"{'run smoke --limit 1: process':<34} wall {fmt([r[2] for r in runs])}  cpu median {statistics.median(CPU):.3f} s"
    )


if __name__ == "__main__":
    main()
