"""Browsing agents for AssistantBench.

- ``aria`` (also registered as ``browser``, its former name): restgraph's own aria-snapshot text
  agent, not the paper's SPA (that is ``spa`` in ``restgraph.graphs.browser_spa``). observe -> decide -> act
  over Playwright's AI-mode accessibility snapshot (text only, no screenshot, no plan or memory),
  looping until the policy answers, the step budget runs out, the loop detector fires, or the model
  keeps replying with unparseable text. Bounded by ``max_steps`` browser actions (default 20, HAL's
  browser-use setting) and ``max_parse_failures``.
- ``browser+cb``: ``aria``, then, when browsing ends without an answer (gave up, empty answer,
  budget, loop), the closed-book answerer (the paper's SPA->CB); ``answer_source`` records which
  path produced the answer.
- ``closed-book``: the closed-book answerer alone.

Graph steps per browser action are two (decide, act), so the runner's ``--max-steps`` (LangGraph
recursion limit, default 60) must exceed ``2 * max_steps + 4``.

Agent options (``-A k=v``): ``max_steps``, ``max_parse_failures`` (3), ``structured``
(``auto``/``1``/``0``: use the model's structured output or the plain-text protocol).
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

from langchain_core.language_models import BaseChatModel
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command
from pydantic import Field

from restgraph.agents.browser.answer import is_abstention
from restgraph.agents.browser.closed_book import closed_book_answer
from restgraph.agents.browser.policy import build_messages, decide
from restgraph.agents.models import supports_structured_output
from restgraph.graphs.registry import register_agent
from restgraph.tools.browser.actions import BrowserAction
from restgraph.tools.browser.env import BrowserEnv
from restgraph.tools.options import AutoBool, Options


class BrowserState(TypedDict):
    instruction: str
    task_id: NotRequired[str]
    observation: NotRequired[str]
    history: NotRequired[list[str]]
    action: NotRequired[dict[str, Any] | None]
    parse_failures: NotRequired[int]
    note: NotRequired[str]
    final_answer: NotRequired[str | None]
    status: NotRequired[str]
    error: NotRequired[str | None]
    #: "browser" | "closed_book" | "none": which path produced ``final_answer``
    answer_source: NotRequired[str]
    #: how browsing ended: answered | abstained | budget | loop | parse_failures | browser_error
    browse_outcome: NotRequired[str]


class BrowserOptions(Options):
    max_steps: int = Field(
        20, ge=1, description="browser actions per episode (HAL's browser-use setting: 20)"
    )
    max_parse_failures: int = Field(
        3, ge=1, description="unparseable replies in a row before browsing gives up"
    )
    structured: AutoBool = Field(
        None,
        description="0: the plain-text protocol; 1 or auto: structured output when the model supports it",
    )


def _use_structured(model: BaseChatModel, opts: BrowserOptions) -> bool:
    return opts.structured is not False and supports_structured_output(model)


def build_browser(
    model: BaseChatModel | None, env: Any, options: dict[str, Any], *, fallback: bool = False
) -> Any:
    if model is None:
        raise ValueError("the browser agent needs a model")
    if not isinstance(env, BrowserEnv):
        raise ValueError(f"the browser agent needs a BrowserEnv, got {type(env).__name__}")
    opts = BrowserOptions.model_validate(options)
    max_steps, max_parse_failures = opts.max_steps, opts.max_parse_failures
    structured = _use_structured(model, opts)
    env.max_steps = max_steps

    async def observe(state: BrowserState) -> dict[str, Any]:
        session = await env.session()
        session.max_steps = max_steps
        note = f"the start page failed to load: {session.start_error}" if session.start_error else ""
        return {"observation": await session.observe(note), "history": [], "parse_failures": 0}

    async def decide_node(state: BrowserState) -> Command[Literal["act", "decide", "finish"]]:
        session = await env.session()
        if session.steps >= max_steps:
            return Command(
                goto="finish",
                update={
                    "browse_outcome": "budget",
                    "error": f"step budget of {max_steps} browser actions reached",
                },
            )
        observation = state["observation"] + (f"\nNote: {state['note']}" if state.get("note") else "")
        messages = build_messages(state["instruction"], observation, state.get("history", []), max_steps)
        decision, parse_error = await decide(model, messages, structured=structured)
        if decision is None:
            failures = state.get("parse_failures", 0) + 1
            if failures >= max_parse_failures:
                return Command(
                    goto="finish",
                    update={
                        "parse_failures": failures,
                        "browse_outcome": "parse_failures",
                        "error": f"{failures} unparseable policy replies; last: {parse_error}",
                    },
                )
            hint = f"your last reply could not be parsed ({(parse_error or '')[:160]}); reply with one JSON action"
            return Command(goto="decide", update={"parse_failures": failures, "note": hint})
        action = decision.model_dump(exclude={"thought"})
        return Command(goto="act", update={"action": action, "note": ""})

    async def act(state: BrowserState) -> Command[Literal["decide", "finish"]]:
        action = BrowserAction.model_validate(state["action"])
        if action.action == "answer":
            answer = action.text or ""  # raw: the scorer gets what the model wrote
            outcome = "abstained" if is_abstention(answer) else "answered"
            return Command(goto="finish", update={"final_answer": answer, "browse_outcome": outcome})
        session = await env.session()
        result = await session.act(action)
        status = "ok" if result.ok else f"failed: {result.error}"
        if result.ok and not result.changed:
            status = "ok, but the page did not change"
        history = [*state.get("history", []), f"{action.describe()} -> {status}"]
        update: dict[str, Any] = {"observation": result.observation, "history": history}
        if session.loop_reason:
            return Command(
                goto="finish", update={**update, "browse_outcome": "loop", "error": session.loop_reason}
            )
        return Command(goto="decide", update=update)

    async def finish(state: BrowserState) -> dict[str, Any]:
        outcome = state.get("browse_outcome", "abstained")
        answer = state.get("final_answer") or ""
        if outcome == "answered":
            return {"status": "finished", "answer_source": "browser"}
        if fallback:
            cb = await closed_book_answer(model, state["instruction"])
            return {
                "final_answer": cb,
                "status": "finished",
                "answer_source": "none" if is_abstention(cb) else "closed_book",
            }
        status = "budget_exhausted" if outcome in ("budget", "loop") else "finished"
        if outcome == "parse_failures":
            status = "error:parse"
        return {
            "final_answer": answer,
            "status": status,
            "answer_source": "none",
        }  # an abstention, kept as written

    graph = StateGraph(BrowserState)
    graph.add_node("observe", observe)
    graph.add_node("decide", decide_node)
    graph.add_node("act", act)
    graph.add_node("finish", finish)
    graph.add_edge(START, "observe")
    graph.add_edge("observe", "decide")
    graph.add_edge("finish", END)
    return graph.compile()


def build_browser_cb(model: BaseChatModel | None, env: Any, options: dict[str, Any]) -> Any:
    return build_browser(model, env, options, fallback=True)


def build_closed_book(model: BaseChatModel | None, env: Any, options: dict[str, Any]) -> Any:
    if model is None:
        raise ValueError("the closed-book agent needs a model")

    async def answer(state: BrowserState) -> dict[str, Any]:
        text = await closed_book_answer(model, state["instruction"])
        return {
            "final_answer": text,
            "status": "finished",
            "answer_source": "none" if is_abstention(text) else "closed_book",
        }

    graph = StateGraph(BrowserState)
    graph.add_node("answer", answer)
    graph.add_edge(START, "answer")
    graph.add_edge("answer", END)
    return graph.compile()


register_agent(
    "aria",
    build_browser,
    env_kind="browser",
    description="aria-snapshot text browsing agent: observe -> decide -> act over Playwright's accessibility tree",
    options=BrowserOptions,
)
register_agent(
    "browser",
    build_browser,
    env_kind="browser",
    description="former name of aria (kept as an alias)",
    options=BrowserOptions,
)
register_agent(
    "browser+cb",
    build_browser_cb,
    env_kind="browser",
    description=(
        "aria text agent, then this project's own closed-book answer when browsing gives up (not "
        "the paper's ensemble: see spa-cb, seeact-cb, aria-cb)"
    ),
    options=BrowserOptions,
)
register_agent(
    "closed-book",
    build_closed_book,
    env_kind="browser",
    description="AssistantBench closed-book baseline (no browsing)",
)
