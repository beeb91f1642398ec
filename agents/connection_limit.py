"""``--max-connections N``: at most N model requests in flight per endpoint, across all episodes.

Why a separate limit: ``--concurrency`` counts episodes, not requests. An agent that samples in
parallel, or 32 episodes against one rate-limited endpoint or a 2-slot llama.cpp server, sends
more requests at once than the endpoint serves; the surplus times out, is retried, or queues
where nobody can see it. This limiter queues them here, per endpoint, in order.

How: one ``asyncio.Semaphore`` per endpoint key (the base URL of an OpenAI-compatible client,
``scripted:<name>`` for scripted models, else the provider type and model name), held for one
request *attempt* (``restgraph.agents.retry`` wraps each attempt, so a retry's back-off sleep never holds a
slot). The limits belong to a run: ``limiting(n)`` makes them current in a ``ContextVar``, which
every episode task (and every LangGraph node) of that run inherits, so two runs in one process
never share slots and code outside a run pays one ``ContextVar.get``.

Anything with an async ``slot(key)`` context manager (:class:`SlotProvider`) can stand in for
``EndpointLimits``: a Ray sweep's workers hold slots of one limiter shared by all of them
(``restgraph.evals.sweep.shared_slots``), which this module never imports.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class SlotProvider(Protocol):
    """What ``request_slot`` needs: ``async with provider.slot(key):`` around one request attempt."""

    def slot(self, key: str) -> AbstractAsyncContextManager[None]: ...


class EndpointLimits:
    """The slots of one run: ``limit`` requests in flight per endpoint key."""

    def __init__(self, limit: int):
        if limit < 1:
            raise ValueError(f"max_connections must be at least 1, got {limit}")
        self.limit = limit
        self._slots: dict[str, asyncio.Semaphore] = {}
        #: requests in flight and waiting, per key (for the live display and for tests)
        self.in_flight: dict[str, int] = {}
        self.waiting: dict[str, int] = {}
        self.peak: dict[str, int] = {}

    @asynccontextmanager
    async def slot(self, key: str) -> AsyncIterator[None]:
        semaphore = self._slots.get(key)
        if semaphore is None:
            semaphore = self._slots[key] = asyncio.Semaphore(self.limit)
        self.waiting[key] = self.waiting.get(key, 0) + 1
        try:
            await semaphore.acquire()
        finally:
            self.waiting[key] -= 1
        self.in_flight[key] = current = self.in_flight.get(key, 0) + 1
        self.peak[key] = max(self.peak.get(key, 0), current)
        try:
            yield
        finally:
            self.in_flight[key] -= 1
            semaphore.release()


_current: contextvars.ContextVar[SlotProvider | None] = contextvars.ContextVar(
    "restgraph_endpoint_limits", default=None
)


class limiting:  # noqa: N801  (used like a function: ``with limiting(4):`` / ``async with``)
    """Make ``limit`` requests per endpoint the rule for the code (and tasks) started inside;
    ``None`` or 0: no limit; a ``SlotProvider``: its slots (shared with whoever else holds it).
    Usable with ``with`` and ``async with`` (same task, same context)."""

    def __init__(self, limit: int | SlotProvider | None):
        self.limits: SlotProvider | None = (
            EndpointLimits(limit) if isinstance(limit, int) and limit else limit or None
        )
        self._token: contextvars.Token[SlotProvider | None] | None = None

    def __enter__(self) -> SlotProvider | None:
        self._token = _current.set(self.limits)
        return self.limits

    def __exit__(self, *exc: object) -> None:
        if self._token is not None:
            _current.reset(self._token)

    async def __aenter__(self) -> SlotProvider | None:
        return self.__enter__()

    async def __aexit__(self, *exc: object) -> None:
        self.__exit__()


def run_limit(spec: str, model_options: dict[str, Any] | None, max_connections: int | None) -> int | None:
    """The run's limit: ``--max-connections``, else the embedded server's request slots.

    The embedded llama.cpp server runs ``parallel`` requests (2 by default) and queues the rest
    inside the server, where each queued request's HTTP timeout already runs: on a loaded machine
    the third episode's call timed out in the queue and was retried (5 times 300 s, the work of the
    abandoned tries repeated). Waiting here for a free slot costs no timeout.
    """
    if max_connections:
        return max_connections
    if spec.strip().partition(":")[0] == "local":
        from restgraph.agents.local_settings import ServerSettings

        return int((model_options or {}).get("parallel") or ServerSettings().parallel)
    return None


def current_limits() -> SlotProvider | None:
    return _current.get()


def endpoint_key(model: Any) -> str:
    """Which endpoint ``model`` talks to: requests with the same key share the slots."""
    base = getattr(model, "openai_api_base", None)
    if base is not None or hasattr(model, "openai_api_key"):  # ChatOpenAI and its subclasses
        return str(base or "https://api.openai.com/v1").rstrip("/")
    for field in ("base_url", "api_url", "endpoint"):  # other providers' clients, where they say
        value = getattr(model, field, None)
        if isinstance(value, str) and value:
            return value.rstrip("/")
    llm_type = getattr(model, "_llm_type", type(model).__name__)
    name = getattr(model, "model_name", None) or getattr(model, "model", None)
    if isinstance(name, str) and not llm_type.endswith(name):
        return f"{llm_type}:{name}"
    return str(llm_type)


@asynccontextmanager
async def request_slot(model: Any) -> AsyncIterator[None]:
    """Hold one of the current run's slots for ``model``'s endpoint (nothing outside a run)."""
    limits = _current.get()
    if limits is None or model is None:
        yield
        return
    async with limits.slot(endpoint_key(model)):
        yield
