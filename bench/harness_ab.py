"""Harness cost per model call, A/B: restgraph vs a bare LangGraph loop vs inspect_ai.

The same workload for all three, each a whole process (interpreter start, imports, the run, its
files): N episodes x 3 model calls with a tool call per turn (two ``add`` calls, then ``submit``),
a zero-latency fake model, concurrency C.

- restgraph: ``restgraph run smoke --agent chat-tools --model scripted:smoke-tools`` (traces,
  scoring, summary, as a user runs it), the ``restgraph`` script installed beside the Python that
  runs this bench, so both sides run on one interpreter and its packages;
- bare LangGraph: ``bench/ab/bare_langgraph.py`` (the same graph shape, compiled once, no tracing);
- inspect_ai: ``bench/ab/inspect_task.py`` (``basic_agent`` + ``mockllm``, logging on), only if
  ``inspect_ai`` is importable.

Runs alternate (A, B, C, A, B, C, ...) so drift in machine load hits all sides alike; printed are
the median wall per side, ms per model call, and the ratios the performance goals are stated in.

    python bench/harness_ab.py [--episodes 200] [--concurrency 32] [--repeats 5]
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def restgraph_cmd() -> list[str]:
    """The ``restgraph`` script of the interpreter running this bench (the bare side's), else
    ``python -m restgraph.evals.cli``. Never a ``restgraph`` found on PATH: that can be another install (a
    pyenv shim: a bash wrapper, another interpreter, another checkout's code)."""
    exe = Path(sys.executable).parent / "restgraph"
    return [str(exe)] if exe.is_file() else [sys.executable, "-m", "restgraph.evals.cli"]


def sides(episodes: int, concurrency: int, tmp: Path) -> dict[str, object]:
    out: dict[str, object] = {
        "restgraph": lambda i: [
            *restgraph_cmd(),
            "run",
            "smoke",
            "--agent",
            "chat-tools",
            "--model",
            "scripted:smoke-tools",
            "-B",
            f"n={episodes}",
            "--concurrency",
            str(concurrency),
            "--out",
            str(tmp / f"rg{i}"),
            "--quiet",
        ],
        "bare langgraph": lambda i: [
            sys.executable,
            str(HERE / "ab" / "bare_langgraph.py"),
            "--episodes",
            str(episodes),
            "--concurrency",
            str(concurrency),
        ],
    }
    if importlib.util.find_spec("inspect_ai") is not None:
        out["inspect_ai"] = lambda i: [
            sys.executable,
            str(HERE / "ab" / "inspect_task.py"),
            "--episodes",
            str(episodes),
            "--concurrency",
            str(concurrency),
            "--log-dir",
            str(tmp / f"inspect{i}"),
        ]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    calls = args.episodes * 3
    walls: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="rg-ab-") as tmp:
        commands = sides(args.episodes, args.concurrency, Path(tmp))
        for i in range(args.repeats):
            for name, make in commands.items():
                started = time.perf_counter()
                proc = subprocess.run(make(i), capture_output=True, text=True)  # type: ignore[operator]
                if proc.returncode != 0:
                    sys.exit(f"{name} failed ({proc.returncode}): {proc.stderr[-2000:]}")
                walls.setdefault(name, []).append(time.perf_counter() - started)
    print(
        f"harness A/B: {args.episodes} episodes x 3 model calls (a tool call each), concurrency {args.concurrency}, "
        f"{args.repeats} alternating runs per side, whole processes"
    )
    print(f"{'side':>16} {'median wall s':>13} {'min s':>7} {'max s':>7} {'ms/call':>8}")
    medians = {name: statistics.median(w) for name, w in walls.items()}
    for name, w in walls.items():
        print(
            f"{name:>16} {medians[name]:>13.2f} {min(w):>7.2f} {max(w):>7.2f} {medians[name] * 1000 / calls:>8.2f}"
        )
    print(
        f"restgraph / bare langgraph: {medians['restgraph'] / medians['bare langgraph']:.2f}x (goal <= 1.5x)"
    )
    if "inspect_ai" in medians:
        print(
            f"restgraph / inspect_ai:     {medians['restgraph'] / medians['inspect_ai']:.2f}x (goal <= 0.4x)"
        )
    else:
        print("inspect_ai: not installed (pip install inspect_ai to compare)")


if __name__ == "__main__":
    main()
