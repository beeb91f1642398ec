"""Which run folders a ``restgraph report`` argument names: a run, a study, a folder of runs, a glob.

Why: users hand the report what they have at hand, most often the study folder ``restgraph
sweep`` just wrote, or ``runs/``. A run folder is one holding ``traces.jsonl`` or
``summary.json``; any other folder is searched for runs (a bounded number of levels down, never
inside a run), so a study's cells are found and its ``report/`` folder is not mistaken for one.
What is not a run and holds none is skipped with one line saying so; it is never handed to
``restgraph score``. A run with traces but no ``summary.json`` yet is scored on the way (what
``restgraph score`` would write, from the traces alone).
"""

from __future__ import annotations

import glob
from collections.abc import Callable, Sequence
from pathlib import Path

#: how many folder levels under an argument are searched (a folder of studies of cells is 2)
MAX_DEPTH = 3
#: subfolders that hold what a run or study produced, never runs
_NOT_RUNS = {"report", "viewer", "export", "site", "__pycache__", ".git", "node_modules"}


def is_run(path: Path) -> bool:
    return path.is_dir() and ((path / "traces.jsonl").is_file() or (path / "summary.json").is_file())


def _runs_under(folder: Path, depth: int) -> list[Path]:
    if is_run(folder):
        return [folder]
    if depth <= 0 or not folder.is_dir():
        return []
    found: list[Path] = []
    try:
        children = sorted(p for p in folder.iterdir() if p.is_dir() and p.name not in _NOT_RUNS)
    except OSError:
        return []
    for child in children:
        found += _runs_under(child, depth - 1)
    return found


def find_runs(args: Sequence[Path | str], skip: Callable[[str], None] = print) -> list[Path]:
    """The run folders the arguments name, in order, each once; ``skip`` gets one line per
    argument that is not a run and holds none."""
    runs: list[Path] = []
    for arg in args:
        text = str(arg)
        matches = (
            [Path(p) for p in sorted(glob.glob(text))]
            if not Path(text).exists() and glob.has_magic(text)
            else [Path(text)]
        )
        if not matches:
            skip(f"skipping {text}: matches nothing")
        for path in matches:
            if not path.exists():
                skip(f"skipping {path}: no such folder")
                continue
            found = _runs_under(path, MAX_DEPTH)
            if not found:
                skip(f"skipping {path}: not a run folder (no traces.jsonl or summary.json) and holds none")
            runs += [r for r in found if r not in runs]
    return runs


def ensure_summaries(runs: list[Path], log: Callable[[str], None] = print) -> list[Path]:
    """Score the runs that have traces but no ``summary.json`` yet; return the runs that have one."""
    ready = []
    for run in runs:
        if not (run / "summary.json").is_file():
            from restgraph.evals.summary import write_summary  # only then: scoring imports a lot

            log(f"scoring {run} (traces.jsonl without summary.json)")
            try:
                write_summary(run)
            except (ValueError, KeyError, OSError) as exc:
                log(f"skipping {run}: cannot score it ({exc})")
                continue
        ready.append(run)
    return ready
