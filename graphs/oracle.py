"""``oracle``: replays a task's reference solution through the environment's HTTP tool.

It needs no model. Reference calls are ``{"method", "path", "params", "body"}``; any string in
them (and in ``reference_answer``) may hold ``${N.a.b.0}``: the JSON of the Nth earlier response of
this episode, followed along a dotted path (integers index lists). A placeholder that is the
whole string keeps the value's type. The oracle proves that a benchmark's reference solutions,
sandbox and scorer agree; it is the ceiling every other agent is compared with.
"""

from __future__ import annotations

import json
import re
from typing import Any, NotRequired, TypedDict

from langgraph.graph import END, START, StateGraph

from graphs.registry import register_agent

_PLACEHOLDER = re.compile(r"\$\{(\d+)((?:\.[^.}]+)*)\}")


class ReferenceError_(KeyError):
    """A placeholder that points at nothing (a reference-solution bug, reported with its path)."""


def _lookup(responses: list[Any], index: int, dotted: str) -> Any:
    if index >= len(responses):
        raise ReferenceError_(f"${{{index}{dotted}}}: only {len(responses)} responses so far")
    value = responses[index]
    for part in [p for p in dotted.split(".") if p]:
        try:
            value = value[int(part)] if isinstance(value, list) else value[part]
        except (KeyError, IndexError, ValueError, TypeError) as exc:
            raise ReferenceError_(f"${{{index}{dotted}}}: no {part!r} in {json.dumps(value)[:200]}") from exc
    return value


def substitute(obj: Any, responses: list[Any]) -> Any:
    """Resolve placeholders in strings, recursively through dicts and lists."""
    if isinstance(obj, str):
        whole = _PLACEHOLDER.fullmatch(obj)
        if whole:
            return _lookup(responses, int(whole.group(1)), whole.group(2))
        return _PLACEHOLDER.sub(lambda m: str(_lookup(responses, int(m.group(1)), m.group(2))), obj)
    if isinstance(obj, dict):
        return {k: substitute(v, responses) for k, v in obj.items()}
    if isinstance(obj, list):
        return [substitute(v, responses) for v in obj]
    return obj


class OracleState(TypedDict):
    instruction: str
    task_id: NotRequired[str]
    gold: NotRequired[dict[str, Any]]
    responses: NotRequired[list[Any]]
    final_answer: NotRequired[str | None]
    status: NotRequired[str]
    error: NotRequired[str | None]


def build_oracle(model: Any, env: Any, options: dict[str, Any]) -> Any:
    """``env`` must have an ``http`` tool (``tools.openapi.HttpTool``); the runner puts ``gold`` in the state."""

    async def call(state: OracleState) -> dict[str, Any]:
        responses = list(state.get("responses", []))
        ref = state["gold"]["reference_calls"][len(responses)]
        request = substitute(ref, responses)
        result = await env.http.request(request["method"], request["path"], params=request.get("params"), body=request.get("body"))
        responses.append(result.json)
        return {"responses": responses}

    def answer(state: OracleState) -> dict[str, Any]:
        text = substitute(state.get("gold", {}).get("reference_answer", ""), state.get("responses", []))
        return {"final_answer": str(text), "status": "finished"}

    def route(state: OracleState) -> str:
        return "call" if len(state.get("responses", [])) < len(state.get("gold", {}).get("reference_calls", [])) else "answer"

    graph = StateGraph(OracleState)
    graph.add_node("call", call)
    graph.add_node("answer", answer)
    graph.add_conditional_edges(START, route, ["call", "answer"])
    graph.add_conditional_edges("call", route, ["call", "answer"])
    graph.add_edge("answer", END)
    return graph.compile()


register_agent("oracle", build_oracle, env_kind="openapi", needs_model=False, needs_gold=True, description="replays the reference solution (no model); the score ceiling")
