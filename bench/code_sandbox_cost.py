"""What the operating-system sandbox costs: per-call latency and Synthetic API checker throughput,
before (a plain subprocess, as ``restgraph.tools.pyexec`` ran model code until the bubblewrap sandbox) and
after (``restgraph.tools.codebox``), on the same machine in one run.

- per call: the median wall time of starting a fresh interpreter that reads a small JSON job from
  stdin, for the old launch (``[unshare --net] python -I -S``), the sandbox (``bwrap`` + ``setpriv``
  + ``prlimit``) and ``run_python('pass')`` end to end;
- warm vs cold: median and p90 of ``run_python`` end to end for ``pass`` and for a RestGPT-style
  parser program (json/re over a ~30 KB API response), with a new sandbox per program
  (``--code-sandbox bwrap-cold``) and with the warm fork server (``bwrap``, ``restgraph.tools.forkserver``),
  alternating the two so both see the same machine load; and the warm parser with and without the
  seccomp filter (``bwrap`` against ``bwrap-no-seccomp``), alternating;
- checker: target + wrong-function samples of the shipped cases, the old way (every program
  ``exec``-ed in one shared interpreter per chunk: fast, but samples could poison each other) and
  the new way (one sandbox per chunk, a fresh forked process per sample, verdict outside).

    python bench/code_sandbox_cost.py [--repeats 5] [--cases 300]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from api_use_checker import timed  # bench/ is on sys.path when run as a script

from restgraph.evals.datasets.api_use import FILES, load_suite
from restgraph.tools import codebox
from restgraph.tools.pyexec import run_python, run_python_sync
from restgraph.tools.synthetic_api import execute_batch, get_example
from restgraph.tools.synthetic_api.checker import build_program

JOB = b'{"code": "pass", "inputs": {}}'
READ_JOB = "import json, sys\njson.loads(sys.stdin.buffer.read())\n"
#: the old checker's shape: all programs of a chunk exec-ed in one interpreter (measurement only)
SHARED_HARNESS = """import json, sys
job = json.loads(sys.stdin.buffer.read())
out = []
for program in job["programs"]:
    try:
        exec(compile(program, "<sample>", "exec"), {}, {})
        out.append(True)
    except BaseException:
        out.append(False)
