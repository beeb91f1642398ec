"""``chat``: one model call, its text is the answer. The simplest graph, for smoke runs."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage
from langgraph.graph import END, START, StateGraph
from pydantic import Field

from graphs.registry import register_agent
from tools.options import Options


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


class ChatVoteOptions(Options):
    calls: int = Field(3, ge=1, description="model calls (one graph step each) before the vote")


class VoteState(ChatState):
    samples: NotRequired[list[str]]


def build_chat_vote(model: BaseChatModel | None, env: Any, options: dict[str, Any]) -> Any:
    """``chat-vote``: ask the same question ``calls`` times (one graph step each) and answer with the
    most frequent reply (self-consistency voting; ties go to the earliest reply). With a sampling
    model this is the classic majority-vote baseline; with a scripted model it is how the harness
    overhead per model call is measured (``bench/harness_overhead.py``)."""
    if model is None:
        raise ValueError("the chat-vote agent needs a model")
    calls = ChatVoteOptions.model_validate(options).calls

    async def sample(state: VoteState) -> dict[str, Any]:
        reply = await model.ainvoke([HumanMessage(state["instruction"])])
        text = reply.content if isinstance(reply.content, str) else str(reply.content)
        return {"samples": [*state.get("samples", []), text.strip()]}

    def vote(state: VoteState) -> dict[str, Any]:
        samples = state.get("samples", [])
        best = max(samples, key=lambda s: (samples.count(s), -samples.index(s))) if samples else None
        return {"final_answer": best, "status": "finished"}

    def more(state: VoteState) -> str:
        return "sample" if len(state.get("samples", [])) < calls else "vote"

    graph = StateGraph(VoteState)
    graph.add_node("sample", sample)
    graph.add_node("vote", vote)
    graph.add_edge(START, "sample")
    graph.add_conditional_edges("sample", more, ["sample", "vote"])
    graph.add_edge("vote", END)
    return graph.compile()


register_agent("chat-vote", build_chat_vote, env_kind="none", description="CALLS model calls (-A calls=3), majority answer", options=ChatVoteOptions)
