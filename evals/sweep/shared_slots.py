"""One ``max_connections`` for a whole Ray sweep: slots held by a limiter actor, leased by workers.

Why an actor: the workers are separate processes (on other machines too), so per-process
``asyncio`` semaphores would allow ``workers x N`` requests per endpoint. One async actor, owned
by the driver, holds every endpoint's slots (:class:`ConnectionSlots`); each worker makes a
:class:`SharedSlots` current (``restgraph.agents.connection_limit.limiting``), so every model request
attempt (``restgraph.agents.retry``) leases a slot from the actor first and gives it back after.

Leases, and why none leaks:

- The worker names each lease (a uuid) *before* asking for it, so giving it back never depends
  on the answer: the ``finally`` of ``slot()`` sends ``release(lease)`` whether the request
  succeeded, failed, or the episode was cancelled (timeout, Ctrl-C) while the request or the
  wait for a slot was under way. The call is sent before anything is awaited, so a second
  cancellation cannot skip it. A release that reaches the actor while the lease is still queued
  withdraws it; one that arrives before the request itself leaves a tombstone, and the late
  request is refused.
- Every lease carries its worker's name (``holder``). A worker that dies holding slots never
  releases them; the driver, which replaces a dead worker on the first failure it sees from it,
  first calls ``release_holder(name)``: the dead worker's slots go back and its queued requests
  are dropped (later ones from that name are refused). There is deliberately no lease timeout: a
  request may rightly take minutes (a local model on CPU), and a timeout short enough to matter
  would hand a live request's slot to a second request. (The endpoint may still be finishing a
  dead worker's last request for a moment after its slot is handed on.)
- The actor is the driver's, not detached: a killed driver takes it along, and a resumed sweep
  starts a fresh one with no stale leases.

Endpoint keys are ``restgraph.agents.connection_limit.endpoint_key``'s, except that a loopback URL
(``http://127.0.0.1:8080/v1``) names a server *on the worker's machine*: the worker prefixes it
with its node's address, so only workers on one machine share those slots.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections import deque
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit

from restgraph.agents.connection_limit import EndpointLimits, SlotProvider

LOOPBACK_HOSTS = ("localhost", "::1")


class ConnectionSlots:
    """The limiter (a Ray async actor once wrapped with ``ray.remote``): ``limit`` leases per key,
    granted in the order asked. Plain asyncio, so tests can drive it without Ray."""

    def __init__(self, limit: int):
        if limit < 1:
            raise ValueError(f"max_connections must be at least 1, got {limit}")
        self.limit = limit
        self._granted: dict[str, tuple[str, str]] = {}  # lease -> (key, holder)
        self._queues: dict[str, deque[tuple[str, str, asyncio.Future[bool]]]] = {}  # key -> waiting leases
        self._waiting: dict[str, asyncio.Future[bool]] = {}  # lease -> its grant, while queued
        self._tombstones: set[str] = set()  # leases released before they were asked for
        self._gone: set[str] = set()  # holders released by the driver (dead workers)
        self.in_flight: dict[str, int] = {}
        self.peak: dict[str, int] = {}
        self.granted = 0
        self.reclaimed = 0  # leases taken back from dead holders

    async def acquire(self, key: str, lease: str, holder: str) -> bool:
        """Wait for a slot of ``key``; False: the lease was withdrawn (or its holder is gone)."""
        if lease in self._tombstones:
            self._tombstones.discard(lease)
            return False
        if holder in self._gone:
            return False
        queue = self._queues.setdefault(key, deque())
        if not queue and self.in_flight.get(key, 0) < self.limit:
            self._grant(key, lease, holder)
            return True
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        queue.append((lease, holder, future))
        self._waiting[lease] = future
        try:
            return await future
        finally:
            self._waiting.pop(lease, None)

    async def release(self, lease: str) -> None:
        """Give back a granted lease, withdraw a queued one, or refuse it in advance."""
        if lease in self._granted:
            key, _ = self._granted.pop(lease)
            self.in_flight[key] -= 1
            self._hand_on(key)
        elif lease in self._waiting:
            future = self._waiting.pop(lease)
            if not future.done():
                future.set_result(False)
        else:
            self._tombstones.add(lease)

    async def release_holder(self, holder: str) -> int:
        """A worker died: take back its slots, drop its queued requests; return how many slots."""
        self._gone.add(holder)
        for queue in self._queues.values():  # first, so the freed slots go to live workers
            for _, owner, future in queue:
                if owner == holder and not future.done():
                    future.set_result(False)
        leases = [lease for lease, (_, owner) in self._granted.items() if owner == holder]
        for lease in leases:
            await self.release(lease)
        self.reclaimed += len(leases)
        return len(leases)

    async def stats(self) -> dict[str, Any]:
        waiting = {k: sum(1 for *_, f in q if not f.done()) for k, q in self._queues.items()}
        return {
            "limit": self.limit,
            "in_flight": dict(self.in_flight),
            "peak": dict(self.peak),
            "waiting": waiting,
            "granted": self.granted,
            "reclaimed": self.reclaimed,
        }

    def _grant(self, key: str, lease: str, holder: str) -> None:
        self._granted[lease] = (key, holder)
        self.in_flight[key] = current = self.in_flight.get(key, 0) + 1
        self.peak[key] = max(self.peak.get(key, 0), current)
        self.granted += 1

    def _hand_on(self, key: str) -> None:
        queue = self._queues.get(key)
        while queue and self.in_flight.get(key, 0) < self.limit:
            lease, holder, future = queue.popleft()
            if not future.done():  # withdrawn, dropped, or its acquire call was cancelled
                self._grant(key, lease, holder)
                future.set_result(True)


class SharedSlots:
    """A worker's ``SlotProvider``: each ``slot(key)`` is a lease from the sweep's limiter actor."""

    def __init__(self, actor: Any, holder: str, node_address: str = ""):
        self.actor, self.holder, self.node_address = actor, holder, node_address

    def shared_key(self, key: str) -> str:
        """``key``, qualified by this machine's address when it names a loopback server."""
        host = urlsplit(key).hostname or ""
        if host in LOOPBACK_HOSTS or host.startswith("127."):
            return f"{self.node_address}|{key}"
        return key

    @contextlib.asynccontextmanager
    async def slot(self, key: str) -> AsyncIterator[None]:
        lease = uuid.uuid4().hex
        try:
            if not await self.actor.acquire.remote(self.shared_key(key), lease, self.holder):
                raise RuntimeError(
                    f"the sweep's connection limiter refused a slot for {key} (worker {self.holder} was given up)"
                )
            yield
        finally:
            with contextlib.suppress(Exception):  # the limiter is gone: nothing left to give back
                released = self.actor.release.remote(lease)  # sent now, even from a cancelled task
                await released  # so the driver's view of the slots is current when the trace returns


def shared_limit(cells: list[Any]) -> int | None:
    """The sweep's limit: its ``max_connections`` (one value for a study; the smallest if cells differ)."""
    limits = [c.max_connections for c in cells if c.max_connections]
    return min(limits) if limits else None


def start_slots(ray: Any, limit: int) -> Any:
    """The limiter actor for one sweep (no CPU of its own: it only counts)."""
    return (
        ray.remote(ConnectionSlots).options(num_cpus=0, max_concurrency=100_000, max_restarts=0).remote(limit)
    )


def worker_limits(
    runner: Any, shared: SharedSlots | None, local: dict[int, EndpointLimits]
) -> SlotProvider | None:
    """What a worker makes current around one episode of ``runner``'s cell: the sweep's shared
    slots for a cell with ``max_connections``; else the embedded server's slots (each worker runs
    its own server, so ``local`` holds one ``EndpointLimits`` per worker); else nothing."""
    if runner.options.max_connections and shared is not None:
        return shared
    limit = runner.connection_limit
    if not limit:
        return None
    if limit not in local:
        local[limit] = EndpointLimits(limit)
    return local[limit]
