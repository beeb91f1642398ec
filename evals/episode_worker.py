"""One episode worker process of ``restgraph run --workers N`` (the parent side: ``evals.process_workers``).

Why: the harness's CPU per RestGPT episode (graph steps, prompts, the HTTP sandbox, parsing,
encoding the trace) runs on one core in one process, so a run is bounded by one core however many
the machine has. A worker is a whole runner of its own (benchmark, run resources such as the
HTTP sandbox and the parser's fork server, model, ``--concurrency`` episodes in flight), minus
the files: it takes ``(task, epoch)`` units from a counter shared by all workers (an idle worker
takes the next unit, so a slow worker never holds back the end of the run), and sends each
finished episode to the parent already encoded (redacted, prompts cut into chunks, JSON line:
``evals.trace.encode_traces``), so the one writer only appends bytes. The parent alone writes
``traces.jsonl``, the prompt store, config.json and the summary, exactly as a one-process run does.

Messages, over one duplex pipe: parent -> worker ``("stop", None)`` (Ctrl-C, ``--max-errors``, another
worker failed: cancel what is in flight, as the one-process runner does); worker -> parent
``("started", keys)`` (a live display only), ``("episodes", (notes, encoded))``, then ``("done", None)`` or ``("failed", "Kind: message")`` (the
traceback goes to the worker's stderr, the terminal's). Ctrl-C
reaches every process of the terminal's group: a worker ignores SIGINT and waits for the parent's
word; a parent that dies closes the pipe, and its workers stop.
"""

from __future__ import annotations

import asyncio
import os
import queue
import signal
import threading
import traceback
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

from restgraph.agents.connection_limit import limiting
from restgraph.evals.collector import tuned_collector
from restgraph.evals.progress import RunProgress
from restgraph.evals.summary import score_one
from restgraph.evals.trace import Task, Trace, Usage, encode_traces

#: a worker gives up on the shared unit counter's lock after this long (a worker killed while
#: holding it for its microsecond would otherwise hang the others)
LOCK_TIMEOUT_S = 30.0


@dataclass(frozen=True)
class WorkerSpec:
    """What a worker needs to run its part of the parent's run (pickled once, at start)."""

    index: int  # this worker's number (0-based), recorded in its traces as extra.worker
    #: the parent's runner class (``evals.runner.EpisodeRunner`` or a subclass), built here the same way
    runner_class: Callable[..., Any]
    options_json: str  # the parent runner's resolved RunOptions
    out_dir: str
    run_id: str  # the parent's: every trace of a run carries one run id
    units: list[tuple[str, int]]  # the pending (task id, epoch) pairs, taken in order via the counter
    score: bool  # score each episode for the display (as the one-process runner does)
    live: bool  # the parent's display is live: say when each episode starts (its in-flight count)
    connection_limit: int | None  # this worker's share of --max-connections
    code_sandbox: str
    env: dict[str, str]


@dataclass(frozen=True)
class EpisodeNote:
    """What the parent's display and ``--max-errors`` read of a finished episode (the trace's
    attributes of those names), sent beside its encoded line."""

    key: str
    status: str
    usage: Usage
    wall_s: float
    extra: dict[str, Any]  # only "roles", when the agent reported them (config.json's agent_roles)
    success: Any


class SharedUnits:
    """An iterator over ``units`` shared by every worker through one counter in shared memory:
    each ``next`` takes the next unit no worker has taken. Worker ``i`` of ``n`` first takes unit
    ``i`` (the counter starts at ``n``): every worker that starts runs at least one episode, however
    late it started."""

    def __init__(self, units: list[tuple[str, int]], counter: Any, tasks: dict[str, Task], first: int | None):
        self.units, self.counter, self.tasks = units, counter, tasks
        self._first = first

    def __iter__(self) -> SharedUnits:
        return self

    def __next__(self) -> tuple[Task, int]:
        if self._first is not None:
            index, self._first = self._first, None
            if index < len(self.units):
                return self._unit(index)
        lock = self.counter.get_lock()
        if not lock.acquire(timeout=LOCK_TIMEOUT_S):
            raise RuntimeError(f"the shared unit counter stayed locked for {LOCK_TIMEOUT_S:.0f} s")
        try:
            index = self.counter.value
            if index >= len(self.units):
                raise StopIteration
            self.counter.value = index + 1
        finally:
            lock.release()
        return self._unit(index)

    def _unit(self, index: int) -> tuple[Task, int]:
        task_id, epoch = self.units[index]
        return self.tasks[task_id], epoch


