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

import json
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NotRequired, Protocol, TypedDict

from langchain_core.language_models import BaseChatModel
from langgraph.runtime import Runtime
from langgraph.types import Command

from restgraph.agents.restgpt.config import BudgetExceeded, RestGPTConfig
from restgraph.agents.restgpt.context import Episode
from restgraph.agents.restgpt.meter import Meter, metered
from restgraph.agents.restgpt.packs import record, roles_for
from restgraph.agents.restgpt.protocol import CallerDecision
from restgraph.agents.restgpt.role import Role, RoleFn, RoleSet
from restgraph.graphs.episode_context import EpisodeContext
from restgraph.tools.events import EpisodeNote, emit
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
    #: per role: its pack, name and the hashes of a custom act / overridden templates (packs.record)
    roles: NotRequired[dict[str, Any]]
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


#: a node's body: the state, the running episode (its roles, spec, environment) and its meter
NodeFn = Callable[[RestState, Episode, Meter], Awaitable[dict[str, Any]]]


class StateNode(Protocol):
    """A graph node over ``RestState`` that reads the episode from LangGraph's runtime context
    (LangGraph passes ``runtime`` to a node whose signature names it)."""

    def __call__(self, state: RestState, runtime: Runtime[EpisodeContext]) -> Awaitable[Command[str]]: ...


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


Roles = RoleSet | Mapping[str, Role | RoleFn] | None


@dataclass
class Episodes:
    """What a RestGPT-family graph makes of each episode: built once per run by the builder
    (config from the options, the user's roles, the roles the graph uses), it turns the runtime
    context of an episode (its model and environment) into that episode's :class:`Episode`.

    ``fallback`` serves a graph invoked without a context (built for one episode, as tests and
    notebooks do). The role set and its record are resolved once per prompt pack."""

    config: RestGPTConfig
    roles: Roles
    used: tuple[str, ...]
    fallback: EpisodeContext
    _sets: dict[str, tuple[RoleSet, dict[str, Any]]] = field(default_factory=dict, repr=False)

    def role_set(self, config: RestGPTConfig) -> tuple[RoleSet, dict[str, Any]]:
        """The role set for a config resolved for its scenario, and its record."""
        pack = str(config.prompt_pack)
        if pack not in self._sets:
            chosen = roles_for(config, self.roles)
            self._sets[pack] = (chosen, record(config, chosen, self.used))
        return self._sets[pack]

    def of(self, runtime: Runtime[EpisodeContext] | None) -> Episode:
        context = runtime.context if runtime is not None else None
        ctx = context if isinstance(context, EpisodeContext) else self.fallback
        episode: Episode = ctx.part("restgpt.episode", self._make)
        return episode

    def _make(self, ctx: EpisodeContext) -> Episode:
        model: BaseChatModel = ctx.need_model("RestGPT-family")
        env = ctx.env
        config = self.config.for_scenario(env.scenario)
        roles, _ = self.role_set(config)
        return Episode(model, config, env.scenario, reduced_spec(env, config), env.base_url, env, roles)

    def start_update(self, runtime: Runtime[EpisodeContext] | None) -> dict[str, Any]:
        """The first state update: the episode's config and its roles' record, both in the trace
        (the record also in ``trace.extra["roles"]``, whence the runner copies it to config.json)."""
        ep = self.of(runtime)
        roles = self.role_set(ep.config)[1]
        emit(EpisodeNote(key="roles", value=roles))
        return {"config": ep.config.model_dump(mode="json"), "roles": roles, "counters": {}}


def episodes(
    model: BaseChatModel | None, env: Any, config: RestGPTConfig, roles: Roles, used: Iterable[str]
) -> Episodes:
    """The builder's :class:`Episodes`; ``roles`` is checked here, before any episode."""
    found = Episodes(config, roles, tuple(used), EpisodeContext(model, env))
    if config.prompt_pack is not None or not isinstance(roles, RoleSet):
        for pack in ("upstream", "restgraph") if config.prompt_pack is None else (config.prompt_pack,):
            found.role_set(config.model_copy(update={"prompt_pack": pack}))
    return found


def background(state: RestState) -> str:
    """Upstream's selector/caller background: every result so far, one per line."""
    results = state.get("results") or []
    return "\n".join(r.get("result") or "" for r in results) if results else "No background"


def last_result(state: RestState) -> str | None:
    results = state.get("results") or []
    return results[-1]["result"] if results else None


def node(episodes: Episodes, fn: NodeFn) -> StateNode:
    """Run ``fn`` on the running episode (LangGraph's runtime context) under its meter; a spent
    budget ends the episode as ``budget_exhausted``. The node names its successor itself: the
    ``route`` its update sets (or the state kept), else ``finish``."""

    async def wrapped(state: RestState, runtime: Runtime[EpisodeContext]) -> Command[str]:
        ep = episodes.of(runtime)
        with metered(ep.config.budget, state) as meter:
            try:
                update = await fn(state, ep, meter)
            except BudgetExceeded as exc:
                update = {
                    "status": "budget_exhausted",
                    "error": str(exc),
                    "route": "finish",
                    "final_answer": last_result(state),
                }
            update["counters"] = dict(meter.counters)
        return Command(
            update=update, goto=(update["route"] if "route" in update else state.get("route")) or "finish"
        )

    wrapped.__name__ = wrapped.__qualname__ = getattr(fn, "__name__", "node")
    return wrapped


