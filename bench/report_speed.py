"""Report speed: ``restgraph report STUDY_DIR`` over a 14-cell Table 4 study, goal under 3 s.

Makes the study once (``restgraph sweep table4 --model scripted:restgpt-oracle --limit N``, the
scripted oracle: no model, no network) unless ``--study`` names one, then times

- the command as a user runs it (a fresh interpreter: start-up, finding the runs, the terminal
  table, ``table4.md/.csv/.png`` and ``index.html``), REPEAT times, median and best;
- in this process, each stage once modules are loaded: the rows (pooled episode frames and
  intervals), the terminal layout, the chart, the HTML page.

The machine is shared: the load average is printed beside every figure.

    python bench/report_speed.py [--limit 5] [--repeat 3] [--study studies/table4-...]
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console


def load() -> str:
    return "load {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def make_study(root: Path, limit: int) -> Path:
    from restgraph.evals.sweep import run_sweep
    from restgraph.evals.sweep.presets import PRESETS

    spec = PRESETS["table4"](["scripted:restgpt-oracle"])
    spec.limit, spec.report = limit, None  # the report is what is timed below
    run_sweep(spec, root / "study", log=lambda _: None)
    return root / "study"


def stages(study: Path, out: Path) -> dict[str, tuple[float, float]]:
    from restgraph.evals.reports import table4
    from restgraph.evals.reports.table4_chart import bar_chart
    from restgraph.evals.run_discovery import find_runs
    from restgraph.evals.termtable import print_fitted

    times: dict[str, tuple[float, float]] = {}
    t, c = time.perf_counter(), time.process_time()
    runs = find_runs([study], skip=lambda _: None)
    rows = table4.with_paper(table4.load_rows(runs))
    times["rows (14 runs, intervals, paper rows)"] = (time.perf_counter() - t, time.process_time() - c)
    t, c = time.perf_counter(), time.process_time()
    print_fitted(Console(file=io.StringIO(), width=100), table4.views(rows))
    times["terminal table at 100 columns"] = (time.perf_counter() - t, time.process_time() - c)
    t, c = time.perf_counter(), time.process_time()
    bar_chart(rows, out / "chart.png")
    times["chart (1600x900 PNG)"] = (time.perf_counter() - t, time.process_time() - c)
    t, c = time.perf_counter(), time.process_time()
    table4.write_files(rows, out / "files")
    times["all files (md, csv, png, html)"] = (time.perf_counter() - t, time.process_time() - c)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--study", type=Path, default=None, help="an existing table4 study folder")
    parser.add_argument("--limit", type=int, default=5, help="episodes per cell of the study made here")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        study = args.study or make_study(root, args.limit)
        cells = len([d for d in study.iterdir() if (d / "summary.json").is_file()])
        print(f"study {study}: {cells} cells ({load()})")
        walls, cpus = [], []
        for i in range(args.repeat):
            before = load()
            cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            done = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "restgraph.evals.cli",
                    "report",
                    str(study),
                    "--out",
                    str(root / f"r{i}"),
                ],
                capture_output=True,
                text=True,
                env={**os.environ, "COLUMNS": "120"},
                check=False,
            )
            walls.append(time.perf_counter() - t)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append(after.ru_utime + after.ru_stime - cpu.ru_utime - cpu.ru_stime)
            assert done.returncode == 0, done.stderr
            print(f"  restgraph report STUDY_DIR: {walls[-1]:.2f} s wall, {cpus[-1]:.2f} s CPU ({before})")
        verdict = "under" if statistics.median(walls) < 3.0 else "OVER"
        print(
            f"restgraph report, {cells}-cell study: median {statistics.median(walls):.2f} s wall, "
            f"best {min(walls):.2f} s ({verdict} the 3 s goal), median {statistics.median(cpus):.2f} s CPU "
            f"(the wall time on an idle core; {load()}, {os.cpu_count()} cores)"
        )
        for name, (seconds, cpu_s) in stages(study, root / "stages").items():
            print(f"  in process, {name}: {seconds:.2f} s wall, {cpu_s:.2f} s CPU")
        print(f"({load()})")


if __name__ == "__main__":
    main()
