"""Concurrency really overlaps episodes: the runner's recorded peak reaches the limit, and the
episodes' own start/end times confirm it."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest

from restgraph.evals.benchmark import RunOptions
from restgraph.evals.runner import run_sync
from tests.foundation.conftest import trace_rows


def _max_overlap(rows: list[dict]) -> int:
    """Largest number of episodes whose [started_at, ended_at] intervals share an instant."""
    events = []
    for r in rows:
        events.append((datetime.fromisoformat(r["started_at"]), 1))
        events.append((datetime.fromisoformat(r["ended_at"]), -1))
    live = peak = 0
    for _, delta in sorted(events, key=lambda e: (e[0], e[1])):  # ends before starts at equal times
        live += delta
        peak = max(peak, live)
    return peak


@pytest.mark.parametrize(("concurrency", "n"), [(8, 24), (1, 3)])
def test_peak_in_flight_reaches_the_limit_and_no_more(tmp_path: Path, concurrency: int, n: int) -> None:
    options = RunOptions(
        benchmark="smoke",
        agent="chat",
        model="scripted:smoke-oracle?latency=0.2",
        concurrency=concurrency,
        bench_options={"n": n},
    )
    summary = run_sync(options, tmp_path, progress=False)
    assert summary["peak_in_flight"] == concurrency
    assert json.loads((tmp_path / "summary.json").read_text())["peak_in_flight"] == concurrency
    rows = trace_rows(tmp_path)
    assert len(rows) == n
    assert _max_overlap(rows) == concurrency  # independent of the runner's own counter
