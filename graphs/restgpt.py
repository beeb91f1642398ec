"""``restgpt``: coarse-to-fine online planning (planner -> selector -> caller <-> parser), and its ablations.

    START -> planner --next step / Continue--> selector --METHOD /path--> caller <-> parser
                 ^  \\--Final Answer--> finish       |  \\--No API call needed.--> planner
                 |                                   \\--unknown endpoint (capped)--> selector
                 \\----------------------- execution result ------------------------/

Differences from upstream, all from restbench.md §4: the planner's output is structured
(``next_step`` / ``continue`` / ``final_answer``), including the very first one; every loop has a
cap in ``RestGPTConfig.budget`` (Continue rounds count as planner steps); the selector's retry is
capped; observations only come from real HTTP responses.

Ablations (``build_restgpt(..., use_planner=False / use_parser=False)``, agents
``restgpt-no-planner`` / ``restgpt-no-parser``): without a planner the selector runs ReAct-style
from START and may answer itself; without the parser a ``reader`` node replaces ``parser``.
"""

from __future__ import annotations

from typing import Any

from langchain_core.language_models import BaseChatModel
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from restgraph.agents.restgpt.config import BudgetExceeded, RestGPTConfig, RestGPTOptions
from restgraph.agents.restgpt.context import Episode
from restgraph.agents.restgpt.jmespath_parser import JMESPATH_PARSER
from restgraph.agents.restgpt.meter import Meter
from restgraph.agents.restgpt.protocol import PlannerDecision, SelectorDecision
from restgraph.graphs.episode_context import EpisodeContext
from restgraph.graphs.registry import register_agent
from restgraph.graphs.restgpt_executor import (
    RestState,
    Roles,
    add_executor,
    add_routed,
    background,
    episodes,
    finish,
    finish_sub_task,
    start_api_plan,
)
from restgraph.graphs.restgpt_reflexion import reflect_node, with_lessons

NOT_IN_LIST = "The API you called is not in the list of available APIs. Please use another API."


def _config(options: dict[str, Any], **switches: Any) -> RestGPTConfig:
    config = RestGPTConfig.from_options({k: v for k, v in options.items() if k != "roles"})
    updates = {k: v for k, v in switches.items() if v is not None}
    return config.model_copy(update=updates) if updates else config


def planner_node() -> Any:
    async def planner(state: RestState, ep: Episode, meter: Meter) -> dict[str, Any]:
        meter.spend("planner_steps")
        results = state.get("results") or []
        history = [(r["plan"], r["result"]) for r in results]
        reply = await ep.run("planner", query=state["instruction"], history=history)
        decision: PlannerDecision | None = reply.parsed if reply.ok else None
        if decision is None:  # recorded in the trace; ask again (bounded by planner_steps)
            return {"route": "planner"}
        if decision.kind == "final_answer":
            return {"final_answer": decision.text, "status": "finished", "route": "finish"}
        update: dict[str, Any] = {"route": "selector", "selector_feedback": None, "selector_failures": []}
        meter.reset("selector_retries")
        if decision.kind == "continue" and state.get("subtask"):
            return {**update, "continue_text": decision.text, "plan_text": decision.text}
        return {
            **update,
            "subtask": decision.text,
            "subtask_start": len(results),
            "continue_text": None,
            "plan_text": decision.text,
        }

    return planner


def selector_node(*, use_planner: bool, answer_to: str = "finish") -> Any:
    """One selector call. Without a planner the selector acts ReAct-style on the whole query: its
    earlier rounds are its history and each new round is asked to ``Continue``; its answer goes
    to ``answer_to`` (``reflect`` for Reflexion, which also reflects on a trial that ran out of steps)."""
    return_to = "planner" if use_planner else "selector"

    async def selector(state: RestState, ep: Episode, meter: Meter) -> dict[str, Any]:
        failures = list(state.get("selector_failures") or [])
        if not use_planner and not failures and not state.get("selector_feedback"):
            try:
                meter.spend("agent_steps")
            except BudgetExceeded:
                if answer_to == "finish":
                    raise
                return {"final_answer": None, "route": answer_to}
        results = state.get("results") or []
        subtask = state.get("subtask") or state["instruction"]
        rounds = [(r["plan"], r["api_plan"], r["result"]) for r in results[state.get("subtask_start", 0) :]]
        instruction = state.get("continue_text") if use_planner else ("Continue" if rounds else None)
        known = with_lessons(background(state), state.get("reflections") or [], bool(results))
        reply = await ep.run(
            "selector",
            subtask=subtask,
            background=known,
            history=[(a, b) for _, a, b in rounds],
            rounds=rounds,
            instruction=instruction,
            feedback=state.get("selector_feedback"),
            failures=failures,
            allow_final=not use_planner,
        )
        decision: SelectorDecision | None = reply.parsed if reply.ok else None
        plan_text = (
            (state.get("plan_text") or subtask) if use_planner else ("Continue" if rounds else subtask)
        )
        base = {"subtask": subtask, "plan_text": plan_text}
        if decision is None:
            return _retry(
                meter,
                state,
                base,
                reply.raw,
                f"Your output could not be understood ({reply.error}). Write one line 'METHOD /path purpose' or 'No API call needed. answer'.",
                return_to,
            )
        if not use_planner and decision.kind == "final_answer":
            return {"final_answer": decision.plan.strip(), "status": "finished", "route": answer_to}
        if decision.kind in ("no_api_call", "final_answer"):
            update = finish_sub_task(
                {**state, **base, "api_plan": decision.text or "No API call needed."},
                decision.plan,
                return_to,
            )
            return {**base, **update, "selector_feedback": None, "selector_failures": []}
        # the selector's pack's matching, over the endpoints its prompt listed (a shortlist, or all)
        shown = getattr(reply, "shown", None)
        key = ep.role("selector").match(decision.plan, ep.spec.keys if shown is None else list(shown))
        if key is None:
            return _retry(meter, state, base, reply.raw, f"{decision.plan} -- {NOT_IN_LIST}", return_to)
        meter.reset("selector_retries")
        return {
            **base,
            **start_api_plan(meter, decision.plan, key),
            "selector_feedback": None,
            "selector_failures": [],
        }

    return selector


