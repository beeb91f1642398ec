"""The running episode's limits, visible to the agent graph without passing them through state.

The runner sets ``EPISODE_LIMITS`` (a context variable: every task the episode spawns sees it)
to the episode's deadline on the event loop's clock and its spend meter (an object with
``tokens``, ``token_limit``, ``cost``, ``cost_limit``; the runner's watchdog). Agents that must
keep time or budget in reserve (the ``X-cb`` ensembles hold some back for their fallback) read it;
outside a run it is None and nothing is reserved.
"""

from __future__ import annotations

import asyncio
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class EpisodeLimits:
    #: ``asyncio`` loop time at which the runner cancels the episode (None: no timeout)
    deadline: float | None = None
    #: the spend meter: ``tokens``/``token_limit``/``cost``/``cost_limit`` attributes (None: unmetered)
    spend: Any = None

    def remaining_s(self) -> float | None:
        return None if self.deadline is None else self.deadline - asyncio.get_running_loop().time()


EPISODE_LIMITS: ContextVar[EpisodeLimits | None] = ContextVar("restgraph_episode_limits", default=None)
