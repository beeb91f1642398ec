"""The local executor: each cell is an ordinary ``EpisodeRunner`` run in this process.

Cells run one after another, each with its own ``concurrency`` episodes in flight, so a cell's
progress, resume and summary are exactly those of ``restgraph run``. The study's
``max_connections`` is each cell's ``--max-connections``: since only one cell runs at a time, the
limit per cell is also the limit of the whole sweep, per endpoint.

All cells share one event loop: clients that outlive a run (``langchain_openai`` keeps one
pooled HTTP client per endpoint for the process) would otherwise carry the first cell's
connections into the next cell's loop, and its first requests failed with "Event loop is closed".
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from restgraph.evals.sweep.study import Cell

#: called after each cell with (cell, summary)
CellDone = Callable[[Cell, dict[str, Any]], None]


def run_local(study_dir: Path, cells: list[Cell], *, progress: bool, on_cell: CellDone | None = None) -> bool:
    """Run every cell; return False when a Ctrl-C stopped the sweep (what finished is kept)."""
    return asyncio.run(_run_cells(study_dir, cells, progress=progress, on_cell=on_cell))


async def _run_cells(study_dir: Path, cells: list[Cell], *, progress: bool, on_cell: CellDone | None) -> bool:
    from restgraph.evals.runner import EpisodeRunner

    for cell in cells:
        out = study_dir / cell.key
        runner = EpisodeRunner(cell.run_options(out), out, progress=progress)
        resume = runner.store.path.exists()
        summary = await runner.run(resume=resume)
        if on_cell is not None:
            on_cell(cell, summary)
        if runner.stopped:
            return False
    return True