def _retry(
    meter: Meter, state: RestState, base: dict[str, Any], raw: str, feedback: str, return_to: str
) -> dict[str, Any]:
    """Ask the selector again, or, with its retry budget spent, end the sub-task (not the episode):
    the planner sees the failure as the sub-task's result and may re-plan."""
    try:
        meter.spend("selector_retries", detail=feedback[:200])
    except BudgetExceeded as exc:
        result = f"The API selector found no usable API within {exc.limit} retries ({exc.budget}); last output: {raw.strip()[:300]}"
        update = finish_sub_task({**state, **base, "api_plan": raw.strip()}, result, return_to)
        return {**base, **update, "selector_feedback": None, "selector_failures": []}
    failures = [*(state.get("selector_failures") or []), raw]
    return {**base, "selector_feedback": feedback, "selector_failures": failures, "route": "selector"}


def build_restgpt(
    model: BaseChatModel | None,
    env: Any,
    options: dict[str, Any] | None = None,
    *,
    use_planner: bool | None = None,
    use_parser: bool | None = None,
    roles: Roles = None,
    config: RestGPTConfig | None = None,
    reflexion: bool = False,
) -> Any:
    """Compile RestGPT for ``env`` (an ``OpenAPIEnvironment``), or once per run (``model`` and
    ``env`` None: each episode's arrive through the runtime context). ``options`` are agent
    options (budget fields, ``use_planner``, ``use_parser``, ``prompts``, ``structured``...);
    ``roles`` is a whole role set (``restgraph.agents.restgpt.packs.UPSTREAM.replace(...)``) or a
    mapping that replaces roles by name (``planner``, ``selector``, ``caller``, ``parser``...;
    a ``Role`` or an ``act(ep, **inputs)`` function). ``reflexion`` (without a planner) adds
    Reflexion's ``reflect`` node after each trial (``graphs/restgpt_reflexion.py``)."""
    options = dict(options or {})
    roles = roles if roles is not None else options.get("roles")
    config = config or _config(options, use_planner=use_planner, use_parser=use_parser)
    if reflexion and config.use_planner:
        raise ValueError("Reflexion runs on the selector alone: build it with use_planner=False")
    used = ["planner"] if config.use_planner else []
    used += ["selector", "caller", "parser"] + (["reflect"] if reflexion else [])
    parts = episodes(model, env, config, roles, used)
    answer_to = "reflect" if reflexion else "finish"
    graph = StateGraph(RestState, context_schema=EpisodeContext)
    entry = "planner" if config.use_planner else "selector"

    async def start(state: RestState, runtime: Runtime[EpisodeContext]) -> dict[str, Any]:
        return {**parts.start_update(runtime), "results": [], "route": entry}

    graph.add_node("start", start)
    if config.use_planner:
        add_routed(graph, "planner", parts, planner_node(), ["planner", "selector", "finish"])
    add_routed(
        graph,
        "selector",
        parts,
        selector_node(use_planner=config.use_planner, answer_to=answer_to),
        sorted({"selector", "caller", entry, "finish", answer_to}),
    )
    graph.add_node("finish", finish)
    graph.add_edge(START, "start")
    graph.add_edge("start", entry)
    if reflexion:
        add_routed(graph, "reflect", parts, reflect_node(config), ["selector", "finish"])
    add_executor(graph, parts, return_to=entry)
    graph.add_edge("finish", END)
    name = (
        "reflexion"
        if reflexion
        else "restgpt"
        + ("" if config.use_planner else "-no-planner")
        + ("" if config.use_parser else "-no-parser")
    )
    return graph.compile(name=name)


def _no_planner(model: BaseChatModel | None, env: Any, options: dict[str, Any]) -> Any:
    return build_restgpt(model, env, options, use_planner=False)


def _no_parser(model: BaseChatModel | None, env: Any, options: dict[str, Any]) -> Any:
    return build_restgpt(model, env, options, use_parser=False)


def _jmespath_parser(model: BaseChatModel | None, env: Any, options: dict[str, Any]) -> Any:
    return build_restgpt(model, env, options, roles={"parser": JMESPATH_PARSER})


def step_budget(options: dict[str, Any]) -> int:
    """The graph step budget of a RestGPT-family agent (and the baselines) with these options."""
    return RestGPTConfig.from_options({k: v for k, v in options.items() if k != "roles"}).graph_steps()


def _register(name: str, builder: Any, description: str) -> None:
    register_agent(
        name,
        builder,
        env_kind="openapi",
        description=description,
        step_budget=step_budget,
        options=RestGPTOptions,
        per_run=True,
    )


_register("restgpt", build_restgpt, "RestGPT: planner -> API selector -> caller <-> program-aided parser")
_register("restgpt-no-planner", _no_planner, "RestGPT ablation: no coarse planner (selector ReAct-style)")
_register(
    "restgpt-jmespath-parser",
    _jmespath_parser,
    "RestGPT with a JMESPath parser: the model writes one JMESPath expression per response instead of Python",
)
_register(
    "restgpt-no-parser",
    _no_parser,
    "RestGPT ablation: the model reads raw JSON (1,000 tokens) instead of writing parser code",
)

__all__ = ["BudgetExceeded", "build_restgpt"]
