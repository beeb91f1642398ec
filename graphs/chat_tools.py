"""``chat-tools``: a tool-calling loop (model -> tools -> model ...) until the model calls ``submit``.

The smallest agent with a tool call per turn. It exists for two reasons: it is the shape of most
tool-use agents people write in a notebook, and it is the workload the harness is compared on
against a bare LangGraph loop and inspect_ai (``bench/harness_ab.py``: 200 episodes x 3 turns, a
tool call per turn). ``scripted:smoke-tools`` drives it on ``smoke`` (two ``add`` calls, then
``submit`` with the answer).
"""

from __future__ import annotations

import json
from typing import Any, NotRequired, TypedDict

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage
from langchain_core.tools import tool
from langchain_core.utils.function_calling import convert_to_openai_tool
from langgraph.graph import END, START, StateGraph
from pydantic import Field

from restgraph.graphs.episode_context import EpisodeContext, episode
from restgraph.graphs.registry import register_agent
from restgraph.tools.options import Options


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@tool
def submit(answer: str) -> str:
    """Submit the final answer; ends the episode."""
    return answer


TOOLS = {t.name: t for t in (add, submit)}
#: the tools' OpenAI-style schemas, converted once (``bind_tools`` then has nothing to convert)
SCHEMAS = [convert_to_openai_tool(t) for t in TOOLS.values()]


class ChatToolsOptions(Options):
    max_turns: int = Field(10, ge=1, description="model calls before the episode stops without an answer")


class ChatToolsState(TypedDict):
    instruction: str
    task_id: NotRequired[str]
    messages: NotRequired[list[AnyMessage]]
    final_answer: NotRequired[str | None]
    status: NotRequired[str]


def build_chat_tools(model: BaseChatModel | None, env: Any, options: dict[str, Any]) -> Any:
    """Compiled once per run; the episode's model (tools bound once per episode) comes from the
    runtime context."""
    max_turns = ChatToolsOptions.model_validate(options).max_turns
    fallback = EpisodeContext(model, env)

    async def call_model(state: ChatToolsState) -> dict[str, Any]:
        messages = state.get("messages") or [HumanMessage(state["instruction"])]
        bound = episode(fallback).part("bound", lambda ctx: ctx.need_model("chat-tools").bind_tools(SCHEMAS))
        reply = await bound.ainvoke(messages)
        return {"messages": [*messages, reply]}

    async def call_tools(state: ChatToolsState) -> dict[str, Any]:
        messages = state.get("messages", [])
        reply = messages[-1]
        assert isinstance(reply, AIMessage)
        results: list[ToolMessage] = []
        for call in reply.tool_calls:
            chosen = TOOLS.get(call["name"])
            if chosen is None:
                results.append(
                    ToolMessage(
                        f"unknown tool {call['name']!r}", tool_call_id=call["id"] or "", status="error"
                    )
                )
                continue
            output = await chosen.ainvoke(call["args"])
            if chosen is submit:
                return {"messages": messages, "final_answer": str(output), "status": "finished"}
            results.append(ToolMessage(json.dumps(output), tool_call_id=call["id"] or ""))
        return {"messages": [*messages, *results]}

    def after_model(state: ChatToolsState) -> str:
        reply = state.get("messages", [])[-1]
        if isinstance(reply, AIMessage) and reply.tool_calls:
            return "tools"
        return "give_up"

    def after_tools(state: ChatToolsState) -> str:
        if state.get("status"):
            return END
        turns = sum(isinstance(m, AIMessage) for m in state.get("messages", []))
        return "model" if turns < max_turns else "give_up"

    def give_up(state: ChatToolsState) -> dict[str, Any]:
        reply = state.get("messages", [])[-1]
        text = reply.content if isinstance(reply, AIMessage) and isinstance(reply.content, str) else None
        return {"final_answer": text or None, "status": "finished" if text else "no_answer"}

    graph = StateGraph(ChatToolsState, context_schema=EpisodeContext)
    graph.add_node("model", call_model)
    graph.add_node("tools", call_tools)
    graph.add_node("give_up", give_up)
    graph.add_edge(START, "model")
    graph.add_conditional_edges("model", after_model, ["tools", "give_up"])
    graph.add_conditional_edges("tools", after_tools, ["model", "give_up", END])
    graph.add_edge("give_up", END)
    return graph.compile()


register_agent(
    "chat-tools",
    build_chat_tools,
    env_kind="none",
    options=ChatToolsOptions,
    per_run=True,
    description="tool-calling loop (add, submit) until the model submits; the A/B workload of bench/harness_ab.py",
)
