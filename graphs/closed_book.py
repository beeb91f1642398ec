"""The paper's closed-book agents (AssistantBench §5.1, Fig. 17), one model call each:

- ``cb-inst``: zero-shot chain of thought ("Thought:" steps, then "The final answer is:");
- ``cb-1s``: the one-shot self-ask prompt (the fallback of every ``X-cb`` ensemble).

The prompts are parsed from the paper's text at run time (``restgraph.agents.browser.paper_prompts``); the
answer is returned raw (``restgraph.agents.browser.closed_book_paper``). ``answer_source`` is ``cb_inst`` /
``cb_1s``, or ``none`` when the model abstained.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from langchain_core.language_models import BaseChatModel
from langgraph.graph import END, START, StateGraph

from restgraph.agents.browser.closed_book_paper import is_abstention, paper_closed_book_answer
from restgraph.graphs.registry import register_agent


class ClosedBookState(TypedDict):
    instruction: str
    task_id: NotRequired[str]
    final_answer: NotRequired[str | None]
    status: NotRequired[str]
    error: NotRequired[str | None]
    answer_source: NotRequired[str]


def build_paper_closed_book(
    model: BaseChatModel | None, env: Any, options: dict[str, Any], *, one_shot: bool
) -> Any:
    if model is None:
        raise ValueError("the closed-book agents need a model")
    source = "cb_1s" if one_shot else "cb_inst"

    async def answer(state: ClosedBookState) -> dict[str, Any]:
        text = await paper_closed_book_answer(model, state["instruction"], one_shot=one_shot)
        return {
            "final_answer": text,
            "status": "finished",
            "answer_source": "none" if is_abstention(text) else source,
        }

    graph = StateGraph(ClosedBookState)
    graph.add_node("answer", answer)
    graph.add_edge(START, "answer")
    graph.add_edge("answer", END)
    return graph.compile()


def build_cb_inst(model: BaseChatModel | None, env: Any, options: dict[str, Any]) -> Any:
    return build_paper_closed_book(model, env, options, one_shot=False)


def build_cb_1s(model: BaseChatModel | None, env: Any, options: dict[str, Any]) -> Any:
    return build_paper_closed_book(model, env, options, one_shot=True)


register_agent(
    "cb-inst",
    build_cb_inst,
    env_kind="browser",
    description="AssistantBench CB-INST: closed-book, zero-shot chain of thought (paper Fig. 17)",
)
register_agent(
    "cb-1s",
    build_cb_1s,
    env_kind="browser",
    description="AssistantBench CB-1S: closed-book, one-shot self-ask example (paper Fig. 17)",
)
