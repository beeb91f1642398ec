"""The harness's cost on real RestGPT episodes: efficiency and CPU per episode at scale (issue 30).

Runs, as a user does, in a fresh interpreter per run::

    restgraph run restbench-tmdb --agent restgpt --model "scripted:restgpt-oracle?latency=L" \\
        --concurrency C --epochs E

(the defaults are the issue's 1,000-episode run: L=0.3, C=128, E=10; ``--epochs 2`` is the smaller
variant for a loaded machine) and, before it, the same command with ``--limit 1 --epochs 1`` and no
latency: the *start-up* run (imports, plugins, dataset, sandbox, one episode). Printed:

- ``ideal s`` = max(sum over episodes of model calls x L / (C x W), longest episode's calls x L): the
  wall a harness of zero cost would take (model calls counted in the traces; ``W`` = ``--workers``,
  each worker runs ``C`` episodes at once: the issue's c128 with two workers is ``--workers 2
  --concurrency 64``).
- ``efficiency`` = ideal / (wall - start-up wall).
- ``CPU ms/episode``: user+sys of the run's process and what it reaped (``RUSAGE_CHILDREN``: any
  subprocess it waited for, not the parser sandbox), start-up run's CPU removed, per episode beyond the
  first. Given twice: ``with model`` is everything; ``harness`` removes the scripted model's own
  work, the thread CPU spent inside ``ScriptedChatModel._reply`` (the policy and its p50k_base token
  counts: what a real model's server would do), which is printed on its own as ``model ms/episode``.
- ``sandbox ms/ep``: the parser sandbox's own CPU (the warm fork server and the programs it runs),
  which ``RUSAGE_CHILDREN`` never sees (the sandbox dies unreaped with its PID namespace), read
  from ``/proc`` before the run ends; not in the two figures above. The whole tree's harness CPU,
  what issue 30's goal counts, is ``harness`` + ``sandbox``.
- success rate, and ``rescore``: whether ``restgraph score`` on the traces alone rewrites the same
  summary.json (traces byte-compatible with the scorer).

Every figure is printed beside ``os.getloadavg()``: on a shared machine wall and efficiency fall
with load; the CPU figures depend on it much less.

``--profile`` runs the main run under cProfile instead and prints the top cumulative costs (per
episode); ``--profile-out FILE`` keeps the pstats file (``python -m pstats FILE``).

    python bench/restgpt_episode_cost.py [--epochs 10] [--concurrency 128] [--latency 0.3] [--profile]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

MODEL = "scripted:restgpt-oracle"


def _descendants_cpu_s() -> float:
    """User+sys CPU of this process's live descendants, with the children each has reaped.

    Why: the parser sandbox (a bubblewrap tree: the warm fork server and the program it forks per
    job) is killed at exit with its PID namespace, so its processes are never reaped by the run
    and their CPU never reaches ``RUSAGE_CHILDREN``; it is read from ``/proc`` while they live."""
    parents: dict[int, list[tuple[int, int]]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:  # ended meanwhile
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        # after the command: state, ppid, ..., utime, stime, cutime, cstime (fields 14-17 of stat)
        parents.setdefault(int(fields[1]), []).append((int(entry), sum(int(f) for f in fields[11:15])))
    ticks, todo = 0, [os.getpid()]
    while todo:
        for pid, cpu in parents.get(todo.pop(), []):
            ticks += cpu
            todo.append(pid)
    return ticks / os.sysconf("SC_CLK_TCK")


def _child(report: str, profile: str | None, argv: list[str]) -> None:
    """Inside the run's interpreter: meter the scripted model's own CPU, then run the CLI."""
    from restgraph.agents import scripted

    spent = {"cpu_s": 0.0, "calls": 0, "sandbox_cpu_s": 0.0}
    original = scripted.ScriptedChatModel._reply

    def metered(self: Any, messages: Any, stop: Any) -> Any:
        started = time.thread_time()
        try:
            return original(self, messages, stop)
        finally:
            spent["cpu_s"] += time.thread_time() - started
            spent["calls"] += 1

    scripted.ScriptedChatModel._reply = metered  # type: ignore[method-assign]
    from restgraph.evals.cli import app

    profiler = None
    if profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    try:
        app(argv, standalone_mode=False)
    finally:
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(profile)
        spent["sandbox_cpu_s"] = _descendants_cpu_s()  # before atexit ends the sandbox
        Path(report).write_text(json.dumps(spent))


def _run(argv: list[str], tmp: Path, name: str, profile: str | None = None) -> dict[str, Any]:
    report = tmp / f"{name}.model.json"
    cmd = [sys.executable, __file__, "--child", str(report)]
    if profile:
        cmd += ["--child-profile", profile]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([*cmd, "--", *argv], capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"run failed ({done.returncode}): {' '.join(argv)}\n{done.stderr[-2000:]}")
    model = json.loads(report.read_text())
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {
        "wall": wall,
        "cpu": cpu,
        "model_cpu": model["cpu_s"],
        "sandbox_cpu": model["sandbox_cpu_s"],
        "load": os.getloadavg()[0],
    }


def _traces(out: Path) -> list[dict[str, Any]]:
    with (out / "traces.jsonl").open() as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _rescored(out: Path) -> str:
    """``same`` when ``restgraph score`` on a copy of the traces rewrites summary.json byte for byte."""
    original = (out / "summary.json").read_bytes()
    copy = out.parent / f"{out.name}-rescore"
    shutil.copytree(out, copy)
    (copy / "summary.json").unlink()
    done = subprocess.run(
        [sys.executable, "-m", "restgraph.evals.cli", "score", str(copy)], capture_output=True, text=True
    )
    if done.returncode != 0:
        print(f"restgraph score failed ({done.returncode}): {done.stderr.strip()[-500:]}", file=sys.stderr)
        return "FAILED"
    again = (copy / "summary.json").read_bytes()
    shutil.rmtree(copy)
    return "same" if again == original else "DIFFERS"


def _print_profile(path: str, episodes: int, top: int) -> None:
    import pstats

    stats = pstats.Stats(path)
    print(f"\ntop {top} cumulative costs (cProfile; divide by {episodes} episodes for per-episode):")
    stats.sort_stats("cumulative").print_stats(top)
    stats.sort_stats("tottime").print_stats(top)


def main() -> None:
    if "--child" in sys.argv:
        i = sys.argv.index("--child")
        profile = sys.argv[sys.argv.index("--child-profile") + 1] if "--child-profile" in sys.argv else None
        _child(sys.argv[i + 1], profile, sys.argv[sys.argv.index("--") + 1 :])
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--epochs", type=int, default=10, help="epochs of the 100 TMDB tasks (10: 1,000)")
    parser.add_argument("--limit", type=int, default=None, help="first N tasks only")
    parser.add_argument("--concurrency", type=int, default=128)
    parser.add_argument("--latency", type=float, default=0.3, help="scripted model seconds per call")
    parser.add_argument("--workers", type=int, default=None, help="pass --workers N to the run")
    parser.add_argument("--profile", action="store_true", help="cProfile the main run; print top costs")
    parser.add_argument("--profile-out", default=None, help="keep the pstats file here")
    parser.add_argument("--top", type=int, default=35)
    args = parser.parse_args()
    if (
        min(args.epochs, args.concurrency) < 1
        or args.latency < 0
        or (args.limit is not None and args.limit < 1)
    ):
        parser.error("--epochs, --concurrency, --limit must be >= 1 and --latency >= 0")

    base = ["run", "restbench-tmdb", "--agent", "restgpt", "--quiet"]
    with tempfile.TemporaryDirectory(prefix="rg-restgpt-cost-") as tmp_s:
        tmp = Path(tmp_s)
        start = _run([*base, "--model", MODEL, "--limit", "1", "--out", str(tmp / "startup")], tmp, "startup")
        argv = [*base, "--model", f"{MODEL}?latency={args.latency}"]
        argv += [
            "--concurrency",
            str(args.concurrency),
            "--epochs",
            str(args.epochs),
            "--out",
            str(tmp / "main"),
        ]
        if args.limit:
            argv += ["--limit", str(args.limit)]
        if args.workers:
            argv += ["--workers", str(args.workers)]
        profile = (args.profile_out or str(tmp / "main.pstats")) if args.profile else None
        main_run = _run(argv, tmp, "main", profile)
        traces = _traces(tmp / "main")
        summary = json.loads((tmp / "main" / "summary.json").read_text())
        n = len(traces)
        calls = [t["usage"]["model_calls"] for t in traces]
        in_flight = args.concurrency * (args.workers or 1)
        ideal = max(sum(calls) * args.latency / in_flight, max(calls) * args.latency)
        run_wall = main_run["wall"] - start["wall"]
        extra = max(1, n - 1)
        cpu_all = (main_run["cpu"] - start["cpu"]) / extra
        model = (main_run["model_cpu"] - start["model_cpu"]) / extra
        sandbox = (main_run["sandbox_cpu"] - start["sandbox_cpu"]) / extra
        rescore = _rescored(tmp / "main")
        print(
            f"restgpt episode cost: restbench-tmdb, {n} episodes ({args.epochs} epochs), "
            f"{sum(calls)} model calls, latency {args.latency}s, concurrency {args.concurrency}"
            + (f", workers {args.workers}" if args.workers else "")
            + (" [cProfile on: CPU figures inflated]" if profile else "")
        )
        print(
            f"start-up (--limit 1, no latency): {start['wall']:.2f} s wall, {start['cpu']:.2f} s CPU "
            f"(load {start['load']:.1f})"
        )
        print(
            f"{'wall s':>8} {'ideal s':>8} {'efficiency':>10} {'CPU ms/ep with model':>20} "
            f"{'model ms/ep':>11} {'harness ms/ep':>13} {'sandbox ms/ep':>13} {'success':>7} {'rescore':>8} "
            f"{'load':>5}"
        )
        split = [f"{1000 * model:.1f}", f"{1000 * (cpu_all - model):.1f}", f"{1000 * sandbox:.1f}"]
        if (args.workers or 1) > 1:
            # the model's own CPU is timed in the CLI's process only and the sandbox CPU read from its
            # descendants at exit: with other worker processes neither split is the run's
            split = ["-", "-", "-"]
            print(
                "--workers > 1: the model/harness/sandbox split would count the CLI process alone: not shown;\n"
                "'CPU ms/ep with model' is the CLI process's (it runs episodes too, and writes); the other "
                f"workers' and every sandbox's, read from /proc at exit: {1000 * sandbox:.1f} ms/ep; "
                f"all processes: {1000 * (cpu_all + sandbox):.1f} ms/ep"
            )
        print(
            f"{run_wall:>8.2f} {ideal:>8.2f} {ideal / run_wall:>10.3f} {1000 * cpu_all:>20.1f} "
            f"{split[0]:>11} {split[1]:>13} {split[2]:>13} "
            f"{summary['metrics']['success_rate']:>7.3f} {rescore:>8} "
            f"{main_run['load']:>5.1f}"
        )
        if profile:
            _print_profile(profile, n, args.top)


if __name__ == "__main__":
    main()
