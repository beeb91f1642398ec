"""Group commit for a run's traces: every episode that finishes while a write is under way goes
into the next write, so a run pays one ``write`` + ``fsync`` per group, not per episode.

An fsync costs 2-3 ms on this project's disks, and a thread hop per episode more; with hundreds
of short episodes in flight that was the runner's largest fixed cost per episode. The write runs
in a worker thread (the event loop keeps driving episodes) and the group is whatever piled up
meanwhile: one episode at a time when episodes are slow, dozens when they are fast, so latency
to disk never grows beyond one write. A run killed with ``kill -9`` loses at most the group being
written and the episodes waiting for it (each is whole or absent: lines are written whole, a torn
tail is repaired), and ``--resume`` re-runs exactly those.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Generic, TypeVar

from restgraph.evals.trace import EncodedTraces, Trace, TraceStore

Item = TypeVar("Item", Trace, EncodedTraces)


class TraceWriter(Generic[Item]):
    """Appends finished episodes to ``store`` in groups, off the event loop.

    ``write`` appends one group (default ``store.append_many``: traces); a multi-process run's one
    writer passes ``store.append_encoded`` and queues traces its workers already encoded."""

    def __init__(self, store: TraceStore, write: Callable[[list[Item]], None] | None = None):
        self.store = store
        self._write: Callable[[list[Item]], None] | None = write
        self._pending: list[Item] = []
        self._task: asyncio.Task[None] | None = None

    def put(self, trace: Item) -> None:
        """Queue ``trace``; a write starts now unless one is under way (it takes this one next)."""
        self._pending.append(trace)
        if self._task is None or self._task.done():
            if self._task is not None and not self._task.cancelled() and self._task.exception() is not None:
                return  # the error is raised by drain(); do not start writes after a failed one
            self._task = asyncio.ensure_future(self._write_all())

    async def _write_all(self) -> None:
        while self._pending:
            group, self._pending = self._pending, []
            await asyncio.to_thread(self._write or self.store.append_many, group)  # type: ignore[arg-type]

    async def drain(self) -> None:
        """Wait until every queued trace is on disk; a failed write (disk full) raises here."""
        while self._task is not None:
            task = self._task
            await asyncio.shield(task)  # a cancelled caller must not cancel a write half done
            if (
                task is self._task
            ):  # _write_all ends only with nothing pending; a later put() starts a new task
                return
