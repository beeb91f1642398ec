"""Ensembles ``X-cb`` (the paper's X->CB): run agent X, and answer with CB-1S whenever X abstains,
answers empty, or stops at any limit, by construction rather than by X's cooperation.

X runs as a bounded sub-invocation inside the ``primary`` node of a two-node graph
(``primary`` -> ``fallback``), so nothing X does can keep the fallback from running:

- **steps**: X gets the run's LangGraph recursion limit minus the outer graph's own steps; when X
  exceeds it, its ``GraphRecursionError`` is caught here;
- **time**: X runs under ``asyncio.wait_for`` with the episode's remaining time minus a reserved
  share (``fallback_share``, from ``restgraph.tools.episode_limits``), so CB-1S still has time;
- **tokens / cost**: before each of X's model calls, a callback stops X once the episode has spent
  ``1 - fallback_share`` of its token or cost limit;
- **errors**: any exception X raises (browser crash, search failure, model error) is caught;
- **no answer**: X's answer is empty in any spelling, or its status is not ``finished``.

``state["ensemble"]`` records which path answered (``answered_by``: ``primary`` / ``fallback``),
X's status, error and answer, and why the fallback ran; ``answer_source`` is X's when X answered,
else ``cb_1s``. The ensemble's options are X's plus ``fallback_share``.

``register_ensemble(x, name)`` registers ``name`` for a registered agent ``x``; the module
registers the paper's Table 1 ensembles over the agents that exist.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any, NotRequired, TypedDict

from langchain_core.callbacks import BaseCallbackHandler, BaseCallbackManager
from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import RunnableConfig
from langgraph.errors import GraphRecursionError
from langgraph.graph import END, START, StateGraph
from pydantic import Field

from restgraph.agents.browser.closed_book_paper import is_abstention, paper_closed_book_answer
from restgraph.graphs.registry import AgentSpec, get_agent, register_agent
from restgraph.tools.episode_limits import EPISODE_LIMITS
from restgraph.tools.options import Options

#: graph steps the outer graph takes itself (primary, fallback) plus one of slack
OWN_STEPS = 3
#: the recursion limit assumed when the caller sets none (LangGraph's default)
DEFAULT_RECURSION_LIMIT = 25


class EnsembleState(TypedDict):
    instruction: str
    task_id: NotRequired[str]
    gold: NotRequired[Any]
    final_answer: NotRequired[str | None]
    status: NotRequired[str]
    error: NotRequired[str | None]
    answer_source: NotRequired[str]
    browse_outcome: NotRequired[str]
    ensemble: NotRequired[dict[str, Any]]


class EnsembleOptions(Options):
    fallback_share: float = Field(
        0.25,
        gt=0,
        lt=1,
        description="share of the episode's remaining time and of its token/cost limits held back for the CB-1S fallback",
    )


class PrimaryBudget(RuntimeError):
    """X has spent its share of the episode's token or cost limit."""


class _SpendGuard(BaseCallbackHandler):
    """Stops X before a model call once its share of the token/cost limit is spent."""

    raise_error = True
    run_inline = True

    def __init__(self, spend: Any, share: float):
        self.spend, self.share = spend, share

    def _check(self) -> None:
        for used, limit, what in (("tokens", "token_limit", "token"), ("cost", "cost_limit", "cost")):
            cap = getattr(self.spend, limit, None)
            if cap is not None and getattr(self.spend, used, 0) >= cap * (1 - self.share):
                raise PrimaryBudget(
                    f"the agent spent its share ({1 - self.share:.0%}) of the episode's {what} limit {cap}"
                )

    def on_chat_model_start(self, *args: Any, **kwargs: Any) -> None:
        self._check()

    def on_llm_start(self, *args: Any, **kwargs: Any) -> None:
        self._check()


def _with_guard(callbacks: Any, guard: BaseCallbackHandler) -> Any:
    if isinstance(callbacks, BaseCallbackManager):
        manager = callbacks.copy()
        manager.add_handler(guard, inherit=True)
        return manager
    return [*(callbacks or []), guard]


def _split_options(options: dict[str, Any]) -> tuple[dict[str, Any], EnsembleOptions]:
    own = {k: v for k, v in options.items() if k in EnsembleOptions.model_fields}
    return {k: v for k, v in options.items() if k not in own}, EnsembleOptions.model_validate(own)


