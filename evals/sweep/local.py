"""The local executor: each cell is an ordinary ``EpisodeRunner`` run in this process.

Cells run one after another, each with its own ``concurrency`` episodes in flight, so a cell's
progress, resume and summary are exactly those of ``restgraph run``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from evals.sweep.study import Cell

#: called after each cell with (cell, summary)
CellDone = Callable[[Cell, dict[str, Any]], None]


def run_local(study_dir: Path, cells: list[Cell], *, progress: bool, on_cell: CellDone | None = None) -> bool:
    """Run every cell; return False when a Ctrl-C stopped the sweep (what finished is kept)."""
    from evals.runner import EpisodeRunner

    for cell in cells:
        out = study_dir / cell.key
        runner = EpisodeRunner(cell.run_options(out), out, progress=progress)
        resume = runner.store.path.exists()
        summary = asyncio.run(runner.run(resume=resume))
        if on_cell is not None:
            on_cell(cell, summary)
        if runner.stopped:
            return False
    return True
