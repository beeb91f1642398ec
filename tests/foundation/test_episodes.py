"""How single episodes end: step budget, wall-clock timeout, an exception, unparseable output.
Each becomes a recorded trace with a reason, and the run goes on."""

from __future__ import annotations

import asyncio
import operator
from pathlib import Path
from typing import Annotated, Any, NotRequired

from langchain_core.messages import HumanMessage
from langgraph.graph import START, StateGraph
from pydantic import BaseModel

from restgraph.evals.benchmark import RunOptions
from restgraph.evals.runner import run_sync
from restgraph.graphs.chat import ChatState
from restgraph.graphs.registry import register_agent
from restgraph.tools.events import parse_outcome
from tests.foundation.conftest import one_node_graph, trace_rows

_one_node = one_node_graph


class LoopState(ChatState):
    turns: NotRequired[Annotated[int, operator.add]]


def _looping(model: Any, env: Any, options: dict[str, Any]) -> Any:
    """Never decides to stop: only the step budget ends it."""

    async def think(state: LoopState) -> dict[str, Any]:
        await model.ainvoke([HumanMessage(state["instruction"])])
        return {"turns": 1}

    graph = StateGraph(LoopState)
    graph.add_node("think", think)
    graph.add_edge(START, "think")
    graph.add_conditional_edges("think", lambda s: "think", ["think"])
    return graph.compile()


def _sleepy(model: Any, env: Any, options: dict[str, Any]) -> Any:
    async def act(state: ChatState) -> dict[str, Any]:
        if state["task_id"].endswith("/1"):
            await asyncio.sleep(30)
        return {"final_answer": "0", "status": "finished"}

    return _one_node(act)


def _raising(model: Any, env: Any, options: dict[str, Any]) -> Any:
    async def act(state: ChatState) -> dict[str, Any]:
        if int(state["task_id"].split("/")[1]) % 2:
            raise LookupError(f"no such thing for {state['task_id']}")
        return {"final_answer": "0", "status": "finished"}

    return _one_node(act)


class Answer(BaseModel):
    answer: int


def _structured(model: Any, env: Any, options: dict[str, Any]) -> Any:
    """A role that parses the reply and records what it could not parse (the house rule)."""

    async def act(state: ChatState) -> dict[str, Any]:
        out = await model.with_structured_output(Answer, include_raw=True).ainvoke(
            [HumanMessage(state["instruction"])]
        )
        if out["parsed"] is None:
            parse_outcome(
                out["raw"],
                parse_error=f"{type(out['parsing_error']).__name__}: {out['parsing_error']}",
                role="answerer",
            )
            return {"final_answer": None, "status": "finished"}
        parse_outcome(out["raw"], parsed=out["parsed"].model_dump(), role="answerer")
        return {"final_answer": str(out["parsed"].answer), "status": "finished"}

    return _one_node(act)


register_agent("test-loop", _looping, env_kind="none")
register_agent("test-sleepy", _sleepy, env_kind="none", needs_model=False)
register_agent("test-raising", _raising, env_kind="none", needs_model=False)
register_agent("test-structured", _structured, env_kind="none")


def _run(tmp_path: Path, agent: str, n: int, **kw: Any) -> list[dict]:
    options = RunOptions(benchmark="smoke", agent=agent, bench_options={"n": n}, **kw)
    run_sync(options, tmp_path, progress=False)
    return sorted(trace_rows(tmp_path), key=lambda r: r["task_id"])


def test_a_graph_that_loops_forever_ends_budget_exhausted(tmp_path: Path) -> None:
    rows = _run(tmp_path, "test-loop", 2, model="scripted:constant", max_steps=7)
    for row in rows:
        assert row["status"] == "budget_exhausted" and "7" in row["error"]
        assert 1 <= len(row["steps"]) <= 7 and row["usage"]["model_calls"] == len(row["steps"])


def test_episode_timeout_ends_error_timeout_and_the_run_goes_on(tmp_path: Path) -> None:
    rows = _run(tmp_path, "test-sleepy", 3, model="none", episode_timeout_s=0.5)
    assert [r["status"] for r in rows] == ["finished", "error:timeout", "finished"]
    assert rows[1]["wall_s"] < 5 and "0.5" in rows[1]["error"]


def test_an_episode_that_raises_is_recorded_with_its_kind_and_the_run_goes_on(tmp_path: Path) -> None:
    rows = _run(tmp_path, "test-raising", 4, model="none")
    assert [r["status"] for r in rows] == ["finished", "error:LookupError", "finished", "error:LookupError"]
    assert rows[1]["error"] == "LookupError: no such thing for smoke/1"


def test_unparseable_output_is_recorded_not_fatal(tmp_path: Path) -> None:
    rows = _run(tmp_path, "test-structured", 1, model="scripted:garbage")
    (call,) = [c for s in rows[0]["steps"] for c in s["model_calls"]]
    assert rows[0]["status"] == "finished" and rows[0]["final_answer"] is None
    assert (
        call["role"] == "answerer"
        and call["raw_output"].startswith("}}{{")
        and "ParseError" in call["parse_error"]
    )


def test_parsed_output_is_recorded(tmp_path: Path) -> None:
    rows = _run(tmp_path, "test-structured", 1, model='scripted:constant?text=```json\n{"answer": 7}\n```')
    (call,) = [c for s in rows[0]["steps"] for c in s["model_calls"]]
    assert call["parsed"] == {"answer": 7} and call["parse_error"] is None and rows[0]["final_answer"] == "7"
