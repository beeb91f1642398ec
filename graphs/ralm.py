"""The paper's retrieval-augmented agents (AssistantBench §5.1, §A.6, Fig. 18): self-ask with search.

- ``ralm-inst``: the Fig. 18 system prompt, no example;
- ``ralm-1s``: the same with the figure's one-shot example (a search per intermediate question).

Loop: ``think`` (one model turn) -> ``search`` (the intermediate question sent to the search
backend, its top results appended as numbered contexts) -> ``think`` ... until the model writes
"So the final answer is:". Bounded: at most ``max_searches`` searches (the paper's ten) and
``max_parse_failures`` turns in a row with neither a question nor an answer; either limit ends the
episode without an answer (``status`` ``budget_exhausted`` / ``error:parse``), which an ``X-cb``
ensemble turns into a CB-1S fallback.

Search backend (``-A search=``): ``auto`` uses the environment's own engine (``env.search``, set by
``assistantbench-local``), else, offline, the local FTS5 index of the served start site, else the
online backend (Brave, ``BRAVE_SEARCH_API_KEY``); ``local`` / ``brave`` force one.
"""

from __future__ import annotations

import asyncio
from typing import Any, Literal, NotRequired, TypedDict
from urllib.parse import urlsplit

from langchain_core.language_models import BaseChatModel
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command
from pydantic import Field

from restgraph.agents.browser.closed_book_paper import is_abstention, reply_text
from restgraph.agents.browser.ralm import context_lines, ralm_messages, read_turn
from restgraph.graphs.registry import register_agent
from restgraph.tools.events import parse_outcome
from restgraph.tools.options import Options
from restgraph.tools.search import SearchBackend, SearchError, make_backend


class RalmState(TypedDict):
    instruction: str
    task_id: NotRequired[str]
    contexts: NotRequired[list[str]]
    generations: NotRequired[list[str]]
    query: NotRequired[str]
    searches: NotRequired[int]
    parse_failures: NotRequired[int]
    final_answer: NotRequired[str | None]
    status: NotRequired[str]
    error: NotRequired[str | None]
    answer_source: NotRequired[str]


class RalmOptions(Options):
    max_searches: int = Field(10, ge=1, le=100, description="searches per episode (the paper's limit: ten)")
    results_per_search: int = Field(
        1,
        ge=1,
        le=10,
        description="search results added as contexts per intermediate question (the figure's example shows one)",
    )
    max_parse_failures: int = Field(
        2,
        ge=1,
        le=10,
        description="turns in a row with neither an intermediate question nor a final answer before giving up",
    )
    search: Literal["auto", "local", "brave"] = Field(
        "auto",
        description=(
            "search backend: auto (the benchmark's engine, else local offline, else brave), local "
            "(FTS5 over the served site) or brave (BRAVE_SEARCH_API_KEY)"
        ),
    )


def step_budget(options: dict[str, Any]) -> int:
    """Graph steps an episode may take: a think and a search per search, the failed turns, slack."""
    opts = RalmOptions.model_validate(options)
    return 2 * opts.max_searches + opts.max_parse_failures + 4


def search_backend(env: Any, choice: str) -> SearchBackend:
    """The backend ``-A search=`` names for this environment (see the module docstring)."""
    own = getattr(env, "search", None)
    if choice == "auto" and own is not None:
        return own
    start = str(getattr(env, "start_url", "") or "")
    offline = bool(getattr(getattr(env, "config", None), "offline", False))
    if choice == "local" or (choice == "auto" and offline):
        parts = urlsplit(start)
        return make_backend("local", site_url=f"{parts.scheme}://{parts.netloc}" if parts.netloc else None)
    return make_backend("brave")


def build_ralm(model: BaseChatModel | None, env: Any, options: dict[str, Any], *, one_shot: bool) -> Any:
    if model is None:
        raise ValueError("the retrieval-augmented agents need a model")
    opts = RalmOptions.model_validate(options)
    source = "ralm_1s" if one_shot else "ralm_inst"
    role = source
    backend: list[SearchBackend] = []  # built on the first search (a closed-book answer needs none)

    async def think(state: RalmState) -> Command[Literal["search", "think", "finish"]]:
        contexts, generations = state.get("contexts", []), state.get("generations", [])
        reply = await model.ainvoke(
            ralm_messages(state["instruction"], contexts, generations, one_shot=one_shot)
        )
        kind, value, text = read_turn(reply_text(reply))
        if kind == "answer":
            parse_outcome(reply, parsed={"answer": value}, role=role)
            return Command(goto="finish", update={"final_answer": value, "generations": [*generations, text]})
        if kind == "question":
            parse_outcome(reply, parsed={"question": value}, role=role)
            if state.get("searches", 0) >= opts.max_searches:
                return Command(
                    goto="finish",
                    update={
                        "status": "budget_exhausted",
                        "error": f"search budget of {opts.max_searches} reached without a final answer",
                    },
                )
            return Command(
                goto="search",
                update={"query": value, "generations": [*generations, text], "parse_failures": 0},
            )
        parse_outcome(reply, parse_error=value, role=role)
        failures = state.get("parse_failures", 0) + 1
        if failures >= opts.max_parse_failures:
            return Command(
                goto="finish",
                update={
                    "parse_failures": failures,
                    "status": "error:parse",
                    "error": f"{failures} unparseable turns in a row: {value}",
                },
            )
        return Command(goto="think", update={"parse_failures": failures})

    async def search(state: RalmState) -> dict[str, Any]:
        contexts = state.get("contexts", [])
        try:
            if not backend:
                backend.append(await asyncio.to_thread(search_backend, env, opts.search))
            results = await asyncio.to_thread(backend[0].search, state["query"], opts.results_per_search)
        except SearchError as exc:
            return {"searches": state.get("searches", 0) + 1, "status": "error:search", "error": str(exc)}
        return {
            "searches": state.get("searches", 0) + 1,
            "contexts": [*contexts, *context_lines(results, len(contexts) + 1)],
        }

    def after_search(state: RalmState) -> str:
        return "finish" if state.get("status") == "error:search" else "think"

    async def finish(state: RalmState) -> dict[str, Any]:
        answer = state.get("final_answer") or ""
        return {
            "final_answer": answer,
            "status": state.get("status") or "finished",
            "answer_source": "none" if is_abstention(answer) else source,
        }

    graph = StateGraph(RalmState)
    graph.add_node("think", think)
    graph.add_node("search", search)
    graph.add_node("finish", finish)
    graph.add_edge(START, "think")
    graph.add_conditional_edges("search", after_search, ["think", "finish"])
    graph.add_edge("finish", END)
    return graph.compile()


def build_ralm_inst(model: BaseChatModel | None, env: Any, options: dict[str, Any]) -> Any:
    return build_ralm(model, env, options, one_shot=False)


def build_ralm_1s(model: BaseChatModel | None, env: Any, options: dict[str, Any]) -> Any:
    return build_ralm(model, env, options, one_shot=True)


register_agent(
    "ralm-inst",
    build_ralm_inst,
    env_kind="browser",
    description="AssistantBench RALM-INST: a search tool through intermediate questions, no example (paper Fig. 18)",
    step_budget=step_budget,
    options=RalmOptions,
)
register_agent(
    "ralm-1s",
    build_ralm_1s,
    env_kind="browser",
    description="AssistantBench RALM-1S: self-ask with search, one-shot example (paper Fig. 18)",
    step_budget=step_budget,
    options=RalmOptions,
)
