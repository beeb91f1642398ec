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
from collections.abc import Awaitable, Callable
from typing import Any, NotRequired, TypedDict

from langchain_core.language_models import BaseChatModel

from agents.restgpt.config import BudgetExceeded, RestGPTConfig
from agents.restgpt.meter import Meter, metered
from agents.restgpt.parser import parse_response, simple_parse
from agents.restgpt.protocol import CallerDecision
from agents.restgpt.roles import RoleFn, RoleKit, caller_scratch_entry
from tools.openapi.client import HttpResult
from tools.openapi.reduce import ReducedSpec, reduce_openapi_spec

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

_REDUCED: dict[tuple[Any, ...], ReducedSpec] = {}


def reduced_spec(env: Any, config: RestGPTConfig) -> ReducedSpec:
    """The environment's spec reduced once per process and options: episodes share it read-only.

    Benchmarks hand every run a fresh (equal) dereferenced spec, so the key is the spec's
    identity as documents go: scenario, title, version and its operation keys."""
    merge = env.scenario == "spotify"
    info = env.spec.get("info") or {}
    key = (env.scenario, info.get("title"), info.get("version"), tuple(env.endpoint_keys), merge, config.faithful_reduction)
    if key not in _REDUCED:
        if len(_REDUCED) > 16:
            _REDUCED.clear()
        _REDUCED[key] = reduce_openapi_spec(env.spec, dereferenced=True, merge_allof_schemas=merge, faithful=config.faithful_reduction)
    return _REDUCED[key]


def make_kit(model: BaseChatModel | None, env: Any, config: RestGPTConfig, overrides: dict[str, RoleFn] | None = None, cls: type[RoleKit] = RoleKit) -> RoleKit:
    if model is None:
        raise ValueError("RestGPT-family agents need a model")
    return cls(model, config, env.scenario, reduced_spec(env, config), env.base_url, dict(overrides or {}))


def background(state: RestState) -> str:
    results = state.get("results") or []
    return "\n".join(r["result"] for r in results if r.get("result")) or "No background"


def last_result(state: RestState) -> str | None:
    results = state.get("results") or []
    return results[-1]["result"] if results else None


def node(config: RestGPTConfig, fn: NodeFn) -> Callable[[RestState], Awaitable[dict[str, Any]]]:
    """Run ``fn`` under the episode's meter; a spent budget ends the episode as ``budget_exhausted``."""

    @functools.wraps(fn)
    async def wrapped(state: RestState) -> dict[str, Any]:
        with metered(config.budget, state) as meter:
            try:
                update = await fn(state, meter)
            except BudgetExceeded as exc:
                update = {"status": "budget_exhausted", "error": str(exc), "route": "finish", "final_answer": last_result(state)}
            update["counters"] = dict(meter.counters)
        return update

    return wrapped


def finish_sub_task(state: RestState, result: str, return_to: str) -> dict[str, Any]:
    entry = {"plan": state.get("plan_text") or state.get("subtask") or "", "api_plan": state.get("api_plan") or "", "result": result}
    return {"results": [*(state.get("results") or []), entry], "route": return_to, "pending": None, "scratch": []}


def finish(state: RestState) -> dict[str, Any]:
    """Terminal node: keep a status set earlier (budget_exhausted), otherwise ``finished``."""
    answer = state.get("final_answer")
    return {"status": state.get("status") or "finished", "final_answer": answer if answer is not None else last_result(state)}


def _observation(result: HttpResult) -> str:
    return result.observation(limit=1500)


def add_executor(graph: Any, kit: RoleKit, env: Any, *, return_to: str) -> None:
    """Add the ``caller`` and ``parser`` (or ``reader``) nodes, routing back to ``return_to``."""
    config = kit.config
    parser_name = "parser" if config.use_parser else "reader"

    async def caller(state: RestState, meter: Meter) -> dict[str, Any]:
        scratch = list(state.get("scratch") or [])
        try:
            meter.spend("caller_iterations", detail=state.get("api_plan") or "")
        except BudgetExceeded as exc:
            last = scratch[-1].rsplit("Response:", 1)[-1].strip() if scratch else "nothing was executed"
            return finish_sub_task(state, f"Step limit reached ({exc.budget}={exc.limit}) before the caller finished the plan. Last observation: {last[:500]}", return_to)
        endpoint = kit.spec.get(state.get("endpoint") or "")
        if endpoint is None:
            return finish_sub_task(state, f"The API plan names no known endpoint: {state.get('api_plan')}", return_to)
        reply = await kit.run("caller", api_plan=state.get("api_plan") or "", background=background(state), endpoint=endpoint, scratch=scratch)
        if not reply.ok:
            scratch.append(f"Thought: {reply.raw[:300]}\nResponse: Your output could not be parsed ({reply.error}). Write Operation and Input, or Execution Result.\n")
            return {"scratch": scratch, "route": "caller"}
        decision: CallerDecision = reply.parsed
        if decision.kind == "execution_result":
            return finish_sub_task(state, decision.result or "(empty execution result)", return_to)
        method = (decision.method or "").upper()
        if method not in VERBS:
            scratch.append(caller_scratch_entry(decision, f"Error: unknown HTTP method {decision.method!r}; use GET, POST, PUT, PATCH or DELETE."))
            return {"scratch": scratch, "route": "caller"}
        url = decision.url or ""
        if env.http.template_of(method, url if url.startswith(("/", "http")) else "/" + url) is None:
            scratch.append(caller_scratch_entry(decision, f"Error: {method} {decision.url} matches no endpoint of this API; the plan is {endpoint.key}."))
            return {"scratch": scratch, "route": "caller"}
        body = decision.data if method in ("POST", "PUT", "PATCH") or decision.data is not None else None
        result = await env.http.request(method, decision.url, params=decision.params or None, body=body)
        if result.ok and result.json is not None:
            pending = {"decision": decision.model_dump(), "status": result.status, "text": result.text, "template": result.template}
            return {"pending": pending, "route": parser_name}
        scratch.append(caller_scratch_entry(decision, _observation(result)))
        return {"scratch": scratch, "route": "caller"}

    async def parse(state: RestState, meter: Meter) -> dict[str, Any]:
        pending = state.get("pending") or {}
        decision = CallerDecision.model_validate(pending["decision"])
        result = HttpResult(status=pending["status"], text=pending["text"], json=json.loads(pending["text"]), template=pending.get("template"))
        args = {"result": result, "params": decision.params if decision.params else decision.data, "description": decision.description,
                "output_instructions": decision.output_instructions}
        if config.use_parser:
            parsed = await parse_response(kit, endpoint=kit.spec.get(pending.get("template") or ""), **args)
        else:
            parsed = await simple_parse(kit, **args)
        scratch = [*(state.get("scratch") or []), caller_scratch_entry(decision, parsed.text)]
        return {"scratch": scratch, "pending": None, "route": "caller"}

    graph.add_node("caller", node(config, caller))
    graph.add_node(parser_name, node(config, parse))
    graph.add_conditional_edges("caller", route, ["caller", parser_name, return_to, "finish"])
    graph.add_conditional_edges(parser_name, route, ["caller", "finish"])


def route(state: RestState) -> str:
    return state.get("route") or "finish"


def start_api_plan(meter: Meter, api_plan: str, endpoint: str) -> dict[str, Any]:
    """Hand one API plan to the executor (fresh caller transcript and step count)."""
    meter.reset("caller_iterations")
    return {"api_plan": api_plan, "endpoint": endpoint, "scratch": [], "pending": None, "route": "caller"}
