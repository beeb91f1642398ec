"""The executor every RestBench agent shares (restbench.md §5): caller <-> parser over the HTTP tool.

``add_executor`` adds two nodes to a graph: ``caller`` (one caller-LLM step, then the HTTP request
it asked for) and ``parser`` (program-aided parsing of a JSON response) — or ``reader`` instead
of ``parser`` in the w/o-parser ablation. When the caller writes its ``Execution Result`` (or
runs out of steps) the result is appended to ``results`` and control goes to ``return_to``: the
planner for RestGPT, the selector without a planner, the decision node of each baseline.

Behaviours fixed from upstream (§4): any 2xx is success; 4xx/5xx and transport errors become
observations with the status and a short body; an empty body reads "success, no content"; an
unknown verb, unparseable output or a URL that matches no endpoint is a recoverable observation;
a caller that runs out of steps returns an explicit "step limit reached" result.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, NotRequired, Protocol, TypedDict, cast

from langchain_core.language_models import BaseChatModel

from restgraph.agents.restgpt.baseline_roles import BaselineKit
from restgraph.agents.restgpt.config import BudgetExceeded, RestGPTConfig
from restgraph.agents.restgpt.meter import Meter, metered
from restgraph.agents.restgpt.protocol import CallerDecision
from restgraph.agents.restgpt.roles import RoleFn, RoleKit
from restgraph.agents.restgpt.upstream.baselines import UpstreamBaselineKit
from restgraph.agents.restgpt.upstream.kit import UpstreamKit
from restgraph.graphs.episode_context import EpisodeContext, EpisodePart
from restgraph.tools.openapi.client import HttpResult
from restgraph.tools.openapi.reduce import ReducedSpec, reduce_openapi_spec

VERBS = ("GET", "POST", "PUT", "PATCH", "DELETE")


class RestState(TypedDict):
    """State shared by the RestGPT-family graphs (JSON-serialisable, so Studio can show it)."""

    instruction: str
    task_id: NotRequired[str]
    final_answer: NotRequired[str | None]
    status: NotRequired[str]
    error: NotRequired[str | None]
    #: the episode's RestGPTConfig (budgets, switches), recorded in the trace
    config: NotRequired[dict[str, Any]]
    counters: NotRequired[dict[str, int]]
    route: NotRequired[str]
    #: one entry per executed API plan: {"plan", "api_plan", "result"}
    results: NotRequired[list[dict[str, str]]]
    subtask: NotRequired[str]
    subtask_start: NotRequired[int]
    plan_text: NotRequired[str]
    continue_text: NotRequired[str | None]
    selector_feedback: NotRequired[str | None]
    #: the selector's rejected outputs in this round (upstream appends each to its scratchpad)
    selector_failures: NotRequired[list[str]]
    api_plan: NotRequired[str | None]
    endpoint: NotRequired[str | None]
    scratch: NotRequired[list[str]]
    pending: NotRequired[dict[str, Any] | None]
    # baselines
    transcript: NotRequired[list[str]]
    steps: NotRequired[list[str]]
    trial: NotRequired[int]
    reflections: NotRequired[list[str]]
    descriptions: NotRequired[list[str]]
    explanation: NotRequired[str | None]


NodeFn = Callable[[RestState, Meter], Awaitable[dict[str, Any]]]


class StateNode(Protocol):
    """A graph node over ``RestState`` (a protocol, not a ``Callable``: LangGraph calls nodes with
    a parameter named ``state``)."""

    def __call__(self, state: RestState) -> Awaitable[dict[str, Any]]: ...


_REDUCED: dict[tuple[Any, ...], ReducedSpec] = {}


def reduced_spec(env: Any, config: RestGPTConfig) -> ReducedSpec:
    """The environment's spec reduced once per process and options: episodes share it read-only.

    Benchmarks hand every run a fresh (equal) dereferenced spec, so the key is the spec's
    identity as documents go: scenario, title, version and its operation keys."""
    merge = env.scenario == "spotify"
    info = env.spec.get("info") or {}
    key = (
        env.scenario,
        info.get("title"),
        info.get("version"),
        tuple(env.endpoint_keys),
        merge,
        config.faithful_reduction,
    )
    if key not in _REDUCED:
        if len(_REDUCED) > 16:
            _REDUCED.clear()
        _REDUCED[key] = reduce_openapi_spec(
            env.spec, dereferenced=True, merge_allof_schemas=merge, faithful=config.faithful_reduction
        )
    return _REDUCED[key]


def make_kit(
    model: BaseChatModel | None,
    env: Any,
    config: RestGPTConfig,
    overrides: dict[str, RoleFn] | None = None,
    cls: type[RoleKit] = RoleKit,
) -> RoleKit:
    """The roles for ``config.prompt_pack``: upstream's prompts (planner, selector, caller, parser)
    on top of ``cls`` (which may add roles, e.g. the baselines'), or this project's."""
    if model is None:
        raise ValueError("RestGPT-family agents need a model")
    if config.prompt_pack == "upstream":
        cls = upstream_kit_class(cls)  # type: ignore[arg-type]  # classes are hashable; mypy's Hashable check misses it
    kit = cls(model, config, env.scenario, reduced_spec(env, config), env.base_url, dict(overrides or {}))
    kit.attach(env)
    return kit


def episode_kit(
    model: BaseChatModel | None,
    env: Any,
    config: RestGPTConfig,
    overrides: dict[str, RoleFn] | None = None,
    cls: type[RoleKit] = RoleKit,
) -> tuple[RoleKit, Any]:
    """The role kit and the environment as the graph's nodes see them: the running episode's
    (``restgraph.graphs.episode_context``; the kit made at its first use in the episode, for the episode's
    scenario), so the graph compiles once per run. ``model``/``env`` serve a graph invoked
    without a context (built for one episode, as tests do)."""
    fallback = EpisodeContext(model, env)
    kit = EpisodePart(
        "restgpt.kit",
        lambda ctx: make_kit(ctx.model, ctx.env, config.for_scenario(ctx.env.scenario), overrides, cls),
        fallback,
    )
    return cast(RoleKit, kit), EpisodePart("env", lambda ctx: ctx.env, fallback)


@functools.cache
def upstream_kit_class(cls: type[RoleKit]) -> type[RoleKit]:
    if issubclass(cls, UpstreamKit):
        return cls
    if cls is RoleKit:
        return UpstreamKit
    if cls is BaselineKit:
        return UpstreamBaselineKit
    return type(f"Upstream{cls.__name__}", (UpstreamKit, cls), {})


def background(state: RestState) -> str:
    """Upstream's selector/caller background: every result so far, one per line."""
    results = state.get("results") or []
    return "\n".join(r.get("result") or "" for r in results) if results else "No background"


def last_result(state: RestState) -> str | None:
    results = state.get("results") or []
    return results[-1]["result"] if results else None


def node(config: RestGPTConfig, fn: NodeFn) -> StateNode:
    """Run ``fn`` under the episode's meter; a spent budget ends the episode as ``budget_exhausted``."""

    @functools.wraps(fn)
    async def wrapped(state: RestState) -> dict[str, Any]:
        with metered(config.budget, state) as meter:
            try:
                update = await fn(state, meter)
            except BudgetExceeded as exc:
                update = {
                    "status": "budget_exhausted",
                    "error": str(exc),
                    "route": "finish",
                    "final_answer": last_result(state),
                }
            update["counters"] = dict(meter.counters)
        return update

    return wrapped


def finish_sub_task(state: Mapping[str, Any], result: str, return_to: str) -> dict[str, Any]:
    entry = {
        "plan": state.get("plan_text") or state.get("subtask") or "",
        "api_plan": state.get("api_plan") or "",
        "result": result,
    }
    return {
        "results": [*(state.get("results") or []), entry],
        "route": return_to,
        "pending": None,
        "scratch": [],
    }


def finish(state: RestState) -> dict[str, Any]:
    """Terminal node: keep a status set earlier (budget_exhausted), otherwise ``finished``."""
    answer = state.get("final_answer")
    return {
        "status": state.get("status") or "finished",
        "final_answer": answer if answer is not None else last_result(state),
    }


def _observation(result: HttpResult) -> str:
    return result.observation(limit=1500)


def add_executor(graph: Any, kit: RoleKit, env: Any, config: RestGPTConfig, *, return_to: str) -> None:
    """Add the ``caller`` and ``parser`` (or ``reader``) nodes, routing back to ``return_to``."""
    parser_name = "parser" if config.use_parser else "reader"

    async def caller(state: RestState, meter: Meter) -> dict[str, Any]:
        scratch = list(state.get("scratch") or [])
        cap = config.budget.caller_iterations
        if (
            meter.used("caller_iterations") > cap
        ):  # a step past the cap: what upstream returned raw (defect 11)
            return step_limit(state, scratch, cap, return_to)
        # ``cap`` operations, and one more step to report them (upstream: 15 operations per plan)
        meter.spend("caller_iterations", limit=cap + 1, detail=state.get("api_plan") or "")
        endpoint = kit.spec.get(state.get("endpoint") or "")
        if endpoint is None:
            return finish_sub_task(
                state, f"The API plan names no known endpoint: {state.get('api_plan')}", return_to
            )
        reply = await kit.run(
            "caller",
            api_plan=state.get("api_plan") or "",
            background=background(state),
            endpoint=endpoint,
            scratch=scratch,
        )
        if not reply.ok:
            scratch.append(
                kit.scratch_entry(
                    reply.raw,
                    None,
                    f"Your output could not be parsed ({reply.error}). Write Operation and Input, or Execution Result.",
                )
            )
            return {"scratch": scratch, "route": "caller"}
        decision: CallerDecision = reply.parsed
        if decision.kind == "execution_result":
            return finish_sub_task(state, decision.result or "(empty execution result)", return_to)
        method = (decision.method or "").upper()
        if method not in VERBS:
            scratch.append(
                kit.scratch_entry(
                    reply.raw,
                    decision,
                    f"Error: unknown HTTP method {decision.method!r}; use GET, POST, PUT, PATCH or DELETE.",
                )
            )
            return {"scratch": scratch, "route": "caller"}
        url = decision.url or ""
        if env.http.template_of(method, url if url.startswith(("/", "http")) else "/" + url) is None:
            scratch.append(
                kit.scratch_entry(
                    reply.raw,
                    decision,
                    f"Error: {method} {decision.url} matches no endpoint of this API; the plan is {endpoint.key}.",
                )
            )
            return {"scratch": scratch, "route": "caller"}
        if meter.used("caller_iterations") > cap:  # the extra step may only report, not call
            return step_limit(state, scratch, cap, return_to)
        body = decision.data if method in ("POST", "PUT", "PATCH") or decision.data is not None else None
        result = await env.http.request(method, decision.url, params=decision.params or None, body=body)
        if result.ok and not result.error and kit.parses(result):
            pending = {
                "decision": decision.model_dump(),
                "raw": reply.raw,
                "status": result.status,
                "text": result.text,
                "template": result.template,
            }
            return {"pending": pending, "route": parser_name}
        scratch.append(kit.scratch_entry(reply.raw, decision, _observation(result)))
        return {"scratch": scratch, "route": "caller"}

    async def parse(state: RestState, meter: Meter) -> dict[str, Any]:
        pending = state.get("pending") or {}
        decision = CallerDecision.model_validate(pending["decision"])
        text = pending["text"]
        try:
            data = json.loads(text) if text.strip() else None
        except json.JSONDecodeError:
            data = None
        result = HttpResult(status=pending["status"], text=text, json=data, template=pending.get("template"))
        parsed = await kit.parse_result(decision, result, state.get("endpoint"))
        scratch = [*(state.get("scratch") or []), kit.scratch_entry(pending.get("raw", ""), decision, parsed)]
        return {"scratch": scratch, "pending": None, "route": "caller"}

    graph.add_node("caller", node(config, caller))
    graph.add_node(parser_name, node(config, parse))
    graph.add_conditional_edges("caller", route, ["caller", parser_name, return_to, "finish"])
    graph.add_conditional_edges(parser_name, route, ["caller", "finish"])


def step_limit(state: RestState, scratch: list[str], cap: int, return_to: str) -> dict[str, Any]:
    last = scratch[-1].rsplit("Response:", 1)[-1].strip() if scratch else "nothing was executed"
    return finish_sub_task(
        state,
        f"Step limit reached (caller_iterations={cap}) before the caller finished the plan. Last observation: {last[:500]}",
        return_to,
    )


def route(state: RestState) -> str:
    return state.get("route") or "finish"


def start_api_plan(meter: Meter, api_plan: str, endpoint: str) -> dict[str, Any]:
    """Hand one API plan to the executor (fresh caller transcript and step count)."""
    meter.reset("caller_iterations")
    return {"api_plan": api_plan, "endpoint": endpoint, "scratch": [], "pending": None, "route": "caller"}
