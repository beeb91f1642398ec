"""The Ray executor: episodes as idempotent work units on Ray workers, one writer for traces.

Design (why it cannot lose or repeat an episode):

- A work unit is ``(cell, task id, epoch)``. The driver computes every cell's pending units from its
  ``traces.jsonl`` exactly as ``--resume`` does, so a unit whose trace is on disk never runs again.
- Workers are long-lived Ray actors (one process each). A worker builds a cell's benchmark, run
  resources (sandbox server, browser) and model once and keeps them for every unit of that cell,
  so the embedded local model starts once per worker, not per episode. An episode's failure is a
  trace (the runner records it), never a lost unit.
- Workers *return* each finished trace to the driver; the driver alone appends it to the cell's
  ``traces.jsonl`` (fsynced per line). The trace store stays the single source of truth.
- A unit whose worker dies (killed, OOM, node lost) returns no trace: the driver replaces the
  worker and re-queues the unit (bounded by ``max_attempts``). A killed *driver* loses only the
  units in flight; ``--resume`` re-derives the pending set from disk.
- ``max_connections`` holds across all workers: one limiter actor per sweep leases the slots
  (``restgraph.evals.sweep.shared_slots``); the driver takes back a dead worker's leases when it replaces it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from restgraph.agents.connection_limit import EndpointLimits, limiting
from restgraph.evals.sweep.shared_slots import SharedSlots, shared_limit, start_slots, worker_limits
from restgraph.evals.sweep.study import Cell, SweepError

RAY_MISSING = "--executor ray needs Ray, an optional extra: pip install -e '.[ray]'"
#: environment a worker needs to find data and credentials (values travel as actor arguments)
FORWARDED_ENV = (
    "RESTGRAPH_DATA_DIR",
    "RESTGRAPH_CACHE_DIR",
    "RESTGRAPH_API_KEY",
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "ANTHROPIC_API_KEY",
    "TMDB_TOKEN",
    "TMDB_API_KEY",
    "SPOTIFY_TOKEN",
)


#: Ray otherwise advertises the machine's outward address even for a one-machine cluster; a local
#: study keeps every Ray socket on loopback (set before ``ray`` is first imported)
LOOPBACK_ONLY_ENV = ("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")


def import_ray(*, local: bool = True) -> Any:
    """Import Ray, or say how to install it. ``local``: a cluster started here, on loopback only."""
    if local and "ray" not in sys.modules:
        os.environ.setdefault(*LOOPBACK_ONLY_ENV)
    try:
        import ray
    except ImportError:
        raise SweepError(RAY_MISSING) from None
    return ray


class EpisodeWorker:
    """Runs work units of any cell in one worker process (wrapped with ``ray.remote`` at start)."""

    def __init__(self, env: dict[str, str], slots: Any = None, holder: str = "worker"):
        os.environ.update(env)
        self._shared = None
        if slots is not None:  # the sweep's limiter actor: this worker's leases carry its name
            import ray

            self._shared = SharedSlots(slots, holder, ray.util.get_node_ip_address())
        self._local_limits: dict[int, EndpointLimits] = {}
        self._cells: dict[str, tuple[Any, dict[str, Any], Any]] = {}
        self._stack = contextlib.AsyncExitStack()
        self._lock = asyncio.Lock()

    def pid(self) -> int:
        return os.getpid()

    async def _cell(self, cell_json: str, out_dir: str) -> tuple[Any, dict[str, Any], Any]:
        async with self._lock:  # concurrent units of a new cell build it once
            if cell_json not in self._cells:
                from restgraph.evals.runner import EpisodeRunner

                cell = Cell.model_validate_json(cell_json)
                runner = EpisodeRunner(cell.run_options(Path(out_dir)), out_dir, progress=False)
                tasks = {t.id: t for t in runner.benchmark.tasks(runner.options)}
                resources = await self._stack.enter_async_context(
                    runner.benchmark.run_resources(runner.options)
                )
                self._cells[cell_json] = (runner, tasks, resources)
            return self._cells[cell_json]

    async def run(self, cell_json: str, out_dir: str, task_id: str, epoch: int) -> str:
        runner, tasks, resources = await self._cell(cell_json, out_dir)
        with limiting(worker_limits(runner, self._shared, self._local_limits)):  # as EpisodeRunner.run does
            trace = await runner.run_episode(tasks[task_id], resources, epoch)
        return str(trace.model_dump_json())

    async def close(self) -> None:
        await self._stack.aclose()


@dataclass
class _CellRun:
    cell: Cell
    out: Path
    runner: Any
    pending: list[tuple[str, int]]
    total: int
    done: int = 0
    in_flight: int = 0

    @property
    def cell_json(self) -> str:
        return self.cell.model_dump_json()


@dataclass
class RayReport:
    """What the driver saw: completed units, units re-queued after a worker died, units given up."""

    completed: int = 0
    requeued: int = 0
    abandoned: list[str] = field(default_factory=list)
    worker_deaths: int = 0
    stopped: bool = False
    #: the shared limiter's counters at the end (``max_connections``): peak and in flight per endpoint
    connections: dict[str, Any] = field(default_factory=dict)


def run_ray(
    study_dir: Path,
    cells: list[Cell],
    *,
    address: str | None = None,
    workers: int = 2,
    per_worker: int | None = None,
    worker_cpus: float = 1.0,
    max_attempts: int = 3,
    on_cell: Callable[[Cell, dict[str, Any]], None] | None = None,
    on_trace: Callable[[Cell, str, dict[str, Any]], None] | None = None,
    on_workers: Callable[[list[int]], None] | None = None,
    on_limiter: Callable[[Any], None] | None = None,
    log: Callable[[str], None] = print,
) -> RayReport:
    """Run every pending unit of ``cells`` on Ray; write traces and summaries on this driver."""
    ray = import_ray(local=not address)
    from restgraph.evals.runner import EpisodeRunner
    from restgraph.evals.trace import Trace

    started_here = not ray.is_initialized()
    if started_here:
        init_args: dict[str, Any] = {
            "include_dashboard": False,
            "log_to_driver": False,
            "configure_logging": False,
        }
        if address:
            init_args["address"] = address
        else:
            init_args["num_cpus"] = max(workers * worker_cpus, 1)
        ray.init(**init_args)
    remote_worker = ray.remote(EpisodeWorker)
    env = {k: os.environ[k] for k in FORWARDED_ENV if k in os.environ}

    runs: list[_CellRun] = []
    for cell in cells:
        out = study_dir / cell.key
        runner = EpisodeRunner(cell.run_options(out), out, progress=False)
        pending, total = runner.pending_tasks(resume=True)
        runner.write_config(total)
        runs.append(
            _CellRun(
                cell=cell,
                out=out,
                runner=runner,
                pending=[(t.id, e) for t, e in pending],
                total=total,
                done=total - len(pending),
            )
        )
    # a unit is (cell, task id, epoch), plus how many times it was tried
    queue: deque[tuple[int, str, int, int]] = deque(
        (i, tid, epoch, 1) for i, r in enumerate(runs) for tid, epoch in r.pending
    )
    limit = per_worker or max(c.concurrency for c in cells)

    max_connections = shared_limit(cells)
    slots = start_slots(ray, max_connections) if max_connections else None
    if slots is not None and on_limiter is not None:  # the limiter actor (tests read its queue)
        on_limiter(slots)

    def holder(a: int) -> str:  # the name a worker's slot leases carry
        return f"worker-{a}.{generation[a]}"

    def new_worker(a: int) -> Any:
        return remote_worker.options(
            num_cpus=worker_cpus, max_restarts=0, scheduling_strategy="SPREAD"
        ).remote(env, slots, holder(a))

    generation = [0] * max(1, workers)  # bumped when a slot's dead actor is replaced
    actors = [new_worker(a) for a in range(max(1, workers))]
    load = [0] * len(actors)
    if on_workers is not None:  # the worker processes' pids (tests kill one to check recovery)
        on_workers(list(ray.get([actor.pid.remote() for actor in actors])))
    inflight: dict[
        Any, tuple[int, str, int, int, int, int]
    ] = {}  # ref -> (cell, task, epoch, attempt, slot, generation)
    report = RayReport()
    for run in runs:  # cells with nothing left still get their summary
        if not run.pending and run.total and run.runner.store.path.exists():
            _finish_cell(run, on_cell)

    try:
        while queue or inflight:
            for a in range(len(actors)):
                while load[a] < limit and queue:
                    ci, tid, epoch, attempt = queue.popleft()
                    run = runs[ci]
                    ref = actors[a].run.remote(run.cell_json, str(run.out), tid, epoch)
                    inflight[ref] = (ci, tid, epoch, attempt, a, generation[a])
                    load[a] += 1
                    run.in_flight += 1
            ready, _ = ray.wait(list(inflight), num_returns=1, timeout=1.0)
            for ref in ready:
                ci, tid, epoch, attempt, a, gen = inflight.pop(ref)
                run = runs[ci]
                run.in_flight -= 1
                if gen == generation[a]:
                    load[a] -= 1
                try:
                    payload = ray.get(ref)
                except (
                    ray.exceptions.RayActorError,
                    ray.exceptions.WorkerCrashedError,
                    ray.exceptions.ObjectLostError,
                ):
                    if gen == generation[a]:  # first failure seen from this actor: replace it once
                        if slots is not None:  # its slot leases die with it (before its units re-queue)
                            with contextlib.suppress(Exception):
                                ray.get(slots.release_holder.remote(holder(a)), timeout=60)
                        generation[a] += 1
                        actors[a] = new_worker(a)
                        load[a] = 0
                        report.worker_deaths += 1
                    if attempt < max_attempts:
                        queue.append((ci, tid, epoch, attempt + 1))
                        report.requeued += 1
                    else:
                        report.abandoned.append(f"{run.cell.key}:{tid}#{epoch}")
                    continue
                trace = Trace.model_validate_json(payload)
                trace.run_id = run.runner.run_id  # one run id per cell, whichever worker ran it
                run.runner.store.append(trace)
                run.done += 1
                report.completed += 1
                if on_trace is not None:
                    on_trace(run.cell, tid, {"status": trace.status, "done": run.done, "total": run.total})
                if run.done == run.total and run.in_flight == 0:
                    _finish_cell(run, on_cell)
    except KeyboardInterrupt:
        report.stopped = True
        for ref in inflight:
            with contextlib.suppress(Exception):
                ray.cancel(ref, force=True)
    finally:
        if slots is not None:
            with contextlib.suppress(Exception):
                report.connections = ray.get(slots.stats.remote(), timeout=30)
        for actor in actors:
            with contextlib.suppress(Exception):
                ray.get(actor.close.remote(), timeout=30)
            with contextlib.suppress(Exception):
                ray.kill(actor)
        if slots is not None:
            with contextlib.suppress(Exception):
                ray.kill(slots)
        if started_here:
            ray.shutdown()
    for run in runs:  # a cell finished only by re-queued units, or cut short, still gets its summary
        if run.done < run.total and run.runner.store.path.exists():
            _finish_cell(run, None)
    return report


def _finish_cell(run: _CellRun, on_cell: Callable[[Cell, dict[str, Any]], None] | None) -> None:
    from restgraph.evals.summary import write_summary

    summary = write_summary(run.out, run.runner.benchmark)
    if on_cell is not None:
        on_cell(run.cell, summary)
