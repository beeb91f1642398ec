"""One fixture server and one browser for a module's runs of ``assistantbench-local``.

``run_all(specs, root)`` runs each spec (agent, model, limit, concurrency, agent_options) the way
``restgraph run assistantbench-local ...`` would, except that the runs share the fixture server
and the browser; each episode still gets its own browser context.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

from restgraph.evals.benchmark import RunOptions
from restgraph.evals.benchmarks.assistantbench import AssistantBenchLocal
from restgraph.evals.runner import EpisodeRunner
from restgraph.evals.trace import Trace, TraceStore


class SharedResources(AssistantBenchLocal):
    def __init__(self, resources: Any):
        self._resources = resources

    @contextlib.asynccontextmanager
    async def run_resources(self, options: RunOptions):
        yield self._resources


def run_all(specs: dict[str, dict[str, Any]], root: Path) -> dict[str, tuple[dict[str, Any], list[Trace]]]:
    async def main() -> dict[str, tuple[dict[str, Any], list[Trace]]]:
        # the shared resources keep their screenshots under the first run's folder
        first = RunOptions(
            benchmark="assistantbench-local", agent="aria", run_dir=str(root / next(iter(specs)))
        )
        out = {}
        async with AssistantBenchLocal().run_resources(first) as resources:
            for name, spec in specs.items():
                options = RunOptions(
                    benchmark="assistantbench-local",
                    agent=spec["agent"],
                    model=spec["model"],
                    limit=spec.get("limit"),
                    concurrency=spec.get("concurrency", 1),
                    agent_options=spec.get("agent_options", {}),
                    bench_options=spec.get("bench_options", {}),
                    episode_timeout_s=spec.get("timeout", 180),
                )
                runner = EpisodeRunner(
                    options, root / name, benchmark=SharedResources(resources), progress=False
                )
                summary = await runner.run()
                out[name] = (summary, TraceStore(root / name).load().traces)
        return out

    return asyncio.run(main())
