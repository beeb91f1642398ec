"""What identifies an episode in a run folder, and the run's recorded config, without pandas.

Why its own module: ``restgraph.evals.results`` (pandas, 0.5 s to import) and the trace viewer (which must
list a run in well under two seconds, start-up included) both need these two facts; the viewer
imports this module, not the DataFrame loader.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def episode_key(data: dict[str, Any]) -> tuple[str, int]:
    """What identifies an episode within a run: the task and the epoch (``--epochs``)."""
    return str(data.get("task_id")), int((data.get("extra") or {}).get("epoch", 0) or 0)


def run_config(run_dir: str | Path) -> dict[str, Any]:
    path = Path(run_dir) / "config.json"
    try:
        return json.loads(path.read_text()) if path.is_file() else {}
    except (OSError, json.JSONDecodeError):
        return {}
