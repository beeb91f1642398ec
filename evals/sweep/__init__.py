"""``restgraph sweep``: a study (benchmarks x agents x models x variants x seeds) in one command.

- :mod:`restgraph.evals.sweep.study`: the matrix, its cells and the study folder (``study.json``);
- :mod:`restgraph.evals.sweep.presets`: the papers' tables as named studies;
- :mod:`restgraph.evals.sweep.local` / :mod:`restgraph.evals.sweep.ray_executor`: the two executors; both write
  ordinary run folders, one per cell, so scoring and reports read them unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from restgraph.evals.sweep.study import Cell, StudySpec, SweepError

__all__ = ["Cell", "StudySpec", "SweepError", "run_sweep"]


def __getattr__(name: str) -> Any:
    """The study types load on first use: the CLI registers ``sweep`` without paying for YAML and
    pydantic models on every ``restgraph --help``."""
    if name in ("Cell", "StudySpec", "SweepError"):
        from restgraph.evals.sweep import study

        return getattr(study, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def run_sweep(
    spec: StudySpec,
    study_dir: Path,
    *,
    executor: str = "local",
    resume: bool = False,
    address: str | None = None,
    workers: int = 2,
    progress: bool = False,
    log: Callable[[str], None] = print,
    **ray_options: Any,
) -> dict[str, Any]:
    """Run (or resume) a study; return ``{cell key: summary}``. Raises ``SweepError`` on bad input."""
    from restgraph.evals.sweep.study import SweepError, prepare_study_dir

    if executor not in ("local", "ray"):
        raise SweepError(f"--executor must be 'local' or 'ray', not {executor!r}")
    if executor == "ray":
        from restgraph.evals.sweep.ray_executor import import_ray

        import_ray(local=not address)  # say what to install before any folder is written
    cells = spec.cells()
    prepare_study_dir(study_dir, spec, cells, resume=resume)
    summaries: dict[str, Any] = {}
    connections: dict[str, Any] = {}

    def on_cell(cell: Cell, summary: dict[str, Any]) -> None:
        summaries[cell.key] = summary
        log(f"cell {cell.key}: n={summary.get('n')} {_headline(summary)}")

    log(f"study {spec.name}: {len(cells)} cells in {study_dir} ({executor} executor)")
    if executor == "local":
        from restgraph.evals.sweep.local import run_local

        complete = run_local(study_dir, cells, progress=progress, on_cell=on_cell)
    else:
        from restgraph.evals.sweep.ray_executor import run_ray

        report = run_ray(
            study_dir, cells, address=address, workers=workers, on_cell=on_cell, log=log, **ray_options
        )
        complete = not report.stopped and not report.abandoned
        if report.worker_deaths:
            log(
                f"{report.worker_deaths} worker(s) died; {report.requeued} episode(s) re-queued, {len(report.abandoned)} left for --resume"
            )
        connections = report.connections
    if complete and spec.report:
        _write_report(
            spec.report,
            [study_dir / c.key for c in cells if (study_dir / c.key / "summary.json").is_file()],
            study_dir / "report",
        )
    # connections: the Ray sweep's shared limiter at the end (peak/in_flight per endpoint), if any
    return {"complete": complete, "cells": summaries, "connections": connections}


def _headline(summary: dict[str, Any]) -> str:
    metrics = summary.get("metrics", {})
    return " ".join(f"{k}={v:.3f}" for k, v in list(metrics.items())[:3] if isinstance(v, int | float))


def _write_report(layout: str, run_dirs: list[Path], out: Path) -> None:
    from restgraph.evals.report import render_layout

    if run_dirs:
        render_layout(layout, run_dirs, out)