def add_routed(graph: Any, name: str, episodes: Episodes, fn: NodeFn, targets: Iterable[str]) -> None:
    """Add ``node(episodes, fn)`` as ``name``, going on to the node its update's ``route`` names
    (one of ``targets``: LangGraph draws the graph's edges from them).

    Why not a conditional edge reading ``route``: LangGraph evaluates such an edge as a runnable of
    its own on a fresh copy of every state channel, after every step (~2 ms of a RestGPT episode's
    ~13 steps, bench/restgpt_episode_cost.py); a ``Command`` the node returns carries the same choice."""
    graph.add_node(name, node(episodes, fn), destinations=tuple(targets))


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


async def finish(state: RestState) -> dict[str, Any]:
    """Terminal node: keep a status set earlier (budget_exhausted), otherwise ``finished``.

    ``async``: LangGraph runs a plain function of a graph driven asynchronously in
    a worker thread (``run_in_executor``), one thread hand-off per node or edge it evaluates."""
    answer = state.get("final_answer")
    return {
        "status": state.get("status") or "finished",
        "final_answer": answer if answer is not None else last_result(state),
    }


def _observation(result: HttpResult) -> str:
    return result.observation(limit=1500)


def add_executor(graph: Any, episodes: Episodes, *, return_to: str) -> None:
    """Add the ``caller`` and ``parser`` (or ``reader``) nodes, routing back to ``return_to``.
    The caller role's ``transcript`` writes the caller's scratchpad; the parser role's ``accepts``
    says which successful responses it reads (the others go back to the caller as observations)."""
    config = episodes.config
    parser_name = "parser" if config.use_parser else "reader"

    async def caller(state: RestState, ep: Episode, meter: Meter) -> dict[str, Any]:
        scratch = list(state.get("scratch") or [])
        cap = config.budget.caller_iterations
        if (
            meter.used("caller_iterations") > cap
        ):  # a step past the cap: what upstream returned raw (defect 11)
            return step_limit(state, scratch, cap, return_to)
        # ``cap`` operations, and one more step to report them (upstream: 15 operations per plan)
        meter.spend("caller_iterations", limit=cap + 1, detail=state.get("api_plan") or "")
        endpoint = ep.spec.get(state.get("endpoint") or "")
        if endpoint is None:
            return finish_sub_task(
                state, f"The API plan names no known endpoint: {state.get('api_plan')}", return_to
            )
        transcript = ep.role("caller").transcript
        reply = await ep.run(
            "caller",
            api_plan=state.get("api_plan") or "",
            background=background(state),
            endpoint=endpoint,
            scratch=scratch,
        )
        if not reply.ok:
            scratch.append(
                transcript(
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
                transcript(
                    reply.raw,
                    decision,
                    f"Error: unknown HTTP method {decision.method!r}; use GET, POST, PUT, PATCH or DELETE.",
                )
            )
            return {"scratch": scratch, "route": "caller"}
        url = decision.url or ""
        if ep.env.http.template_of(method, url if url.startswith(("/", "http")) else "/" + url) is None:
            scratch.append(
                transcript(
                    reply.raw,
                    decision,
                    f"Error: {method} {decision.url} matches no endpoint of this API; the plan is {endpoint.key}.",
                )
            )
            return {"scratch": scratch, "route": "caller"}
        if meter.used("caller_iterations") > cap:  # the extra step may only report, not call
            return step_limit(state, scratch, cap, return_to)
        body = decision.data if method in ("POST", "PUT", "PATCH") or decision.data is not None else None
        result = await ep.env.http.request(method, decision.url, params=decision.params or None, body=body)
        if result.ok and not result.error and ep.role("parser").accepts(ep, result):
            pending = {
                "decision": decision.model_dump(),
                "raw": reply.raw,
                "status": result.status,
                "text": result.text,
                "template": result.template,
            }
            return {"pending": pending, "route": parser_name}
        scratch.append(transcript(reply.raw, decision, _observation(result)))
        return {"scratch": scratch, "route": "caller"}

    async def parse(state: RestState, ep: Episode, meter: Meter) -> dict[str, Any]:
        pending = state.get("pending") or {}
        decision = CallerDecision.model_validate(pending["decision"])
        text = pending["text"]
        try:
            data = json.loads(text) if text.strip() else None
        except json.JSONDecodeError:
            data = None
        result = HttpResult(status=pending["status"], text=text, json=data, template=pending.get("template"))
        parsed = await ep.run("parser", decision=decision, result=result, plan_endpoint=state.get("endpoint"))
        entry = ep.role("caller").transcript(pending.get("raw", ""), decision, parsed)
        scratch = [*(state.get("scratch") or []), entry]
        return {"scratch": scratch, "pending": None, "route": "caller"}

    add_routed(graph, "caller", episodes, caller, ["caller", parser_name, return_to, "finish"])
    add_routed(graph, parser_name, episodes, parse, ["caller", "finish"])


def step_limit(state: RestState, scratch: list[str], cap: int, return_to: str) -> dict[str, Any]:
    last = scratch[-1].rsplit("Response:", 1)[-1].strip() if scratch else "nothing was executed"
    return finish_sub_task(
        state,
        f"Step limit reached (caller_iterations={cap}) before the caller finished the plan. Last observation: {last[:500]}",
        return_to,
    )


def start_api_plan(meter: Meter, api_plan: str, endpoint: str) -> dict[str, Any]:
    """Hand one API plan to the executor (fresh caller transcript and step count)."""
    meter.reset("caller_iterations")
    return {"api_plan": api_plan, "endpoint": endpoint, "scratch": [], "pending": None, "route": "caller"}
