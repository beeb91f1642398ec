"""Graphs compiled once per run: the episode's model and environment arrive at run time.

Compiling a ``StateGraph`` costs milliseconds (schema analysis, channel and branch set-up): more
than the rest of the harness spends on a short episode. An agent registered with
``per_run=True`` is therefore compiled once per run (``AgentSpec.build(None, None, options)``),
and each episode hands its own model and environment to the graph through LangGraph's runtime
context (``context_schema=EpisodeContext``; the runner passes ``context=`` to ``astream``). Nodes
read them from the ``runtime`` LangGraph hands a node that names it (or with :func:`episode`), and
build per-episode objects once per episode with :meth:`EpisodeContext.part` (a model with tools
bound, a RestGPT episode with its roles).

The same builders still work the old way (``build(model, env, options)`` then ``ainvoke`` with no
context, as tests and notebooks do): :func:`episode` falls back to what the builder was given.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from langgraph.runtime import get_runtime

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

T = TypeVar("T")


@dataclass
class EpisodeContext:
    """What one episode binds into a graph compiled for the whole run."""

    model: BaseChatModel | None
    env: Any = None
    #: per-episode objects made from ``model``/``env`` on first use (see :meth:`part`)
    parts: dict[str, Any] = field(default_factory=dict)

    def part(self, key: str, make: Callable[[EpisodeContext], T]) -> T:
        """``make(self)`` the first time ``key`` is asked for in this episode, the same object after."""
        if key not in self.parts:
            self.parts[key] = make(self)
        return self.parts[key]

    def need_model(self, agent: str) -> BaseChatModel:
        if self.model is None:
            raise ValueError(f"the {agent} agent needs a model")
        return self.model


def episode(fallback: EpisodeContext) -> EpisodeContext:
    """The running episode's context, or ``fallback`` (the builder's own model and environment)
    when the graph was invoked without one."""
    context = get_runtime(EpisodeContext).context
    return context if isinstance(context, EpisodeContext) else fallback


class BoundGraph:
    """A run's compiled graph with one episode's context bound: ``astream``/``ainvoke`` pass it as
    ``context=``, everything else is the compiled graph's."""

    def __init__(self, graph: Any, context: EpisodeContext):
        self.graph = graph
        self.context = context

    def astream(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        return self.graph.astream(*args, context=self.context, **kwargs)

    async def ainvoke(self, *args: Any, **kwargs: Any) -> Any:
        return await self.graph.ainvoke(*args, context=self.context, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.graph, name)
