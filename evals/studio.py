"""Graph factories for LangGraph Studio (``langgraph.json`` at the repo root).

Studio imports this module and calls a factory; ours build an agent from the registry against an
in-process sandbox and a default model, with no harness around it. They live on the evaluation
side because they read the benchmark's OpenAPI spec (``restgraph.evals.datasets``); ``graphs`` never
imports ``evals``.

- ``RESTGRAPH_STUDIO_SCENARIO``: ``tmdb`` (default) or ``spotify``;
- ``RESTGRAPH_STUDIO_MODEL``: any model spec (default ``local``, the embedded llama.cpp model).

The factories are coroutines: building the model (for ``local``: fetching the GGUF and starting
the llama.cpp server, which takes seconds) and reading the spec run on a worker thread, so the
Studio server's event loop keeps answering meanwhile. Each graph declares an input schema of just
``{"instruction": str}`` so Studio shows a one-field form rather than the agent's whole state.
Nothing heavy happens at import time.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from typing_extensions import TypedDict

from restgraph.graphs.registry import get_agent

STUDIO_AGENTS = (
    "restgpt",
    "restgpt-no-planner",
    "restgpt-no-parser",
    "react",
    "reflexion",
    "deps",
    "offline",
)


class StudioInput(TypedDict):
    """What Studio's form asks for."""

    instruction: str


def sandbox_environment(scenario: str) -> Any:
    """An ``OpenAPIEnvironment`` over the scenario's in-process sandbox (one shared state for Studio)."""
    from restgraph.evals.datasets.restbench import load_spec
    from restgraph.tools.openapi import HttpTool, OpenAPIEnvironment, operations
    from restgraph.tools.sandbox import get_sandbox_app

    if scenario not in ("tmdb", "spotify"):
        raise ValueError(f"scenario must be tmdb or spotify, not {scenario!r}")
    spec = load_spec(scenario)
    base = "http://tmdb.sandbox/3" if scenario == "tmdb" else "http://spotify.sandbox/v1"
    http = HttpTool(
        base,
        transport=httpx.ASGITransport(app=get_sandbox_app(scenario)),
        token="restgraph-studio",
        endpoint_keys=[op.key for op in operations(spec)],
    )
    return OpenAPIEnvironment(scenario, spec, http, base)


def with_input_form(agent: str, graph: CompiledStateGraph) -> CompiledStateGraph:
    """``graph`` as the one node of a graph whose input schema is ``StudioInput`` (Studio's form);
    the agent stays a subgraph, so Studio still shows its nodes and steps."""
    outer = StateGraph(graph.builder.state_schema, input_schema=StudioInput)
    outer.add_node("agent", graph)
    outer.add_edge(START, "agent")
    outer.add_edge("agent", END)
    return outer.compile(name=agent)


async def studio_graph(
    agent: str,
    config: Any = None,
    *,
    model: str | None = None,
    scenario: str | None = None,
    options: dict[str, Any] | None = None,
) -> CompiledStateGraph:
    from restgraph.agents.models import make_chat_model

    spec = get_agent(agent)
    scenario = scenario or os.environ.get("RESTGRAPH_STUDIO_SCENARIO", "tmdb")
    model_spec = model or os.environ.get("RESTGRAPH_STUDIO_MODEL", "local")
    chat, env = await asyncio.gather(
        asyncio.to_thread(make_chat_model, model_spec), asyncio.to_thread(sandbox_environment, scenario)
    )
    return with_input_form(agent, spec.build(chat, env, options or {}))


def _factory(agent: str) -> Callable[[Any], Awaitable[CompiledStateGraph]]:
    async def factory(config: Any = None) -> CompiledStateGraph:
        return await studio_graph(agent, config)

    factory.__name__ = factory.__qualname__ = agent.replace("-", "_")
    return factory


restgpt = _factory("restgpt")
restgpt_no_planner = _factory("restgpt-no-planner")
restgpt_no_parser = _factory("restgpt-no-parser")
react = _factory("react")
reflexion = _factory("reflexion")
deps = _factory("deps")
offline = _factory("offline")
