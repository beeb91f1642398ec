"""Spotify sessions (one isolated user state per episode) are released when their episode ends,
whether it finished or was cut off by its timeout: a long run does not accumulate states."""

from __future__ import annotations

import asyncio
import contextlib
import os
from typing import Any

import pytest

from restgraph.evals.benchmark import RunOptions
from restgraph.evals.benchmarks.restbench_spotify import RestBenchSpotify
from restgraph.evals.runner import EpisodeRunner


class _Watched(RestBenchSpotify):
    """The benchmark, reporting the session tokens left in its store when the run's resources close."""

    left: list[str] | None = None

    @contextlib.asynccontextmanager
    async def run_resources(self, options: RunOptions):
        async with super().run_resources(options) as resources:
            yield resources
            self.left = resources.app.state.store.tokens()


@pytest.mark.parametrize("timeout", [120.0, 0.05])
def test_sessions_are_released_when_episodes_end(tmp_path, timeout: float) -> None:
    if not os.environ.get("RESTGRAPH_DATA_DIR"):
        pytest.skip("RESTGRAPH_DATA_DIR is not set")
    bench = _Watched()
    # max_errors=0: on a loaded machine every 0.05 s episode times out, and the default early stop
    # (five errors of one kind first) ended the run at 5 of 6 episodes
    options = RunOptions(
        benchmark="restbench-spotify",
        agent="oracle",
        concurrency=4,
        limit=6,
        episode_timeout_s=timeout,
        max_errors=0,
    )
    summary: dict[str, Any] = asyncio.run(
        EpisodeRunner(options, tmp_path, benchmark=bench, progress=False).run()
    )
    assert summary["n"] == 6
    assert bench.left == [], f"{len(bench.left or [])} sessions outlived their episodes"
