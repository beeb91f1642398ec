"""Shared helpers of the ShortcutsBench tests: runs in-process (no CLI start-up cost)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from restgraph.evals.benchmark import RunOptions
from restgraph.evals.runner import run_sync
from restgraph.evals.trace import TraceStore

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def run_shortcuts(tmp_path, data_dir):
    """``run(agent, model, **bench_options)`` -> (summary, traces); every call gets its own folder.

    Every run reads the API catalogue, so it needs the data folder (skips with a reason without it)."""
    counter = iter(range(1000))

    def run(
        agent: str = "shortcuts-next-action",
        model: str = "scripted:shortcuts-gold",
        *,
        seed: int = 0,
        agent_options: dict[str, Any] | None = None,
        limit: int | None = None,
        model_options: dict[str, Any] | None = None,
        timeout_s: float = 600.0,
        **bench: Any,
    ):
        out = tmp_path / f"run{next(counter)}"
        options = RunOptions(
            benchmark="shortcuts",
            agent=agent,
            model=model,
            seed=seed,
            limit=limit,
            concurrency=4,
            bench_options={k: str(v) for k, v in bench.items()},
            agent_options=agent_options or {},
            model_options=model_options or {},
            episode_timeout_s=timeout_s,
        )
        summary = run_sync(options, out, progress=False)
        return summary, TraceStore(out).load().traces

    return run


def read_log(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
