"""``chat``: one model call, its text is the answer. The simplest graph, for smoke runs."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage
from langgraph.graph import END, START, StateGraph

from graphs.registry import register_agent


class ChatState(TypedDict):
    instruction: str
    task_id: NotRequired[str]
    final_answer: NotRequired[str | None]
    status: NotRequired[str]


def build_chat(model: BaseChatModel | None, env: Any, options: dict[str, Any]) -> Any:
    if model is None:
        raise ValueError("the chat agent needs a model")

    async def answer(state: ChatState) -> dict[str, Any]:
        reply = await model.ainvoke([HumanMessage(state["instruction"])])
        text = reply.content if isinstance(reply.content, str) else str(reply.content)
        return {"final_answer": text.strip(), "status": "finished"}

    graph = StateGraph(ChatState)
    graph.add_node("answer", answer)
    graph.add_edge(START, "answer")
    graph.add_edge("answer", END)
    return graph.compile()


register_agent("chat", build_chat, env_kind="none", description="single model call; the reply is the answer")
