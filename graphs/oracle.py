"""``oracle``: replays a task's reference solution through the environment's HTTP tool.

It needs no model. Reference calls are ``{"method", "path", "params", "body"}``; any string in
them (and in ``reference_answer``) may hold ``${N.a.b.0}``: the JSON of the Nth earlier response of
this episode, followed along a dotted path (integers index lists). A placeholder that is the
whole string keeps the value's type. The oracle proves that a benchmark's reference solutions,
sandbox and scorer agree; it is the ceiling every other agent is compared with.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from restgraph.graphs.episode_context import EpisodeContext
from restgraph.graphs.registry import register_agent
from restgraph.tools.placeholders import ReferenceError_, substitute

__all__ = [
    "ReferenceError_",
    "build_oracle",
    "substitute",
]  # the placeholder helpers live in tools.placeholders


class OracleState(TypedDict):
    instruction: str
    task_id: NotRequired[str]
    gold: NotRequired[dict[str, Any]]
    responses: NotRequired[list[Any]]
    final_answer: NotRequired[str | None]
    status: NotRequired[str]
    error: NotRequired[str | None]


def build_oracle(model: Any, env: Any, options: dict[str, Any]) -> Any:
    """``env`` must have an ``http`` tool (``restgraph.tools.openapi.HttpTool``); the runner puts ``gold`` in the state.
    Compiled once per run: the episode's environment comes from the runtime context."""
    fallback = EpisodeContext(model, env)

    async def call(state: OracleState, runtime: Runtime[EpisodeContext]) -> dict[str, Any]:
        env = (runtime.context if isinstance(runtime.context, EpisodeContext) else fallback).env
        responses = list(state.get("responses", []))
        ref = state["gold"]["reference_calls"][len(responses)]
        request = substitute(ref, responses)
        result = await env.http.request(
            request["method"], request["path"], params=request.get("params"), body=request.get("body")
        )
        responses.append(result.json)
        return {"responses": responses}

    def answer(state: OracleState) -> dict[str, Any]:
        text = substitute(state.get("gold", {}).get("reference_answer", ""), state.get("responses", []))
        return {"final_answer": str(text), "status": "finished"}

    def route(state: OracleState) -> str:
        return (
            "call"
            if len(state.get("responses", [])) < len(state.get("gold", {}).get("reference_calls", []))
            else "answer"
        )

    graph = StateGraph(OracleState, context_schema=EpisodeContext)
    graph.add_node("call", call)
    graph.add_node("answer", answer)
    graph.add_conditional_edges(START, route, ["call", "answer"])
    graph.add_conditional_edges("call", route, ["call", "answer"])
    graph.add_edge("answer", END)
    return graph.compile()


register_agent(
    "oracle",
    build_oracle,
    env_kind="openapi",
    needs_model=False,
    needs_gold=True,
    per_run=True,
    description="replays the reference solution (no model); the score ceiling",
)
