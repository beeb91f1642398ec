"""Driving a compiled graph so each finished node becomes a trace step (``stream_graph``).

Beside ``Benchmark`` rather than in the runner: ``Benchmark.run_episode`` (and the benchmarks that
drive their graphs themselves) stream the graph, and the runner imports the benchmarks; here both
import it and neither imports the other back.
"""

from __future__ import annotations

import json
from typing import Any

from langchain_core.messages import BaseMessage
from langchain_core.runnables import RunnableConfig
from pydantic import BaseModel

from restgraph.evals.recording import current_recorder


def _plain(value: Any) -> Any:
    """What ``json.dumps`` cannot encode, made plain cheaply. Never ``str()`` of a LangChain object:
    its repr inspects every field's default (about 1 ms per message, a third of a tool-calling
    run's harness time when every step's update carries the message history)."""
    if isinstance(value, BaseMessage):
        out = {"type": value.type, "content": value.content}
        calls = getattr(value, "tool_calls", None)
        return {**out, "tool_calls": calls} if calls else out
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    return str(value)


def _summarise_update(update: Any) -> dict[str, Any] | None:
    """Keep a JSON-safe, bounded view of what a node wrote to the state."""
    if not isinstance(update, dict):
        return None
    text = json.dumps(update, default=_plain)
    if len(text) > 4000:
        return {"_truncated": text[:4000]}
    return json.loads(text)


async def stream_graph(graph: Any, inputs: dict[str, Any], config: RunnableConfig) -> dict[str, Any]:
    """Run a compiled graph, closing one trace step per finished node; return the final state."""
    recorder = current_recorder()
    final: dict[str, Any] = dict(inputs)
    async for mode, chunk in graph.astream(inputs, config, stream_mode=["updates", "values"]):
        if mode == "values" and isinstance(chunk, dict):
            final = chunk
        elif mode == "updates" and isinstance(chunk, dict) and recorder is not None:
            for node, update in chunk.items():
                recorder.close_step(node, _summarise_update(update))
    return final
