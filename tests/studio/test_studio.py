"""The Studio factories (evals.studio): coroutines that build the model off the event loop, and
graphs whose input schema is Studio's one-field form."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from restgraph import agents
from restgraph.evals.studio import STUDIO_AGENTS, restgpt, studio_graph


async def test_building_the_model_does_not_block_the_event_loop(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The model factory (for ``local``: a download and a server start) waits until a coroutine on
    the loop has run; if the factory blocked the loop, that coroutine could never run."""
    loop_ran = threading.Event()
    real = agents.models.make_chat_model

    def slow_factory(spec: str, **kwargs: Any) -> Any:
        if not loop_ran.wait(timeout=60):
            raise AssertionError("the event loop was blocked while the model was being built")
        return real("scripted:constant", **kwargs)

    async def tick() -> None:
        await asyncio.sleep(0)
        loop_ran.set()

    monkeypatch.setattr(agents.models, "make_chat_model", slow_factory)
    graph, _ = await asyncio.gather(restgpt(), tick())
    assert loop_ran.is_set() and graph.name == "restgpt"


@pytest.mark.parametrize("agent", STUDIO_AGENTS)
async def test_every_studio_graph_asks_only_for_an_instruction(agent: str, data_dir: Path) -> None:
    graph = await studio_graph(agent, model="scripted:constant")
    schema = graph.get_input_jsonschema()
    assert set(schema["properties"]) == {"instruction"} and schema["required"] == ["instruction"]


async def test_a_studio_graph_answers(data_dir: Path) -> None:
    graph = await studio_graph("restgpt", model="scripted:constant?structured=0&text=Final%20Answer%3A%2042")
    state = await graph.ainvoke({"instruction": "What is the answer?"}, {"recursion_limit": 40})
    assert state["final_answer"] == "42"
