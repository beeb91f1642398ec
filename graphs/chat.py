"""``chat``: one model call, its text is the answer. The simplest graph, for smoke runs.

Both agents here are compiled once per run (``per_run=True``): the episode's model comes from the
runtime context (``restgraph.graphs.episode_context``).
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage
from langgraph.graph import END, START, StateGraph
from pydantic import Field

from restgraph.graphs.episode_context import EpisodeContext, episode
from restgraph.graphs.registry import register_agent
from restgraph.tools.options import Options


class ChatState(TypedDict):
    instruction: str
    task_id: NotRequired[str]
    final_answer: NotRequired[str | None]
    status: NotRequired[str]


async def _ask(fallback: EpisodeContext, agent: str, instruction: str) -> str:
    reply = await episode(fallback).need_model(agent).ainvoke([HumanMessage(instruction)])
    text = reply.content if isinstance(reply.content, str) else str(reply.content)
    return text.strip()


def build_chat(model: BaseChatModel | None, env: Any, options: dict[str, Any]) -> Any:
    fallback = EpisodeContext(model, env)

    async def answer(state: ChatState) -> dict[str, Any]:
        return {"final_answer": await _ask(fallback, "chat", state["instruction"]), "status": "finished"}

    graph = StateGraph(ChatState, context_schema=EpisodeContext)
    graph.add_node("answer", answer)
    graph.add_edge(START, "answer")
    graph.add_edge("answer", END)
    return graph.compile()


register_agent(
    "chat",
    build_chat,
    env_kind="none",
    description="single model call; the reply is the answer",
    per_run=True,
)


class ChatVoteOptions(Options):
    calls: int = Field(3, ge=1, description="model calls (one graph step each) before the vote")


class VoteState(ChatState):
    samples: NotRequired[list[str]]


def build_chat_vote(model: BaseChatModel | None, env: Any, options: dict[str, Any]) -> Any:
    """``chat-vote``: ask the same question ``calls`` times (one graph step each) and answer with the
    most frequent reply (self-consistency voting; ties go to the earliest reply). With a sampling
    model this is the classic majority-vote baseline; with a scripted model it is how the harness
    overhead per model call is measured (``bench/harness_overhead.py``)."""
    calls = ChatVoteOptions.model_validate(options).calls
    fallback = EpisodeContext(model, env)

    async def sample(state: VoteState) -> dict[str, Any]:
        return {
            "samples": [*state.get("samples", []), await _ask(fallback, "chat-vote", state["instruction"])]
        }

    def vote(state: VoteState) -> dict[str, Any]:
        samples = state.get("samples", [])
        best = max(samples, key=lambda s: (samples.count(s), -samples.index(s))) if samples else None
        return {"final_answer": best, "status": "finished"}

    def more(state: VoteState) -> str:
        return "sample" if len(state.get("samples", [])) < calls else "vote"

    graph = StateGraph(VoteState, context_schema=EpisodeContext)
    graph.add_node("sample", sample)
    graph.add_node("vote", vote)
    graph.add_edge(START, "sample")
    graph.add_conditional_edges("sample", more, ["sample", "vote"])
    graph.add_edge("vote", END)
    return graph.compile()


register_agent(
    "chat-vote",
    build_chat_vote,
    env_kind="none",
    description="CALLS model calls (-A calls=3), majority answer",
    options=ChatVoteOptions,
    per_run=True,
)
