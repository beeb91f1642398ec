"""Run-to-I/O scheduling of a run's episodes: a few at a time run their CPU work, in arrival order.

Why: asyncio runs ready tasks round-robin, and an episode's CPU work (building the model,
LangGraph's steps, callbacks, recording) is cut into dozens of small steps by its awaits. With C
episodes in flight every one of them advances one step per round, so they all finish their
pre-call work together, call the model together and come back together: the run moves in waves of
C, each costing the model latency *plus* C episodes' CPU (1,000 one-call episodes of a 0.2 s model
at concurrency 128: 2.5-3.5 s against 1.56 s ideal). Served in arrival order, an episode's CPU
stretch ends at its next real wait, the next episodes' stretches run meanwhile, and model calls
overlap CPU work instead of queueing behind it.

The runner gives each episode a ``Hold`` on the run's ``Baton`` (a context variable, so every task
of the episode sees it) and takes a turn before the episode starts; code that waits on the outside
world (a model call, an HTTP request to a real server) wraps the wait in ``io_wait()``, which hands
the turn to the next episode in line and queues for one again when the wait is over. ``slots``
turns run at once (a few: with one, the event loop runs a round per await of a single task, and
that overhead costs more CPU than the waves did). Outside a run (no hold) ``io_wait`` does nothing,
and the baton only starts limiting turns once a wait has really suspended: a run whose waits never
do (a zero-latency scripted model) has no waves, and queueing would only cost.

Nothing can deadlock on it: a turn held past ``lease_s`` while others wait (its holder waits on
something not marked as I/O: another episode's resource, a thread) goes to the next in line, and
the holder goes on without it. A missing ``io_wait`` costs overlap, never progress.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from contextvars import ContextVar


class Hold:
    """One episode's claim on a baton (shared by every task the episode spawns). ``queued_s``
    adds up the time it waited in line for a turn after its waits ended: harness time, which the
    recorder takes out of a model call's latency."""

    __slots__ = ("baton", "queued_s")

    def __init__(self, baton: Baton):
        self.baton = baton
        self.queued_s = 0.0


class Baton:
    """``slots`` turns at once, first come first served, each with a lease: see the module docstring."""

    def __init__(self, slots: int = 4, lease_s: float = 0.02):
        self.loop = asyncio.get_running_loop()  # its only loop: waits on any other pass it by
        self.slots = slots
        self.lease_s = lease_s
        #: holders -> when they took their turn (insertion order: the oldest first)
        self._owners: dict[Hold, float] = {}
        self._waiters: deque[tuple[Hold, asyncio.Future[None]]] = deque()
        self._timer: asyncio.TimerHandle | None = None
        #: turns are limited only once some episode really waited (``hand_over``): a run whose waits
        #: never suspend (a zero-latency model) has no waves to break, and queueing would only cost
        self.engaged = False

    def holds(self, hold: Hold) -> bool:
        return hold in self._owners

    async def acquire(self, hold: Hold) -> None:
        if hold in self._owners or not self.engaged or (len(self._owners) < self.slots and not self._waiters):
            self._take(hold)
            return
        waiter = self.loop.create_future()
        self._waiters.append((hold, waiter))
        self._arm()
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():  # handed over as it was cancelled
                self.release(hold)
            else:
                self._waiters.remove((hold, waiter))
            raise

    def release(self, hold: Hold) -> None:
        """Give up ``hold``'s turn, if it has one (a lease that ran out took it already)."""
        if self._owners.pop(hold, None) is not None:
            self._next()

    def hand_over(self, hold: Hold) -> None:
        """``hold`` is waiting on the outside world: the next in line may run."""
        self.engaged = True
        self.release(hold)

    def _take(self, hold: Hold) -> None:
        self._owners.pop(hold, None)
        self._owners[hold] = self.loop.time()

    def _next(self) -> None:
        while self._waiters and len(self._owners) < self.slots:
            hold, waiter = self._waiters.popleft()
            if not waiter.done():
                self._take(hold)
                waiter.set_result(None)

    def _arm(self) -> None:
        """One timer, for the oldest turn's lease, while anybody waits."""
        if self._timer is None and self._waiters and self._owners:
            self._timer = self.loop.call_at(next(iter(self._owners.values())) + self.lease_s, self._expire)

    def _expire(self) -> None:
        """Turns held past their lease while others wait go to the next in line."""
        self._timer = None
        now = self.loop.time()
        while self._waiters and self._owners:
            oldest, since = next(iter(self._owners.items()))
            if now - since < self.lease_s:
                break
            del self._owners[oldest]
            self._next()
        self._arm()


_HOLD: ContextVar[Hold | None] = ContextVar("restgraph_baton_hold", default=None)


def set_hold(hold: Hold | None) -> object:
    """Make ``hold`` the running episode's (the runner); returns the token for ``reset_hold``."""
    return _HOLD.set(hold)


def reset_hold(token: object) -> None:
    _HOLD.reset(token)  # type: ignore[arg-type]


def queued_seconds() -> float:
    """How long the running episode has waited in line for turns so far (0 outside a run)."""
    hold = _HOLD.get()
    return hold.queued_s if hold is not None else 0.0


@asynccontextmanager
async def io_wait() -> AsyncIterator[None]:
    """Around a wait on the outside world: the episode's turn goes to the next in line meanwhile,
    and is queued for again after (not after a cancellation: the episode is ending).

    The turn is given up only once the wait has really started (at the event loop's next round):
    a wait that ends without suspending (a zero-latency model, a cached reply) keeps it, and pays
    nothing for the hand-over."""
    hold = _HOLD.get()
    loop = asyncio.get_running_loop()
    if hold is None or hold.baton.loop is not loop:  # not in a run (or in a loop of a worker thread)
        yield
        return
    baton = hold.baton
    handover = loop.call_soon(baton.hand_over, hold)
    try:
        yield
    except asyncio.CancelledError:
        handover.cancel()
        raise
    except BaseException:
        await _resume(baton, hold, handover)
        raise
    await _resume(baton, hold, handover)


async def _resume(baton: Baton, hold: Hold, handover: asyncio.Handle) -> None:
    handover.cancel()
    if not baton.holds(hold):
        queued = baton.loop.time()
        try:
            await baton.acquire(hold)
        finally:
            hold.queued_s += baton.loop.time() - queued
