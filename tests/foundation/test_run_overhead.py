"""What keeps the harness light per episode, and that none of it loses anything:

- a ``per_run`` agent's graph is compiled once per run, yet each episode runs with its own model;
- finished episodes are written in groups (one fsync per group), every one of them on disk;
- model calls are recorded through the model's own callback, not one inherited by every node.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from langchain_core.callbacks import AsyncCallbackHandler

from restgraph import graphs
from restgraph.evals.benchmark import RunOptions
from restgraph.evals.runner import EpisodeRunner, run_sync
from restgraph.evals.trace import TraceStore
from restgraph.evals.trace_writer import TraceWriter
from restgraph.graphs.registry import get_agent
from tests.foundation.conftest import trace_rows


def test_a_per_run_agent_is_compiled_once_and_each_episode_has_its_own_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    builds: list[Any] = []
    spec = get_agent("chat-tools")
    assert spec.per_run

    def counting(model: Any, env: Any, options: dict[str, Any]) -> Any:
        builds.append(model)
        return spec_builder(model, env, options)

    spec_builder = spec.builder
    agent = spec.__class__(**{**spec.__dict__, "builder": counting})
    options = RunOptions(
        benchmark="smoke",
        agent="chat-tools",
        model="scripted:smoke-tools",
        concurrency=4,
        bench_options={"n": 12},
    )
    summary = asyncio.run(EpisodeRunner(options, tmp_path, agent=agent, progress=False).run())
    assert builds == [None]  # once, and with no episode's model baked in
    # the scripted policy answers from each episode's own question: a graph bound to one episode's
    # model would answer the others wrongly
    assert summary["metrics"]["accuracy"] == 1.0 and summary["n"] == 12
    rows = trace_rows(tmp_path)
    assert {len([c for s in r["steps"] for c in s["model_calls"]]) for r in rows} == {
        3
    }  # 2 x add, then submit


def test_per_run_builders_still_work_standalone() -> None:
    """Built with a model and invoked without a context (tests, notebooks), the graph uses the
    builder's own model."""
    from restgraph.agents.models import make_chat_model

    graph = graphs.chat.build_chat(make_chat_model("scripted:smoke-oracle"), None, {})
    state = asyncio.run(graph.ainvoke({"instruction": "What is 2 + 3? Reply with the number only."}))
    assert state["final_answer"] == "5"


def test_finished_episodes_are_written_in_groups_and_none_is_lost(tmp_path: Path) -> None:
    options = RunOptions(
        benchmark="smoke",
        agent="chat",
        model="scripted:smoke-oracle",
        concurrency=16,
        bench_options={"n": 120},
    )
    writes: list[int] = []
    original = TraceStore.append_many

    def spy(self: TraceStore, traces: list[Any]) -> None:
        writes.append(len(traces))
        original(self, traces)

    TraceStore.append_many = spy  # type: ignore[method-assign]
    try:
        run_sync(options, tmp_path, progress=False)
    finally:
        TraceStore.append_many = original  # type: ignore[method-assign]
    assert sum(writes) == 120 and len(trace_rows(tmp_path)) == 120
    assert sorted(r["task_id"] for r in trace_rows(tmp_path)) == sorted(f"smoke/{i}" for i in range(120))
    assert len(writes) < 120 and max(writes) > 1  # grouped: fewer writes than episodes


def test_a_failed_write_is_raised_by_drain(tmp_path: Path) -> None:
    class Full(TraceStore):
        def append_many(self, traces: list[Any]) -> None:
            raise OSError(28, "No space left on device")

    async def go() -> None:
        writer = TraceWriter(Full(tmp_path))
        writer.put(object())  # type: ignore[arg-type]
        await writer.drain()

    with pytest.raises(OSError, match="No space left"):
        asyncio.run(go())


def test_model_calls_are_recorded_without_a_callback_on_every_node(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nodes' runs reach no callback handler (none is inherited through the config); the model's
    calls are still recorded, with the node they ran in as their role."""
    seen: list[str] = []

    class Spy(AsyncCallbackHandler):
        async def on_chain_start(self, serialized: Any, inputs: Any, **kwargs: Any) -> None:
            seen.append(kwargs.get("name") or "")

    original = EpisodeRunner._graph_for

    def spying(self: EpisodeRunner, model: Any, env: Any) -> Any:
        assert not (model.callbacks or [])[:-1]  # the recorder's handler only
        graph = original(self, model, env)
        inner = graph.astream

        def astream(inputs: Any, config: Any, **kw: Any) -> Any:
            assert "callbacks" not in config
            return inner(inputs, {**config, "callbacks": [Spy()]}, **kw)

        graph.astream = astream
        return graph

    monkeypatch.setattr(EpisodeRunner, "_graph_for", spying)
    options = RunOptions(
        benchmark="smoke",
        agent="chat-vote",
        model="scripted:smoke-oracle",
        bench_options={"n": 2},
        agent_options={"calls": 2},
    )
    run_sync(options, tmp_path, progress=False)
    rows = trace_rows(tmp_path)
    calls = [c for r in rows for s in r["steps"] for c in s["model_calls"]]
    assert len(calls) == 4 and {c["role"] for c in calls} == {"sample"}
    assert seen  # the spy proves chain callbacks would fire if one were configured
