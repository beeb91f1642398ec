"""Notebook-style extension without editing the package: prompt overrides, role overrides, the
registry, and the LangGraph Studio factories listed in langgraph.json."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from restgraph.agents.restgpt.llm import RoleReply
from restgraph.agents.restgpt.protocol import SelectorDecision
from restgraph.graphs.registry import agent_names, get_agent
from restgraph.graphs.restgpt import build_restgpt
from tests.restgpt.conftest import model_calls, role_model, run_graph

ROOT = Path(__file__).resolve().parents[2]


async def test_prompt_and_role_overrides(fake_env, tmp_path: Path) -> None:
    planner_prompt = tmp_path / "planner.txt"
    planner_prompt.write_text("MY PLANNER for $scenario_name. Examples: $examples")
    seen: list[str] = []

    async def my_selector(kit, *, subtask: str, **kwargs) -> RoleReply:
        seen.append(subtask)
        return RoleReply(SelectorDecision(kind="no_api_call", plan="apple (from my selector)"), "")

    model = role_model({"planner": ["Plan step 1: name of item 1", "Final Answer: apple"]})
    graph = build_restgpt(
        model,
        fake_env,
        {"prompts": {"planner": str(planner_prompt), "caller": "CALLER $base_url"}},
        roles={"selector": my_selector},
    )
    state, rec = await run_graph(graph)
    assert state["final_answer"] == "apple" and seen == ["name of item 1"]
    planner_calls = [c for c in model_calls(rec) if c.role == "planner"]
    assert planner_calls[0].messages[0]["content"].startswith("MY PLANNER for fake. Examples: (none)")
    assert "apple (from my selector)" in planner_calls[1].messages[-1]["content"]
    assert not [c for c in model_calls(rec) if c.role == "selector"]


def test_registry_entries() -> None:
    names = set(agent_names("openapi"))
    assert {
        "restgpt",
        "restgpt-no-planner",
        "restgpt-no-parser",
        "react",
        "reflexion",
        "deps",
        "offline",
    } <= names
    assert get_agent("reflexion").env_kind == "openapi"


def test_langgraph_json_factories_build(monkeypatch, data_dir) -> None:
    import importlib

    config = json.loads((ROOT / "langgraph.json").read_text())
    monkeypatch.setenv("RESTGRAPH_STUDIO_MODEL", "scripted:constant")
    for scenario in ("tmdb", "spotify"):
        monkeypatch.setenv("RESTGRAPH_STUDIO_SCENARIO", scenario)
        for name, target in config["graphs"].items():
            path, attr = target.split(":")
            module = importlib.import_module(path.removeprefix("./").removesuffix(".py").replace("/", "."))
            graph = asyncio.run(getattr(module, attr)())  # Studio awaits its factories
            assert "agent:caller" in graph.get_graph(xray=True).nodes, name
