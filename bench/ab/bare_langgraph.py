"""The floor of ``bench/harness_ab.py``: the same tool-calling loop as ``chat-tools`` written as a
bare LangGraph graph, compiled once, driven by a minimal fake chat model, with no tracing, no
callbacks, no scoring and no files. Prints nothing but the count of correct answers.

    python bench/ab/bare_langgraph.py --episodes 200 --concurrency 32
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
from typing import Any, NotRequired, TypedDict

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AnyMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import tool
from langgraph.graph import END, START, StateGraph


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@tool
def submit(answer: str) -> str:
    """Submit the final answer."""
    return answer


class FakeModel(BaseChatModel):
    """Two ``add`` calls, then ``submit`` with the sum of the question's numbers."""

    @property
    def _llm_type(self) -> str:
        return "fake"

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> ChatResult:
        turn = sum(isinstance(m, ToolMessage) for m in messages)
        a, b = (int(x) for x in re.findall(r"\d+", str(messages[0].content))[:2])
        call = (
            {"name": "add", "args": {"a": a, "b": turn}, "id": f"c{turn}"}
            if turn < 2
            else {"name": "submit", "args": {"answer": str(a + b)}, "id": f"c{turn}"}
        )
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content="", tool_calls=[call]))])

    async def _agenerate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> ChatResult:
        return self._generate(messages)

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        return self


class State(TypedDict):
    messages: list[AnyMessage]
    answer: NotRequired[str]


def build() -> Any:
    model = FakeModel().bind_tools([add, submit])
    tools = {"add": add, "submit": submit}

    async def call_model(state: State) -> dict[str, Any]:
        return {"messages": [*state["messages"], await model.ainvoke(state["messages"])]}

    async def call_tools(state: State) -> dict[str, Any]:
        reply = state["messages"][-1]
        out: list[AnyMessage] = []
        for call in reply.tool_calls:  # type: ignore[union-attr]
            result = await tools[call["name"]].ainvoke(call["args"])
            if call["name"] == "submit":
                return {"answer": str(result)}
            out.append(ToolMessage(json.dumps(result), tool_call_id=call["id"]))
        return {"messages": [*state["messages"], *out]}

    graph = StateGraph(State)
    graph.add_node("model", call_model)
    graph.add_node("tools", call_tools)
    graph.add_edge(START, "model")
    graph.add_edge("model", "tools")
    graph.add_conditional_edges("tools", lambda s: END if "answer" in s else "model", ["model", END])
    return graph.compile()


async def main(episodes: int, concurrency: int) -> int:
    graph = build()
    rng = random.Random(7)
    questions = [(rng.randint(2, 60), rng.randint(2, 40)) for _ in range(episodes)]
    gate = asyncio.Semaphore(concurrency)

    async def one(a: int, b: int) -> bool:
        async with gate:
            final = await graph.ainvoke(
                {"messages": [HumanMessage(f"What is {a} + {b}? Reply with the number only.")]}
            )
            return bool(final.get("answer") == str(a + b))

    return sum(await asyncio.gather(*(one(a, b) for a, b in questions)))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--episodes", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=32)
    args = parser.parse_args()
    print(asyncio.run(main(args.episodes, args.concurrency)))
