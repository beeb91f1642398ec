"""Module-level graph factories for LangGraph Studio (``langgraph.json`` at the repo root).

Studio imports a module and calls a factory; ours build an agent from the registry against an
in-process sandbox and a default model, with no harness around it:

- ``RESTGRAPH_STUDIO_SCENARIO``: ``tmdb`` (default) or ``spotify``;
- ``RESTGRAPH_STUDIO_MODEL``: any model spec (default ``local``, the embedded llama.cpp model).

Inputs are ``{"instruction": "..."}``. Nothing heavy happens at import time.
"""

from __future__ import annotations

import os
from typing import Any

import httpx

from graphs.registry import get_agent

STUDIO_AGENTS = ("restgpt", "restgpt-no-planner", "restgpt-no-parser", "react", "reflexion", "deps", "offline")


def sandbox_environment(scenario: str) -> Any:
    """An ``OpenAPIEnvironment`` over the scenario's in-process sandbox (one shared state for Studio)."""
    from evals.datasets.restbench import load_spec
    from tools.openapi import HttpTool, OpenAPIEnvironment, operations
    from tools.sandbox import get_sandbox_app

    if scenario not in ("tmdb", "spotify"):
        raise ValueError(f"scenario must be tmdb or spotify, not {scenario!r}")
    spec = load_spec(scenario)
    base = "http://tmdb.sandbox/3" if scenario == "tmdb" else "http://spotify.sandbox/v1"
    http = HttpTool(base, transport=httpx.ASGITransport(app=get_sandbox_app(scenario)), token="restgraph-studio",
                    endpoint_keys=[op.key for op in operations(spec)])
    return OpenAPIEnvironment(scenario, spec, http, base)


def studio_graph(agent: str, config: Any = None, *, model: str | None = None, scenario: str | None = None, options: dict[str, Any] | None = None) -> Any:
    from agents.models import make_chat_model

    spec = get_agent(agent)
    scenario = scenario or os.environ.get("RESTGRAPH_STUDIO_SCENARIO", "tmdb")
    chat = make_chat_model(model or os.environ.get("RESTGRAPH_STUDIO_MODEL", "local"))
    return spec.build(chat, sandbox_environment(scenario), options or {})


def restgpt(config: Any = None) -> Any:
    return studio_graph("restgpt", config)


def restgpt_no_planner(config: Any = None) -> Any:
    return studio_graph("restgpt-no-planner", config)


def restgpt_no_parser(config: Any = None) -> Any:
    return studio_graph("restgpt-no-parser", config)


def react(config: Any = None) -> Any:
    return studio_graph("react", config)


def reflexion(config: Any = None) -> Any:
    return studio_graph("reflexion", config)


def deps(config: Any = None) -> Any:
    return studio_graph("deps", config)


def offline(config: Any = None) -> Any:
    return studio_graph("offline", config)
