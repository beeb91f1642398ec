"""``restgraph run --workers N``: a run's episodes on N worker processes, one writer in this one.

Why: one process runs a RestGPT episode's harness work on one core (issue 30: ~28 ms of CPU per
episode, so ~35 episodes a second however many cores there are). Ray spreads a sweep over a
cluster (``restgraph sweep --executor ray``); this is the same idea on one machine without Ray:
N processes, each a runner with ``--concurrency`` episodes in flight (``evals.episode_worker``),
taking (task, epoch) units from one shared counter. This process is one of them: it runs episodes
from the start, while the others start up (a fork, imports done, then their own run resources).

What the run looks like from outside does not change: this process alone writes config.json,
``traces.jsonl`` (one line per (task, epoch), group commits as ``evals.trace_writer`` does), the
prompt store and summary.json, shows the progress and applies ``--max-errors``; every trace carries
this run's id. A killed run keeps what was written and ``--resume`` runs the rest (with any
``--workers``). Ctrl-C, ``--max-errors`` and a failed worker stop every worker (in-flight episodes
are cancelled, as in one process); a worker that dies fails the run, keeping what finished.
``--max-connections M`` is shared out (M // N per worker, the remainder to the first ones). A
trace records which process ran it (``extra.worker``: 0 is this one).

Workers start from a fork server that imported the harness and the run's modules once
(``forkserver``, started early: ``start_worker_server``), else by spawning.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import sys
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

from restgraph.agents.connection_limit import limiting
from restgraph.evals.episode_worker import EpisodeNote, SharedUnits, WorkerSpec, worker_main
from restgraph.evals.trace import EncodedTraces, Task, Trace, encode_traces
from restgraph.evals.trace_writer import TraceWriter

#: how long stopped workers get to cancel their episodes and send what finished, then are killed
STOP_GRACE_S = 60.0
JOIN_TIMEOUT_S = 10.0


class WorkerFailed(RuntimeError):
    """A worker process raised (a harness bug) or died; the finished episodes are on disk."""


@dataclass
class _Worker:
    index: int
    process: Any
    conn: Any
    ended: asyncio.Future[None]
    outcome: str | None = None  # "done", or why it failed
    notes: list[EpisodeNote] = field(default_factory=list)


def worker_context() -> Any:
    """A fork server that imported the worker's modules once (cheap starts, no inherited threads),
    else spawn."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["restgraph.evals.worker_preload"])
        return context
    return multiprocessing.get_context("spawn")


def start_worker_server() -> None:
    """Start the fork server now, so that its imports (the harness, and every ``restgraph`` module
    this process has imported: the run's benchmark, agent, sandbox) overlap with this process's own
    preparation; the CLI calls it once the options are known good. Later calls change nothing."""
    context = worker_context()
    if context.get_start_method() != "forkserver":
        return
    from multiprocessing import forkserver

    from restgraph.evals.worker_preload import ENV

    modules = ["restgraph.evals.runner", "restgraph.evals.episode_worker"]
    modules += sorted(name for name in sys.modules if name.startswith("restgraph."))
    os.environ[ENV] = ",".join(modules)
    try:
        forkserver.ensure_running()  # spawns the server with this environment, returns at once
    finally:
        del os.environ[ENV]


