"""Wall time of the README's quick start, and where it goes.

Reads the ``restgraph run ...`` line of README.md's "Quick start" block, runs it as its own process
(whole-process wall time, model server start included) into a fresh folder, then prints per
episode: status, wall time, model calls by role, tokens, calls cut at max_tokens, and the longest
prompt. The machine's load average is printed before and after: on a shared machine the wall
figure means little without it. The run's CPU time (user + system, model server included) is
printed too: it hardly depends on the load, and CPU time / 2 is what the run needs on 2 idle cores
at best (llama.cpp keeps both busy while a prompt is processed).

``--busy N`` starts N CPU-bound processes (a bare Python loop each) before every run and stops them
after, as a browser or a second job on a laptop would: the issue's goal is that one busy core makes
the quick start at most 2x slower than idle. ``--compare`` runs idle and busy alternately and prints
the ratio of their medians.

Usage: python bench/quickstart_time.py [--repeat N] [--busy N] [--compare] [-- EXTRA RUN ARGS]
Prints numbers only (no assertions).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shlex
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def readme_command() -> list[str]:
    """The ``restgraph run`` command of README.md's Quick start block."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    line = next(m.group(0) for m in re.finditer(r"^restgraph run .*$", section, re.M))
    return shlex.split(line)


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} CPUs"


def describe(run_dir: Path) -> None:
    traces = [
        json.loads(line) for line in (run_dir / "traces.jsonl").read_text().splitlines() if line.strip()
    ]
    # a reply as long as the run's max_tokens was cut there (the smoke model rarely stops on its own)
    max_tokens = json.loads((run_dir / "config.json").read_text())["options"]["model_options"].get(
        "max_tokens"
    )
    for t in traces:
        calls = [c for s in t["steps"] for c in s["model_calls"]]
        roles = Counter(c["role"] for c in calls)
        cut = sum(1 for c in calls if max_tokens and c["output_tokens"] >= max_tokens)
        biggest = max((c["input_tokens"] for c in calls), default=0)
        spent = sum(c["latency_s"] for c in calls)
        print(
            f"  {t['task_id']}: {t['status']} in {t['wall_s']:.1f}s; {len(calls)} model calls "
            f"({', '.join(f'{r} {n}' for r, n in roles.most_common())}) "
            f"taking {spent:.1f}s; tokens in {sum(c['input_tokens'] for c in calls):,} / out {sum(c['output_tokens'] for c in calls):,}; "
            f"longest prompt {biggest:,} tokens; {cut} replies cut at max_tokens"
        )
        if t.get("error"):
            print(f"    error: {t['error'][:200]}")


def start_busy(n: int) -> list[subprocess.Popen]:
    """``n`` processes that each keep one core busy until stopped."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]


def stop(procs: list[subprocess.Popen]) -> None:
    for proc in procs:
        proc.kill()
        proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--busy", type=int, default=0, help="CPU-bound processes running beside each run")
    parser.add_argument("--compare", action="store_true", help="alternate idle and --busy runs")
    parser.add_argument("extra", nargs="*", help="extra arguments for the run (after --)")
    args = parser.parse_args()
    command = readme_command()
    exe = Path(sys.executable).with_name("restgraph")
    print(f"command: {shlex.join(command + args.extra)}")
    walls: list[float] = []
    by_mode: dict[int, list[float]] = {}
    modes = [0, max(args.busy, 1)] if args.compare else [args.busy]
    for i in range(args.repeat * len(modes)):
        busy = modes[i % len(modes)]
        competitors = start_busy(busy)
        if busy:
            print(f"run {i + 1}: beside {busy} busy process(es)")
        with tempfile.TemporaryDirectory(prefix="quickstart-") as tmp:
            out = Path(tmp) / "run"
            print(f"run {i + 1}: load before {load()}")
            t0 = time.perf_counter()
            cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            proc = subprocess.run(
                [
                    str(exe) if exe.exists() else "restgraph",
                    *command[1:],
                    *args.extra,
                    "--out",
                    str(out),
                    "--quiet",
                ],
                cwd=tmp,
                capture_output=True,
                text=True,
            )
            wall = time.perf_counter() - t0
            stop(competitors)
            by_mode.setdefault(busy, []).append(wall)
            cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
            walls.append(wall)
            print(
                f"run {i + 1}: wall {wall:.1f}s, CPU {cpu:.1f}s (user+sys), exit {proc.returncode}; load after {load()}"
            )
            if proc.returncode not in (0, 3):
                print(proc.stderr[-2000:])
            if (out / "traces.jsonl").exists():
                describe(out)
    if len(walls) > 1:
        print(f"wall: min {min(walls):.1f}s, max {max(walls):.1f}s over {len(walls)} runs")
    if args.compare and len(by_mode) == 2:
        idle, busy_walls = (sorted(v)[len(v) // 2] for v in by_mode.values())
        print(
            f"median wall idle {idle:.1f}s, beside {modes[1]} busy {busy_walls:.1f}s: {busy_walls / idle:.2f}x"
        )


if __name__ == "__main__":
    main()
