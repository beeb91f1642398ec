"""The search interface every backend implements, and its result record."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict


class SearchResult(BaseModel):
    """One hit, as a results page shows it (persisted in traces, hence strict)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    title: str
    url: str
    snippet: str = ""


@runtime_checkable
class SearchBackend(Protocol):
    """``search(query, k)``: at most ``k`` results, best first; an empty list when nothing matches.

    Backends are synchronous (the local index answers in microseconds; async callers use
    ``asyncio.to_thread``) and raise ``SearchError`` when the search itself failed, so a caller
    can tell "no results" from "the engine is down"."""

    name: str

    def search(self, query: str, k: int = 10) -> list[SearchResult]: ...


class SearchError(RuntimeError):
    """The backend could not answer (network, HTTP status, malformed reply); the message is secret-free."""