print(sum(out))
"""


PARSER = """import json, re
movies = data["results"]
titles = [m["title"] for m in movies if re.search(r"\\d{4}", m.get("release_date", ""))]
print(json.dumps({"count": len(titles), "first": titles[:3]}))
"""
RESPONSE = {
    "page": 1,
    "results": [
        {
            "id": i,
            "title": f"Movie {i}",
            "release_date": f"{1950 + i % 70}-01-01",
            "overview": "x " * 100,
            "genre_ids": [18, 35],
            "popularity": i / 3,
        }
        for i in range(120)
    ],
}


def warm_vs_cold(
    code: str, inputs: dict, runs: int, modes: tuple[str, ...] = ("bwrap-cold", "bwrap")
) -> dict[str, list[float]]:
    """Wall seconds per ``run_python`` call under each of ``modes``, alternating, in one event loop."""
    times: dict[str, list[float]] = {mode: [] for mode in modes}

    async def measure() -> None:
        for mode in times:  # one untimed call each: the probe, the warm server's start
            codebox.set_mode(mode)
            await run_python(code, inputs=inputs, record=False)
        for _ in range(runs):
            for mode, seen in times.items():
                codebox.set_mode(mode)
                started = time.perf_counter()
                result = await run_python(code, inputs=inputs, record=False)
                seen.append(time.perf_counter() - started)
                assert result.ok, result.error

    try:
        asyncio.run(measure())
    finally:
        codebox.set_mode("bwrap")
    return times


def _ms(seen: list[float]) -> str:
    ordered = sorted(seen)
    return f"median {1000 * statistics.median(ordered):.1f} ms, p90 {1000 * ordered[int(0.9 * (len(ordered) - 1))]:.1f} ms"


def old_prefix() -> list[str]:
    unshare = shutil.which("unshare")
    if unshare and subprocess.run([unshare, "--net", "--", "true"], capture_output=True).returncode == 0:
        return [unshare, "--net", "--"]
    return []


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--cases", type=int, default=300, help="shipped cases to check (x2 programs)")
    args = parser.parse_args()
    exe, _ = codebox.interpreter()
    script = Path(tempfile.mkdtemp()) / "read_job.py"
    script.write_text(READ_JOB)
    script.chmod(0o644)
    script.parent.chmod(0o755)
    old = [*old_prefix(), exe, "-I", "-S", "-X", "utf8", str(script)]
    new = codebox.command(script, codebox.Limits())
    before = timed(lambda: subprocess.run(old, input=JOB, capture_output=True, check=True), args.repeats * 4)
    after = timed(
        lambda: subprocess.run(new, input=JOB, capture_output=True, check=True, env={}), args.repeats * 4
    )
    end_to_end = timed(lambda: run_python_sync("pass", record=False), args.repeats * 4)
    print(
        f"per call, old subprocess ({' '.join(old[:2]) if old_prefix() else 'python'}): {1000 * before:.1f} ms"
    )
    print(f"per call, bubblewrap sandbox: {1000 * after:.1f} ms ({after / before:.2f}x)")
    print(f"per call, run_python('pass') end to end: {1000 * end_to_end:.1f} ms")
    for label, code, inputs in (
        ("pass", "pass", {}),
        ("parser program, 30 KB response", PARSER, {"data": RESPONSE}),
    ):
        times = warm_vs_cold(code, inputs, args.repeats * 8)
        cold, warm = times["bwrap-cold"], times["bwrap"]
        print(
            f"run_python({label}), {len(cold)} runs each: cold sandbox per program {_ms(cold)}; warm fork server {_ms(warm)} "
            f"({statistics.median(warm) / statistics.median(cold):.2f}x)"
        )
    # the seccomp filter's own cost (issue 29): the warm sandbox with and without it, alternating
    logging.getLogger(codebox.__name__).setLevel(logging.ERROR)  # its opt-out warning, once per switch
    times = warm_vs_cold(PARSER, {"data": RESPONSE}, args.repeats * 8, ("bwrap", "bwrap-no-seccomp"))
    print(
        f"warm parser program, {len(times['bwrap'])} runs each: seccomp filter on {_ms(times['bwrap'])}; "
        f"off (bwrap-no-seccomp) {_ms(times['bwrap-no-seccomp'])}"
    )

    cases = [c for suite in FILES for c in load_suite(suite)][: args.cases]
    items = []
    for c in cases:
        tc = get_example(**c.options)
        items += [
            (tc.target, tc.test),
            (tc.target.replace("return ", "return 0 or ", 1).replace(".", ".x_", 1), tc.test),
        ]
    programs = [build_program(s, t) for s, t in items]

    def old_checker(workers: int = 2) -> None:
        chunks = [programs[i::workers] for i in range(workers)]
        procs = [
            subprocess.Popen(
                [*old_prefix(), exe, "-I", "-S", "-c", SHARED_HARNESS],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
            )
            for _ in chunks
        ]
        for proc, chunk in zip(procs, chunks, strict=True):
            proc.stdin.write(json.dumps({"programs": chunk}).encode())
            proc.stdin.close()
        for proc in procs:
            proc.wait()

    t_old = timed(old_checker, args.repeats)
    t_new = timed(lambda: execute_batch(items, workers=2, chunk_size=len(items) // 2 + 1), args.repeats)
    n = len(items)
    print(
        f"checker, {n} programs, 2 workers, old shared interpreter: {t_old:.2f}s ({1e6 * t_old / n:.0f} us/program)"
    )
    print(
        f"checker, {n} programs, 2 workers, sandbox + fresh process per sample: {t_new:.2f}s ({1e6 * t_new / n:.0f} us/program, {t_new / t_old:.2f}x)"
    )
    print(f"load average during the run: {Path('/proc/loadavg').read_text().split()[:3]}")
    print(
        f"python {sys.version.split()[0]}, bwrap {subprocess.run(['bwrap', '--version'], capture_output=True, text=True).stdout.strip()}"
    )


if __name__ == "__main__":
    main()