def build_ensemble(primary: AgentSpec, model: BaseChatModel | None, env: Any, options: dict[str, Any]) -> Any:
    if model is None:
        raise ValueError("an X-cb ensemble needs a model (CB-1S is one)")
    inner_options, opts = _split_options(options)
    inner = primary.build(model, env, inner_options)
    name = primary.name

    async def run_primary(state: EnsembleState, config: RunnableConfig) -> dict[str, Any]:
        limits = EPISODE_LIMITS.get()
        remaining = limits.remaining_s() if limits is not None else None
        timeout = None if remaining is None else max(0.0, remaining * (1 - opts.fallback_share))
        steps = int(config.get("recursion_limit") or DEFAULT_RECURSION_LIMIT) - OWN_STEPS
        inner_config: RunnableConfig = {**config, "recursion_limit": max(1, steps)}
        if limits is not None and limits.spend is not None:
            inner_config["callbacks"] = _with_guard(
                config.get("callbacks"), _SpendGuard(limits.spend, opts.fallback_share)
            )
        inner_input = {k: v for k, v in state.items() if k in ("instruction", "task_id", "gold")}
        info: dict[str, Any] = {
            "primary": name,
            "primary_timeout_s": None if timeout is None else round(timeout, 3),
            "primary_recursion_limit": max(1, steps),
        }
        try:
            result = await asyncio.wait_for(inner.ainvoke(inner_input, inner_config), timeout)
        except GraphRecursionError:
            return {
                "ensemble": {
                    **info,
                    "primary_status": "budget_exhausted",
                    "reason": f"step limit: {max(1, steps)} graph steps",
                }
            }
        except TimeoutError:
            return {
                "ensemble": {
                    **info,
                    "primary_status": "error:timeout",
                    "reason": f"time limit: {timeout:.1f}s of the episode (the rest is the fallback's)",
                }
            }
        except PrimaryBudget as exc:
            return {"ensemble": {**info, "primary_status": "budget_exhausted", "reason": str(exc)}}
        except Exception as exc:  # any failure of X is the fallback's cue, recorded
            return {
                "ensemble": {
                    **info,
                    "primary_status": f"error:{type(exc).__name__}",
                    "reason": f"error: {type(exc).__name__}: {exc}"[:500],
                }
            }
        answer, status = result.get("final_answer"), result.get("status") or "finished"
        info |= {"primary_status": status, "primary_answer": answer, "primary_error": result.get("error")}
        update: dict[str, Any] = {k: result[k] for k in ("browse_outcome",) if k in result}
        if status == "finished" and not is_abstention(answer):
            return {
                **update,
                "final_answer": answer,
                "status": "finished",
                "answer_source": result.get("answer_source") or name,
                "ensemble": {**info, "answered_by": "primary"},
            }
        return {
            **update,
            "ensemble": {**info, "reason": "abstained" if status == "finished" else f"stopped: {status}"},
        }

    async def fallback(state: EnsembleState) -> dict[str, Any]:
        info = state.get("ensemble", {})
        if info.get("answered_by") == "primary":
            return {}
        answer = await paper_closed_book_answer(model, state["instruction"], one_shot=True)
        abstained = is_abstention(answer)
        return {
            "final_answer": answer,
            "status": "finished",
            "error": None,
            "answer_source": "none" if abstained else "cb_1s",
            "ensemble": {**info, "answered_by": "none" if abstained else "fallback"},
        }

    graph = StateGraph(EnsembleState)
    graph.add_node("primary", run_primary)
    graph.add_node("fallback", fallback)
    graph.add_edge(START, "primary")
    graph.add_edge("primary", "fallback")
    graph.add_edge("fallback", END)
    return graph.compile()


def register_ensemble(primary_name: str, name: str | None = None, *, description: str = "") -> AgentSpec:
    """Register ``name`` (default ``<primary>-cb``): ``primary`` with the CB-1S fallback. The
    ensemble belongs to the module that registers it (the plugin registry's provenance)."""
    primary = get_agent(primary_name)
    owner = sys._getframe(1).f_globals.get("__name__", __name__)
    options = type(
        f"{primary.options_model.__name__}WithFallback",
        (primary.options_model, EnsembleOptions),
        {"__doc__": f"{primary_name}'s options and the fallback's share."},
    )

    def builder(model: BaseChatModel | None, env: Any, opts: dict[str, Any]) -> Any:
        return build_ensemble(get_agent(primary_name), model, env, opts)

    builder.__module__ = owner

    inner_budget = primary.step_budget

    def step_budget(opts: dict[str, Any]) -> int:
        assert inner_budget is not None
        return inner_budget(_split_options(opts)[0]) + OWN_STEPS

    return register_agent(
        name or f"{primary_name}-cb",
        builder,
        env_kind=primary.env_kind,
        description=description
        or f"{primary_name}, falling back to CB-1S when it abstains or stops at a limit ({primary_name}->CB)",
        step_budget=step_budget if inner_budget is not None else None,
        options=options,
        defaults=primary.defaults,
    )


#: the paper's Table 1 ensembles over the agents restgraph has: (primary agent, ensemble name)
ENSEMBLES = [
    ("spa", "spa-cb"),
    ("seeact", "seeact-cb"),
    ("aria", "aria-cb"),
    ("browser", "browser-cb"),
    ("ralm-inst", "ralm-inst-cb"),
    ("ralm-1s", "ralm-1s-cb"),
]
for _primary, _name in ENSEMBLES:
    register_ensemble(_primary, _name)
