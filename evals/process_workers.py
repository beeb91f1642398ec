"""``restgraph run --workers N``: a run's episodes on N worker processes, one writer in this one.

Why: one process runs a RestGPT episode's harness work on one core (issue 30: ~28 ms of CPU per
episode, so ~35 episodes a second however many cores there are). Ray spreads a sweep over a
cluster (``restgraph sweep --executor ray``); this is the same idea on one machine without Ray:
N processes, each a runner with ``--concurrency`` episodes in flight (``evals.episode_worker``),
taking (task, epoch) units from one shared counter.

What the run looks like from outside does not change: this process alone writes config.json,
``traces.jsonl`` (one line per (task, epoch), group commits as ``evals.trace_writer`` does), the
prompt store and summary.json, shows the progress and applies ``--max-errors``; every trace carries
this run's id. A killed run keeps what was written and ``--resume`` runs the rest (with any
``--workers``). Ctrl-C, ``--max-errors`` and a failed worker stop every worker (in-flight episodes
are cancelled, as in one process); a worker that dies fails the run, keeping what finished.
``--max-connections M`` is shared out (M // N per worker, the remainder to the first ones).

Workers start from a fork server that imported the harness once (``forkserver``), else by spawning.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

from restgraph.evals.episode_worker import EpisodeNote, WorkerSpec, worker_main
from restgraph.evals.trace import EncodedTraces, Task
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
        context.set_forkserver_preload(["restgraph.evals.runner", "restgraph.evals.episode_worker"])
        return context
    return multiprocessing.get_context("spawn")


def connection_shares(limit: int | None, workers: int) -> list[int | None]:
    """Each worker's part of ``--max-connections`` (together exactly ``limit``)."""
    if limit is None:
        return [None] * workers
    return [limit // workers + (1 if i < limit % workers else 0) for i in range(workers)]


async def run_in_workers(runner: Any, pending: list[tuple[Task, int]], stop: asyncio.Event) -> None:
    """Run ``pending`` on ``runner.options.workers`` processes; write what they finish. ``runner`` is
    the ``evals.runner.EpisodeRunner`` whose run this is (not imported here: it imports this module);
    each worker builds one of its class."""
    from restgraph.tools import codebox

    if runner.model_factory != runner._default_model_factory:
        raise ValueError(
            "workers > 1 build each episode's model in the worker: a model_factory cannot cross processes"
        )
    n = min(runner.options.workers, len(pending))
    context = worker_context()
    counter = context.Value("q", n)  # the next unit's index, for every worker (worker i first takes unit i)
    shares = connection_shares(runner.connection_limit, n)
    loop = asyncio.get_running_loop()
    writer: TraceWriter[EncodedTraces] = TraceWriter(runner.store, runner.store.append_encoded)
    score = runner.display is not None and runner.display.mode != "off"
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

    units = [(task.id, epoch) for task, epoch in pending]
    try:
        for index in range(n):
            spec = WorkerSpec(
                index=index,
                runner_class=type(runner),
                options_json=runner.options.model_dump_json(),
                out_dir=str(runner.out_dir),
                run_id=runner.run_id,
                units=units,
                score=score,
                connection_limit=shares[index],
                code_sandbox=codebox.mode(),
                env=dict(os.environ),
            )
            ours, theirs = context.Pipe(duplex=True)
            process = context.Process(
                target=worker_main,
                args=(spec, counter, theirs),
                name=f"restgraph-worker-{index}",
                daemon=True,
            )
            process.start()
            theirs.close()
            worker = _Worker(index, process, ours, loop.create_future())
            workers.append(worker)
            loop.add_reader(ours.fileno(), readable, worker)
        all_ended: asyncio.Future[Any] = asyncio.gather(*(w.ended for w in workers))
        stopper: asyncio.Future[Any] = asyncio.ensure_future(stop.wait())
        try:
            await asyncio.wait([all_ended, stopper], return_when=asyncio.FIRST_COMPLETED)
            if stop.is_set():  # Ctrl-C or --max-errors (stopped: exit 130 or 1), or a worker failed
                runner.stopped = all(w.outcome in (None, "done") for w in workers)
                for worker in workers:
                    if not worker.ended.done():
                        with suppress(OSError):
                            worker.conn.send(("stop", None))
                await asyncio.wait([all_ended], timeout=STOP_GRACE_S)
        finally:
            stopper.cancel()
    finally:
        for worker in workers:
            with suppress(ValueError, OSError):
                loop.remove_reader(worker.conn.fileno())
            if worker.process.is_alive():
                worker.process.terminate()
            worker.process.join(JOIN_TIMEOUT_S)
            worker.conn.close()
        await writer.drain()  # every episode a worker finished is on disk, even when stopped
    failures = [w.outcome for w in workers if w.outcome != "done"]
    if failures:
        raise WorkerFailed(f"{failures[0]}; finished episodes are kept: continue with --resume")