class Sender:
    """Encodes finished traces and sends them to the parent from a thread of its own (a trace
    line is tens of KB: a pipe write would otherwise block the event loop while the parent
    fsyncs). Traces that finish while a send is under way go together, as the writer's groups.

    It stands in for the runner's display too: ``started`` tells a live parent display that an
    episode started (the runner calls it), ``finished`` is the parent's business."""

    def __init__(self, conn: Any, live: bool):
        self.conn, self.live = conn, live
        self._queue: queue.Queue[str | tuple[EpisodeNote, Trace] | None] = queue.Queue()
        self._known: set[str] = set()  # prompt chunks already sent (the parent keeps them)
        self._thread = threading.Thread(target=self._loop, name="restgraph-sender", daemon=True)
        self._thread.start()

    def put(self, note: EpisodeNote, trace: Trace) -> None:
        self._queue.put((note, trace))

    def started(self, key: str, recorder: Any) -> None:
        if self.live:
            self._queue.put(key)

    def finished(self, key: str, trace: Any, success: Any) -> None:
        pass

    def _loop(self) -> None:
        ended = False
        while not ended:
            batch = [self._queue.get()]
            while not self._queue.empty():
                batch.append(self._queue.get_nowait())
            ended = batch[-1] is None
            keys = [item for item in batch if isinstance(item, str)]
            items = [item for item in batch if isinstance(item, tuple)]
            try:
                if keys:
                    self.conn.send(("started", keys))
                if items:
                    encoded = encode_traces([trace for _, trace in items], self._known)
                    self.conn.send(("episodes", ([note for note, _ in items], encoded)))
            except OSError:  # the parent is gone: nobody is left to write them
                return

    def close(self) -> None:
        """Send what is queued; returns once it is sent (a blocking call: run it off the loop)."""
        self._queue.put(None)
        self._thread.join()


def note_of(key: str, trace: Trace, success: Any) -> EpisodeNote:
    roles = trace.extra.get("roles")
    return EpisodeNote(
        key, trace.status, trace.usage, trace.wall_s, {} if roles is None else {"roles": roles}, success
    )


def worker_main(spec: WorkerSpec, counter: Any, conn: Any) -> None:
    """The worker process's entry point."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides what Ctrl-C stops
    os.environ.update(spec.env)
    from restgraph.tools import codebox
    from restgraph.tools.redact import register_env_secrets

    register_env_secrets()
    if codebox.mode() != spec.code_sandbox:
        codebox.set_mode(spec.code_sandbox)
    try:
        with tuned_collector():
            asyncio.run(_serve(spec, counter, conn))
        with suppress(OSError):  # a parent that died (the pipe is closed) needs no answer
            conn.send(("done", None))
    except BaseException as exc:  # a harness bug: the traceback here, the one line to the parent
        traceback.print_exc()
        with suppress(OSError):
            conn.send(("failed", f"{type(exc).__name__}: {exc}"[:500]))
    finally:
        conn.close()


async def _serve(spec: WorkerSpec, counter: Any, conn: Any) -> None:
    from restgraph.evals.benchmark import RunOptions
    from restgraph.tools.datafiles import allow_modified_data
    from restgraph.tools.redact import register_secret

    options = RunOptions.model_validate_json(spec.options_json)
    allow_modified_data(options.allow_modified_data)
    register_secret(options.model_options.get("api_key"))
    runner = spec.runner_class(options, spec.out_dir, progress=False)
    runner.run_id = spec.run_id
    tasks = {task.id: task for task in runner.benchmark.tasks(runner.options)}
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    threading.Thread(target=_listen, args=(conn, loop, stop), name="restgraph-listen", daemon=True).start()
    sender = runner.display = Sender(conn, spec.live)

    def finished(task: Task, epoch: int, trace: Trace) -> None:
        trace.extra["worker"] = spec.index
        success = (
            score_one(runner.benchmark, trace).get(runner.benchmark.episode_success_key)
            if spec.score
            else None
        )
        sender.put(note_of(RunProgress.key(task.id, epoch), trace, success), trace)

    try:
        async with (
            runner.benchmark.run_resources(runner.options) as resources,
            limiting(spec.connection_limit),
        ):
            units = SharedUnits(spec.units, counter, tasks, first=spec.index)
            await runner.run_pool(units, len(spec.units), resources, stop, finished)
    finally:
        await asyncio.to_thread(sender.close)  # every finished episode sent before "done"


def _listen(conn: Any, loop: asyncio.AbstractEventLoop, stop: asyncio.Event) -> None:
    """The parent's word (or its death: the pipe closes) sets ``stop``."""
    with suppress(EOFError, OSError):
        while conn.recv()[0] != "stop":
            pass
    with suppress(RuntimeError):  # the loop has already closed: nothing left to stop
        loop.call_soon_threadsafe(stop.set)
