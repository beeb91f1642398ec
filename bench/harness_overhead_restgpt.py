"""Milliseconds per model call for ``restgpt`` on the in-process TMDB sandbox (RestGPT section of
the harness-overhead benchmark; ``bench/harness_overhead.py`` measures the generic ``chat-vote`` case).

A zero-latency scripted decision model (``scripted:restgpt-oracle``) drives ``restgpt`` through the
real runner in this process, so the time measured is graph execution, prompt rendering, parsing,
HTTP through the ASGI sandbox, sandboxed parser code (one subprocess per parser run), trace
recording and scoring. One warm-up run (dataset, fixture index, spec reduction) is excluded.
Printed per concurrency level: ms per model call for everything, and without the time spent in
sandboxed parser code (reported separately because it is a subprocess, not harness), and the
share of summed episode time spent in the parser sandbox with its median per run. With
``--code-sandbox bwrap bwrap-cold`` both sandboxes are measured in one run (warm fork server vs a new
sandbox per program); ``--epochs`` repeats the 100 TMDB queries (``--episodes 100 --epochs 10``
is the 1,000-episode run).

    python bench/harness_overhead_restgpt.py [--episodes 30] [--concurrency 1 8] [--code-sandbox bwrap bwrap-cold]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from restgraph.evals.benchmark import RunOptions  # noqa: E402
from restgraph.evals.runner import run_sync  # noqa: E402
from restgraph.evals.trace import TraceStore  # noqa: E402
from restgraph.tools import codebox  # noqa: E402


def run(episodes: int, concurrency: int, out: Path, model: str, epochs: int = 1) -> tuple[float, list]:
    options = RunOptions(
        benchmark="restbench-tmdb",
        agent="restgpt",
        model=model,
        limit=episodes,
        concurrency=concurrency,
        max_steps=300,
        epochs=epochs,
    )
    started = time.perf_counter()
    run_sync(options, out, progress=False)
    return time.perf_counter() - started, TraceStore(out).load().traces


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=30)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 8])
    parser.add_argument("--model", default="scripted:restgpt-oracle")
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--code-sandbox", nargs="+", default=["bwrap"], choices=codebox.CHOICES)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rg-restgpt-overhead-") as tmp:
        for sandbox in args.code_sandbox:
            codebox.set_mode(sandbox)
            run(2, 1, Path(tmp) / f"warmup-{sandbox}", args.model)
        n = args.episodes * args.epochs
        print(f"restgpt harness overhead: in-process TMDB sandbox, {n} episodes, {args.model} (zero latency)")
        print(
            f"{'code sandbox':>12} {'concurrency':>11} {'wall s':>7} {'model calls':>11} {'http':>5} {'parser runs':>11} {'ms/call':>8} "
            f"{'ms/call w/o parser code':>23} {'parser median ms':>16} {'% episode time in parser':>24} {'ok':>4}"
        )
        for c in args.concurrency:
            for sandbox in args.code_sandbox:
                codebox.set_mode(sandbox)
                wall, traces = run(args.episodes, c, Path(tmp) / f"c{c}-{sandbox}", args.model, args.epochs)
                calls = sum(t.usage.model_calls for t in traces)
                http = sum(len(t.http_calls()) for t in traces)
                python = [tc for t in traces for tc in t.tool_calls("python")]
                code_s = (
                    sum(tc.latency_s for tc in python) / c
                )  # subprocess time overlaps across concurrent episodes
                share = sum(tc.latency_s for tc in python) / max(1e-9, sum(t.wall_s for t in traces))
                median = 1000 * statistics.median(tc.latency_s for tc in python) if python else 0.0
                finished = sum(t.status == "finished" for t in traces)
                print(
                    f"{sandbox:>12} {c:>11} {wall:>7.2f} {calls:>11} {http:>5} {len(python):>11} {wall * 1000 / max(1, calls):>8.2f} "
                    f"{max(0.0, wall - code_s) * 1000 / max(1, calls):>23.2f} {median:>16.1f} {100 * share:>23.1f}% {finished:>4}",
                    flush=True,
                )
        print(f"load average: {Path('/proc/loadavg').read_text().split()[:3]}")


if __name__ == "__main__":
    main()
