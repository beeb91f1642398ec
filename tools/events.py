"""Neutral, typed events: how tools and agents report what they did without knowing who listens.

Why: the layers depend one way (``evals -> graphs -> agents -> tools``). A tool that recorded into
the harness would import it; instead it *emits* an event and the harness (``restgraph.evals.recording``)
alone subscribes and turns events into trace records. Outside an episode nobody listens and
``emit`` is a cheap no-op, so a notebook can poke a sandbox without a harness. This module
imports nothing but the standard library.

The whole API:

- the events (frozen dataclasses): ``ModelParsed`` (what a role made of one model reply, keyed
  by that reply's message id), ``HttpExchange`` (one HTTP request and its response),
  ``ProgramRun`` (one sandboxed program run), ``BrowserStep`` (one browser action),
  ``EpisodeNote`` (a fact about the episode, kept in the trace's ``extra``);
- ``emit(event)``: hand ``event`` to every listener of the current context;
- ``parse_outcome(reply, parsed=..., parse_error=..., role=...)``: shorthand for a role that has
  just read the model message ``reply``;
- ``listening(handler)``: a context manager that makes ``handler`` a listener for the code it
  wraps; ``add_listener(handler)`` / ``remove_listener(token)`` are the same in two halves.

Listeners live in a ``contextvars.ContextVar``: LangGraph nodes and asyncio tasks copy the
context, so an event reaches the episode it happened in even with many episodes in flight.
A parse outcome names the exact model call it belongs to (``message_id``, the id LangChain gives
every reply: ``lc_run-<run id>`` or the provider's id), never "the last call", so concurrent
samples of one episode are attributed correctly.

Example (a role)::

    reply = await model.ainvoke(messages)
    parse_outcome(reply, parsed={"code": body}, role="code_writer")

Example (a listener)::

    with listening(seen.append):
        await run_python("print(1)")
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, kw_only=True)
class Event:
    """Base of every event (so a listener can type its argument)."""


@dataclass(frozen=True, kw_only=True)
class ModelParsed(Event):
    """What a role made of one model reply: the parsed value, or why it could not parse it.

    ``message_id`` is the reply's ``AIMessage.id``; the harness attaches the outcome to the model
    call that produced that message (and to nothing else when the id is unknown)."""

    message_id: str | None
    parsed: Any = None
    parse_error: str | None = None
    role: str | None = None


@dataclass(frozen=True, kw_only=True)
class EpisodeNote(Event):
    """A fact an agent states about the running episode (RestGPT's role set: which pack each role
    came from, hashes of what was overridden); the harness keeps it as ``trace.extra[key]``."""

    key: str
    value: Any


@dataclass(frozen=True, kw_only=True)
class ToolEvent(Event):
    """What every action on an environment reports besides its own fields: the error if it
    failed, how long it took, and kind-specific details (kept verbatim in the trace's ``extra``)."""

    error: str | None = None
    latency_s: float = 0.0
    details: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class HttpExchange(ToolEvent):
    """One HTTP request and its outcome (``status`` 0 = no response; ``error`` says why)."""

    name: str
    method: str
    url: str
    path: str
    params: dict[str, Any] | None = None
    body: Any = None
    status: int = 0
    response: str | None = None


@dataclass(frozen=True, kw_only=True)
class ProgramRun(ToolEvent):
    """One sandboxed program run: the code and what it printed."""

    name: str
    code: str | None
    output: str | None = None


@dataclass(frozen=True, kw_only=True)
class BrowserStep(ToolEvent):
    """One browser action (``action`` = goto/click/type/..., or ``refused`` for a blocked request)."""

    action: str
    url: str | None = None
    params: dict[str, Any] | None = None
    observation: str | None = None


Listener = Callable[[Event], None]

_listeners: contextvars.ContextVar[tuple[Listener, ...]] = contextvars.ContextVar(
    "restgraph_event_listeners", default=()
)


def emit(event: Event) -> None:
    """Give ``event`` to every listener of the current context (none outside an episode)."""
    for listener in _listeners.get():
        listener(event)


def add_listener(listener: Listener) -> contextvars.Token[tuple[Listener, ...]]:
    """Make ``listener`` hear events emitted in this context from now on; undo with ``remove_listener``."""
    return _listeners.set((*_listeners.get(), listener))


def remove_listener(token: contextvars.Token[tuple[Listener, ...]]) -> None:
    _listeners.reset(token)


@contextmanager
def listening(listener: Listener) -> Iterator[None]:
    """``listener`` hears every event emitted inside the ``with`` block (and tasks started in it)."""
    token = add_listener(listener)
    try:
        yield
    finally:
        remove_listener(token)


def message_id_of(reply: Any) -> str | None:
    """The id of a model reply (an ``AIMessage`` or anything with ``.id``), or None."""
    value = getattr(reply, "id", None)
    return str(value) if value else None


def parse_outcome(
    reply: Any, *, parsed: Any = None, parse_error: str | None = None, role: str | None = None
) -> None:
    """Report what a role made of the model message ``reply`` (emits ``ModelParsed``)."""
    emit(ModelParsed(message_id=message_id_of(reply), parsed=parsed, parse_error=parse_error, role=role))
