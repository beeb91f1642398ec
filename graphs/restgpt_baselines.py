"""The paper's baselines on RestGPT's executor (restbench.md §5): ``react``, ``reflexion``, ``deps``, ``offline``.

Only planning differs; every API call goes through the shared ``caller`` <-> ``parser`` nodes.

- ``react``: the same graph as ``restgpt-no-planner`` (one system, two names, as in the paper):
  the selector picks one API per turn, the executor runs it, its result is the observation.
- ``reflexion``: that ReAct graph plus a reflector that judges each trial; on failure its lesson
  goes into the next trial's prompt (at most ``budget.reflexion_trials`` = 2 trials). Every trial
  starts from a fresh environment state (Spotify's initial state, so "remove the first song"
  happens once); ``-A reflexion_reset=0`` keeps trial 1's mutations, as a live API would.
- ``deps``: plan (remaining steps) -> select (next concrete step) -> execute -> describe ->
  explain (only after a failed step) -> plan ..., at most ``budget.agent_steps`` rounds.
- ``offline``: the whole plan is written from the query, then executed step by step with no
  re-planning; a final call writes the answer from the results.
"""

from __future__ import annotations

import re
from typing import Any

from langchain_core.language_models import BaseChatModel
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from restgraph.agents.restgpt.config import RestGPTConfig, RestGPTOptions
from restgraph.agents.restgpt.context import Episode
from restgraph.agents.restgpt.meter import Meter
from restgraph.agents.restgpt.protocol import endpoint_in_plan
from restgraph.agents.restgpt.role import match_named
from restgraph.graphs.episode_context import EpisodeContext
from restgraph.graphs.registry import register_agent
from restgraph.graphs.restgpt import NOT_IN_LIST, build_restgpt, step_budget
from restgraph.graphs.restgpt_executor import (
    Episodes,
    RestState,
    Roles,
    add_executor,
    add_routed,
    episodes,
    finish,
    finish_sub_task,
    start_api_plan,
)

_FAILED = re.compile(
    r"\b(status [45]\d\d|error|step limit reached|could not|not found|failed)\b", re.IGNORECASE
)


def _setup(
    model: BaseChatModel | None, env: Any, options: dict[str, Any] | None, roles: Roles, used: list[str]
) -> Episodes:
    """The run's config (from options alone) and what each episode is made of (compiled once per
    run: ``restgraph.graphs.restgpt_executor.Episodes``)."""
    options = dict(options or {})
    roles = roles if roles is not None else options.pop("roles", None)
    options.pop("roles", None)
    return episodes(model, env, RestGPTConfig.from_options(options), roles, [*used, "caller", "parser"])


def _graph(parts: Episodes, entry: str) -> StateGraph[RestState, EpisodeContext, RestState, RestState]:
    graph = StateGraph(RestState, context_schema=EpisodeContext)

    async def start(state: RestState, runtime: Runtime[EpisodeContext]) -> dict[str, Any]:
        return {
            **parts.start_update(runtime),
            "results": [],
            "reflections": [],
            "trial": 0,
            "subtask_start": 0,
            "route": entry,
        }

    graph.add_node("start", start)
    graph.add_node("finish", finish)
    graph.add_edge(START, "start")
    graph.add_edge("start", entry)
    graph.add_edge("finish", END)
    return graph


def _dispatch(
    ep: Episode, meter: Meter, state: RestState, step: str, plan_text: str, return_to: str
) -> dict[str, Any]:
    """Send one 'METHOD /path purpose' step to the executor, or record why it cannot run."""
    key = match_named(step, ep.spec.keys)
    base = {"plan_text": plan_text, "api_plan": step}
    if key is None:
        return {**base, **finish_sub_task({**state, **base}, f"{step} -- {NOT_IN_LIST}", return_to)}
    return {**base, **start_api_plan(meter, step, key)}


# -- ReAct and Reflexion --------------------------------------------------------------------------
def build_react(
    model: BaseChatModel | None, env: Any, options: dict[str, Any] | None = None, *, roles: Roles = None
) -> Any:
    """ReAct is RestGPT without its planner (the paper reports one row for both): the selector
    thinks and picks one API per turn, the shared executor acts, its result is the observation."""
    return build_restgpt(model, env, options, use_planner=False, roles=roles)


def build_reflexion(
    model: BaseChatModel | None, env: Any, options: dict[str, Any] | None = None, *, roles: Roles = None
) -> Any:
    """ReAct plus self-reflection between trials (``graphs/restgpt_reflexion.py``)."""
    return build_restgpt(model, env, options, use_planner=False, reflexion=True, roles=roles)


