"""Per-episode budget accounting that works for any graph node, including user-supplied roles.

The counters live in the graph state (so they are in the trace and survive checkpoints, and one
compiled graph can serve many runs in LangGraph Studio). A node opens a ``Meter`` over the state's
counters for the duration of its body (``metered``); every role's model call spends one
``llm_calls``, and loops spend their own counter. Spending past a cap raises ``BudgetExceeded``.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator, Mapping
from typing import Any

from restgraph.agents.restgpt.config import Budget, BudgetExceeded

_METER: contextvars.ContextVar[Meter | None] = contextvars.ContextVar("restgpt_meter", default=None)


class Meter:
    def __init__(self, budget: Budget, counters: dict[str, int] | None = None):
        self.budget = budget
        self.counters: dict[str, int] = dict(counters or {})

    def used(self, name: str) -> int:
        return self.counters.get(name, 0)

    def spend(self, name: str, limit: int | None = None, detail: str = "") -> int:
        """Count one unit of ``name`` against ``limit`` (default: the budget field of that name)."""
        cap = limit if limit is not None else getattr(self.budget, name)
        if self.used(name) >= cap:
            raise BudgetExceeded(name, cap, detail)
        self.counters[name] = self.used(name) + 1
        return self.counters[name]

    def reset(self, name: str) -> None:
        self.counters[name] = 0


def current_meter() -> Meter | None:
    return _METER.get()


def spend_llm_call(role: str) -> None:
    meter = _METER.get()
    if meter is not None:
        meter.spend("llm_calls", detail=f"before a {role} call")


@contextlib.contextmanager
def metered(budget: Budget, state: Mapping[str, Any]) -> Iterator[Meter]:
    meter = Meter(budget, state.get("counters"))
    token = _METER.set(meter)
    try:
        yield meter
    finally:
        _METER.reset(token)
