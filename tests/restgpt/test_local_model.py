"""RestGPT with the embedded llama.cpp model (real calls) on the fake API: the roles' structured
output against a real server ends the episode cleanly within a tiny budget."""

from __future__ import annotations

import pytest

from restgraph.graphs.restgpt import build_restgpt
from tests.restgpt.conftest import model_calls, run_graph

pytestmark = pytest.mark.local_model


async def test_restgpt_with_local_model_ends_cleanly(fake_env) -> None:
    from restgraph.agents.models import make_chat_model

    model = make_chat_model("local", max_tokens=48)
    state, rec = await run_graph(build_restgpt(model, fake_env, {"llm_calls": 3}))
    assert state["status"] in ("finished", "budget_exhausted")
    calls = model_calls(rec)
    assert 1 <= len(calls) <= 3 and all(c.error is None for c in calls)
    assert {c.role for c in calls} <= {"planner", "selector", "caller", "parser"}