# -- DEPS -----------------------------------------------------------------------------------------
def build_deps(
    model: BaseChatModel | None, env: Any, options: dict[str, Any] | None = None, *, roles: Roles = None
) -> Any:
    """DEPS on the shared executor; ``roles`` replaces roles (``deps_plan``, ``deps_select``,
    ``deps_describe``, ``deps_explain``, ``caller``, ``parser``) as in ``build_restgpt``."""
    parts = _setup(model, env, options, roles, ["deps_plan", "deps_select", "deps_describe", "deps_explain"])
    graph = _graph(parts, "plan")

    async def plan(state: RestState, ep: Episode, meter: Meter) -> dict[str, Any]:
        reply = await ep.run(
            "deps_plan",
            query=state["instruction"],
            descriptions=state.get("descriptions") or [],
            explanation=state.get("explanation"),
        )
        steps = reply.parsed.steps if reply.ok else []
        if steps and endpoint_in_plan(steps[0]) is None and "answer" in steps[0].lower():
            return {"final_answer": steps[0].split(":", 1)[-1].strip(), "route": "finish"}
        return {"steps": steps, "route": "select"}

    async def select(state: RestState, ep: Episode, meter: Meter) -> dict[str, Any]:
        meter.spend("agent_steps")
        reply = await ep.run(
            "deps_select",
            query=state["instruction"],
            plan=state.get("steps") or [],
            descriptions=state.get("descriptions") or [],
        )
        if not reply.ok:
            return {"explanation": f"The selected step could not be parsed ({reply.error}).", "route": "plan"}
        if reply.parsed.kind == "final_answer":
            return {"final_answer": reply.parsed.answer, "route": "finish"}
        return _dispatch(ep, meter, state, reply.parsed.action, reply.parsed.action, "describe")

    async def describe(state: RestState, ep: Episode, meter: Meter) -> dict[str, Any]:
        last = (state.get("results") or [{}])[-1]
        reply = await ep.run(
            "deps_describe",
            query=state["instruction"],
            step=last.get("api_plan", ""),
            result=last.get("result", ""),
        )
        text = str(reply.parsed or reply.raw).strip() or last.get("result", "")
        failed = bool(_FAILED.search(last.get("result", "")))
        return {
            "descriptions": [*(state.get("descriptions") or []), text],
            "explanation": None,
            "route": "explain" if failed else "plan",
        }

    async def explain(state: RestState, ep: Episode, meter: Meter) -> dict[str, Any]:
        last = (state.get("results") or [{}])[-1]
        reply = await ep.run(
            "deps_explain",
            query=state["instruction"],
            step=last.get("api_plan", ""),
            description=(state.get("descriptions") or [""])[-1],
        )
        return {"explanation": str(reply.parsed or reply.raw).strip(), "route": "plan"}

    for name, fn, targets in (
        ("plan", plan, ["select", "finish"]),
        ("select", select, ["caller", "describe", "plan", "finish"]),
        ("describe", describe, ["explain", "plan", "finish"]),
        ("explain", explain, ["plan", "finish"]),
    ):
        add_routed(graph, name, parts, fn, targets)
    add_executor(graph, parts, return_to="describe")
    return graph.compile(name="deps")


# -- Offline --------------------------------------------------------------------------------------
def build_offline(
    model: BaseChatModel | None, env: Any, options: dict[str, Any] | None = None, *, roles: Roles = None
) -> Any:
    """Offline on the shared executor; ``roles`` replaces roles (``offline_plan``,
    ``offline_answer``, ``caller``, ``parser``) as in ``build_restgpt``."""
    parts = _setup(model, env, options, roles, ["offline_plan", "offline_answer"])
    config = parts.config
    graph = _graph(parts, "plan_all")

    async def plan_all(state: RestState, ep: Episode, meter: Meter) -> dict[str, Any]:
        reply = await ep.run("offline_plan", query=state["instruction"])
        steps = reply.parsed.steps if reply.ok else []
        return {"steps": steps[: config.budget.agent_steps], "route": "next_step"}

    async def next_step(state: RestState, ep: Episode, meter: Meter) -> dict[str, Any]:
        done = len(state.get("results") or [])
        steps = state.get("steps") or []
        if done >= len(steps) or endpoint_in_plan(steps[done]) is None:
            return {"route": "answer"}
        return _dispatch(ep, meter, state, steps[done], steps[done], "next_step")

    async def answer(state: RestState, ep: Episode, meter: Meter) -> dict[str, Any]:
        results = [(r["api_plan"], r["result"]) for r in state.get("results") or []]
        reply = await ep.run("offline_answer", query=state["instruction"], results=results)
        return {"final_answer": str(reply.parsed or reply.raw).strip(), "route": "finish"}

    for name, fn, targets in (
        ("plan_all", plan_all, ["next_step", "finish"]),
        ("next_step", next_step, ["caller", "answer", "next_step", "finish"]),
        ("answer", answer, ["finish"]),
    ):
        add_routed(graph, name, parts, fn, targets)
    add_executor(graph, parts, return_to="next_step")
    return graph.compile(name="offline")


register_agent(
    "react",
    build_react,
    env_kind="openapi",
    per_run=True,
    description="ReAct baseline: thought -> API call -> observation, on RestGPT's executor",
    step_budget=step_budget,
    options=RestGPTOptions,
)
register_agent(
    "reflexion",
    build_reflexion,
    env_kind="openapi",
    per_run=True,
    description="Reflexion baseline: ReAct + self-reflection, at most 2 trials",
    step_budget=step_budget,
    options=RestGPTOptions,
)
register_agent(
    "deps",
    build_deps,
    env_kind="openapi",
    per_run=True,
    description="DEPS baseline: describe, explain, plan, select (bounded re-planning)",
    step_budget=step_budget,
    options=RestGPTOptions,
)
register_agent(
    "offline",
    build_offline,
    env_kind="openapi",
    per_run=True,
    description="Offline baseline: whole plan up front, executed without re-planning",
    step_budget=step_budget,
    options=RestGPTOptions,
)
