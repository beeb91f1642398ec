"""Gold-reading oracles refuse prompts from roles they do not play.

Before: an oracle asked by an unknown role replied ``Final Answer: <gold>``, so a miswired agent
that never called the API scored ``success_rate 1.0`` on TMDB. Now the oracle raises, the episode
fails with ``UnknownRoleError``, and nothing scores as a success.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import HumanMessage

from restgraph.evals.benchmark import RunOptions
from restgraph.evals.oracles import UnknownRoleError
from restgraph.evals.oracles.browser import _oracle
from restgraph.evals.oracles.restgpt import OraclePolicy
from restgraph.evals.runner import run_sync
from restgraph.evals.trace import Task, TraceStore
from restgraph.graphs.chat import ChatState
from restgraph.graphs.registry import register_agent
from tests.foundation.conftest import one_node_graph


def _broken(model: Any, env: Any, options: dict[str, Any]) -> Any:
    """A variant that forgot its roles and its API: it asks the model straight away."""

    async def answer(state: ChatState) -> dict[str, Any]:
        reply = await model.ainvoke([HumanMessage(state["instruction"])])
        return {"final_answer": str(reply.content), "status": "finished"}

    return one_node_graph(answer)


register_agent("test-broken-no-api", _broken, env_kind="openapi")


def test_a_broken_variant_with_no_api_calls_does_not_score(data_dir: Path, tmp_path: Path) -> None:
    options = RunOptions(
        benchmark="restbench-tmdb",
        agent="test-broken-no-api",
        model="scripted:restgpt-oracle",
        limit=3,
        concurrency=3,
    )
    summary = run_sync(options, tmp_path, progress=False)
    traces = TraceStore(tmp_path).load().traces
    assert len(traces) == 3
    assert all(t.status == "error:UnknownRoleError" and not t.http_calls() for t in traces), [
        t.status for t in traces
    ]
    assert summary["metrics"]["success_rate"] == 0.0


def test_the_restgpt_oracle_names_the_roles_it_plays() -> None:
    task = Task(
        id="t",
        benchmark="restbench-tmdb",
        instruction="q",
        gold={"reference_calls": [], "reference_answer": "gold!"},
    )
    with pytest.raises(UnknownRoleError, match="untagged prompt.*planner"):
        OraclePolicy(task)([HumanMessage("q")])


def test_the_browser_oracle_refuses_a_prompt_it_does_not_know() -> None:
    task = Task(id="t", benchmark="assistantbench", instruction="q", gold={"answer": "gold!"})
    with pytest.raises(UnknownRoleError):
        _oracle(task, {})([HumanMessage("What is the answer?")])