def connection_shares(limit: int | None, workers: int) -> list[int | None]:
    """Each worker's part of ``--max-connections`` (together exactly ``limit``)."""
    if limit is None:
        return [None] * workers
    return [limit // workers + (1 if i < limit % workers else 0) for i in range(workers)]


def write_group(store: Any) -> Any:
    """The writer's ``write`` for a run with workers: this process's own traces encoded here (as a
    worker does, against chunks this encoder sent), then every group appended with the workers'."""
    known: set[str] = set()

    def write(items: list[Trace | EncodedTraces]) -> None:
        own = [item for item in items if isinstance(item, Trace)]
        groups = [item for item in items if isinstance(item, EncodedTraces)]
        store.append_encoded(([encode_traces(own, known)] if own else []) + groups)

    return write


async def run_with_workers(
    runner: Any,
    pending: list[tuple[Task, int]],
    stop: asyncio.Event,
    finished: Callable[[Task, int, Trace], None],
    writer: TraceWriter[Any],
) -> None:
    """Run ``pending`` here and on ``runner.options.workers - 1`` more processes. This process is
    worker 0: it starts on episodes as soon as its run resources are ready, while the others start
    up; ``finished`` takes its own traces, ``writer`` (``write_group``) the others' as well.
    ``runner`` is the ``evals.runner.EpisodeRunner`` whose run this is (not imported here: it
    imports this module); each worker builds one of its class."""
    from restgraph.tools import codebox

    if runner.model_factory != runner._default_model_factory:
        raise ValueError(
            "workers > 1 build each episode's model in the worker: a model_factory cannot cross processes"
        )
    n = min(runner.options.workers, len(pending))
    start_worker_server()  # (already running when the CLI started it)
    context = worker_context()
    counter = context.Value("q", n)  # the next unit's index, for every worker (worker i first takes unit i)
    shares = connection_shares(runner.connection_limit, n)
    loop = asyncio.get_running_loop()
    mode = runner.display.mode if runner.display is not None else "off"
    units = [(task.id, epoch) for task, epoch in pending]
    workers: list[_Worker] = []

    def readable(worker: _Worker) -> None:
        try:
            while worker.conn.poll():
                kind, body = worker.conn.recv()
                if kind == "episodes":
                    notes, encoded = body
                    writer.put(encoded)
                    for note in notes:
                        runner.record_finished(note.key, note, note.success, stop)
                elif kind == "started":
                    for key in body:
                        runner.display.started(key, None)
                else:
                    worker.outcome = (
                        "done" if kind == "done" else f"episode worker {worker.index} failed: {body}"
                    )
        except (EOFError, OSError):
            _ended(worker)

    def _ended(worker: _Worker) -> None:
        loop.remove_reader(worker.conn.fileno())
        if worker.outcome is None:
            worker.process.join(JOIN_TIMEOUT_S)
            worker.outcome = f"episode worker {worker.index} (pid {worker.process.pid}) died, exit code {worker.process.exitcode}"
        if worker.outcome != "done":
            stop.set()
        if not worker.ended.done():
            worker.ended.set_result(None)

    async def start(index: int) -> None:
        spec = WorkerSpec(
            index=index,
            runner_class=type(runner),
            options_json=runner.options.model_dump_json(),
            out_dir=str(runner.out_dir),
            run_id=runner.run_id,
            units=units,
            score=mode != "off",
            live=mode == "live",
            connection_limit=shares[index],
            code_sandbox=codebox.mode(),
            env=dict(os.environ),
        )
        ours, theirs = context.Pipe(duplex=True)
        process = context.Process(
            target=worker_main, args=(spec, counter, theirs), name=f"restgraph-worker-{index}", daemon=True
        )
        # off the loop: a start waits for the fork server to finish its imports
        await asyncio.to_thread(process.start)
        theirs.close()
        worker = _Worker(index, process, ours, loop.create_future())
        workers.append(worker)
        loop.add_reader(ours.fileno(), readable, worker)
        if stop.is_set():  # stopped while it started: it missed the word
            tell_stop()

    unstarted: list[str] = []

    async def start_all() -> None:
        for index in range(1, n):
            if stop.is_set():
                return
            try:
                await start(index)
            except Exception as exc:  # no fork server, no memory: a failed run, as a worker's death
                unstarted.append(f"episode worker {index} did not start: {type(exc).__name__}: {exc}")
                stop.set()
                return
        await asyncio.gather(*(w.ended for w in workers))

    def tell_stop() -> None:
        for worker in workers:
            if not worker.ended.done():
                with suppress(OSError):
                    worker.conn.send(("stop", None))

    others = asyncio.ensure_future(start_all())  # they start up while this process readies its own resources
    stopper: asyncio.Future[Any] = asyncio.ensure_future(stop.wait())
    here: asyncio.Future[Any] | None = None
    try:
        async with runner.benchmark.run_resources(runner.options) as resources, limiting(shares[0]):
            tasks = {task.id: task for task, _ in pending}
            here = asyncio.ensure_future(
                runner.run_pool(
                    SharedUnits(units, counter, tasks, first=0), len(units), resources, stop, finished
                )
            )
            await asyncio.wait([here, stopper], return_when=asyncio.FIRST_COMPLETED)
            if here.done() and here.exception() is not None:
                stop.set()  # a harness bug here: stop the others too
            if not stop.is_set():  # nothing left to take: wait for the others' last episodes
                await asyncio.wait([others, stopper], return_when=asyncio.FIRST_COMPLETED)
            if stop.is_set():  # Ctrl-C or --max-errors (stopped: exit 130 or 1), or a worker failed
                tell_stop()
                await asyncio.wait([here, others], timeout=STOP_GRACE_S)
    finally:
        stopper.cancel()
        if not others.done():  # a worker still starting, or past the grace period
            others.cancel()
            await asyncio.gather(others, return_exceptions=True)
        for worker in workers:
            with suppress(ValueError, OSError):
                loop.remove_reader(worker.conn.fileno())
            if worker.process.is_alive():
                worker.process.terminate()
            await asyncio.to_thread(worker.process.join, JOIN_TIMEOUT_S)
            worker.conn.close()
    failures = unstarted + [w.outcome for w in workers if w.outcome != "done"]
    if failures:
        runner.stopped = False  # failed, not stopped
        raise WorkerFailed(f"{failures[0]}; finished episodes are kept: continue with --resume")
    if here is not None:
        here.result()  # a harness bug here: raised as in a one-process run
