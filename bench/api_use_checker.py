"""Synthetic API Use: generation and sandboxed-checker throughput.

Prints, for the 952 shipped cases: time to generate every problem (faithful and fixed), time
to check target + wrong-function samples (1,904 programs) per (workers, chunk size), the
sandbox's per-subprocess start-up cost (``run_python('pass')``), and the cost of one
``execute`` as the agent calls it. Needs ``$RESTGRAPH_DATA_DIR`` (or the pinned download).

    python bench/api_use_checker.py [--repeats 3]
"""

from __future__ import annotations

import argparse
import statistics
import time

from restgraph.evals.datasets.api_use import FILES, load_suite
from restgraph.tools.pyexec import run_python_sync
from restgraph.tools.synthetic_api import execute, execute_batch, get_example


def timed(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    cases = [c for suite in FILES for c in load_suite(suite)]
    for fixed in (False, True):
        t = timed(lambda fixed=fixed: [get_example(**c.options, fixed=fixed) for c in cases], args.repeats)
        print(
            f"generate {len(cases)} cases ({'fixed' if fixed else 'faithful'}): {t:.2f}s ({1000 * t / len(cases):.2f} ms/case)"
        )
    items = []
    for c in cases:
        tc = get_example(**c.options)
        items += [
            (tc.target, tc.test),
            (tc.target.replace("return ", "return 0 or ", 1).replace(".", ".x_", 1), tc.test),
        ]
    for workers, chunk in ((1, 2000), (2, 1000), (2, 400), (4, 200)):

        def run(workers=workers, chunk=chunk):
            execute_batch(items, workers=workers, chunk_size=chunk)

        t = timed(run, args.repeats)
        print(
            f"check {len(items)} programs, workers={workers} chunk={chunk}: {t:.2f}s ({1e6 * t / len(items):.0f} us/program)"
        )
    print(
        f"sandbox start-up, run_python('pass'): {1000 * timed(lambda: run_python_sync('pass'), args.repeats * 3):.0f} ms"
    )
    tc = get_example(**cases[0].options)

    def single():
        execute(tc.target, tc.test)

    print(f"one execute(sample, test): {1000 * timed(single, args.repeats * 3):.0f} ms")


if __name__ == "__main__":
    main()
