"""``spa`` and ``seeact`` end to end in real headless Chromium on the offline fixture.

The decision model is ``scripted:seeplanact-oracle``: it speaks the agents' own protocol (plan
sections and ``Task answer:`` in the first reply, ``ELEMENT / ACTION / VALUE`` in the second,
letters read from the multiple-choice list it is shown), so the agents' element extraction,
prompt builders, parsers and executors all run, with the agents' default options. Every episode
starts on the fixture's search engine; the plans open sites through search results.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from restgraph.evals.trace import Trace
from restgraph.tools.browser.sites.tasks import TASKS_BY_ID
from tests.assistantbench.shared_browser import run_all

pytestmark = pytest.mark.browser

GOTO_PATH = "scripted:replay?text=ELEMENT: A%0AACTION: GOTO%0AVALUE: /gyms/"
RUNS: dict[str, dict[str, Any]] = {
    "spa": {"agent": "spa", "model": "scripted:seeplanact-oracle", "concurrency": 2},
    "seeact": {
        "agent": "seeact",
        "model": "scripted:seeplanact-oracle",
        "concurrency": 2,
        "agent_options": {"screenshot": "image"},
    },
    "spa_image": {
        "agent": "spa",
        "model": "scripted:seeplanact-oracle",
        "limit": 1,
        "agent_options": {"screenshot": "image"},
    },
    "give_up": {"agent": "spa", "model": "scripted:seeplanact-oracle?give_up=1", "limit": 1},
    "lost": {"agent": "spa", "model": "scripted:replay?text=I cannot tell.", "limit": 1},
    "budget": {
        "agent": "spa",
        "model": "scripted:seeplanact-oracle",
        "limit": 1,
        "agent_options": {"max_op": 3},
    },
    "upstream_goto": {"agent": "spa", "model": GOTO_PATH, "limit": 1, "agent_options": {"max_op": 2}},
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, tuple[dict[str, Any], list[Trace]]]:
    return run_all(RUNS, tmp_path_factory.mktemp("spa_runs"))


def _user_content(trace: Trace) -> list[dict[str, Any]]:
    """The first call's user message: [text block, screenshot block] (the trace keeps it as JSON)."""
    content = next(iter(trace.model_calls())).messages[1]["content"]
    return json.loads(content) if isinstance(content, str) else content


@pytest.mark.parametrize("agent", ["spa", "seeact"])
def test_scripted_protocol_solves_every_fixture_task(runs, agent: str) -> None:
    summary, traces = runs[agent]
    assert summary["n"] == len(TASKS_BY_ID)
    assert summary["metrics"]["accuracy"] == 1.0 and summary["metrics"]["answer_rate"] == 1.0
    assert summary["status_counts"] == {"finished": len(TASKS_BY_ID)}
    for trace in traces:
        roles = [c.role for c in trace.model_calls()]
        assert (
            roles.count("grounding")
            == roles.count(f"{'seeplanact' if agent == 'spa' else 'seeact'}_plan")
            > 0
        )
        steps = [c for c in trace.tool_calls("browser") if c.name != "refused"]
        assert steps[-1].name == "stop" and all(c.extra["elements"] > 0 for c in steps), trace.task_id
        assert trace.extra["answer_source"] == "browser"


def test_spa_keeps_plan_and_memory_between_steps(runs) -> None:
    _, traces = runs["spa"]
    trace = next(t for t in traces if t.task.metadata["local_id"] == "homes-maple-bay-condo-2023")
    updates = [s.update for s in trace.steps if s.node == "step"]
    assert updates[0]["original_plan"] and updates[0]["refined_plan"] is None
    assert updates[2]["refined_plan"] == "Continue the route."
    assert updates[-1]["history"].count("Step ") == len(updates)
    lines = [c.extra["history_line"] for c in trace.tool_calls("browser") if "history_line" in c.extra]
    assert any(line.startswith("[select]") and line.endswith("-> SELECT: Maple Bay") for line in lines)
    assert "No Operation" in lines  # the GOTO and GOBACK steps, recorded as upstream records them


def test_the_screenshot_goes_to_the_model_as_an_image_block(runs) -> None:
    _, traces = runs["spa_image"]
    user = _user_content(traces[0])
    block = user[
        1
    ]  # LangChain's image block, as the recorder keeps it (OpenAI's image_url form or the standard one)
    url = (
        block["image_url"]["url"]
        if block["type"] == "image_url"
        else f"data:{block['mime_type']};base64,{block['base64']}"
    )
    assert url.startswith("data:image/jpeg;base64,") and len(url) > 1000
    assert traces[0].steps[0].update["screenshot_mode"] == "image"


def test_text_rendering_replaces_the_image_for_text_models(runs) -> None:
    _, traces = runs["spa"]
    user = _user_content(traces[0])
    assert (
        user[1]["type"] == "text"
        and user[1]["text"].startswith("(Text rendering of the screenshot")
        and "[ref=" not in user[1]["text"]
    )


def test_an_empty_task_answer_abstains(runs) -> None:
    summary, traces = runs["give_up"]
    assert (
        traces[0].final_answer == ""
        and traces[0].status == "finished"
        and traces[0].extra["answer_source"] == "none"
    )
    assert summary["metrics"]["answer_rate"] == 0.0


def test_no_op_limit_stops_after_two_unusable_replies(runs) -> None:
    _, traces = runs["lost"]
    trace = traces[0]
    assert trace.status == "budget_exhausted" and trace.extra["browse_outcome"] == "noop_limit"
    assert [s.update.get("no_op_count") for s in trace.steps if s.node == "step"] == [1, 2]


def test_step_limit(runs) -> None:
    _, traces = runs["budget"]
    trace = traces[0]
    assert trace.status == "budget_exhausted" and trace.extra["browse_outcome"] == "budget"
    assert len([s for s in trace.steps if s.node == "step"]) == 3


def test_upstream_goto_rule_by_default(runs) -> None:
    """Without ``goto_urls=resolve`` a "/path" becomes https://www./path, refused offline: a failed step."""
    _, traces = runs["upstream_goto"]
    first = next(c for c in traces[0].tool_calls("browser") if c.name == "goto")
    assert first.extra["history_line"].startswith("Failed to GOTO New URL because navigation refused")
