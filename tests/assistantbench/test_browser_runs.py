"""End-to-end runs of the browsing agents in real headless Chromium against the offline fixture.

One fixture server and one browser serve every run of this module (the runs are the same as
``restgraph run assistantbench-local ...`` except that they share those resources); each
episode still gets its own browser context.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage

from restgraph.agents.scripted import register_scripted
from restgraph.evals.benchmark import RunOptions
from restgraph.evals.benchmarks.assistantbench import AssistantBenchLocal
from restgraph.evals.oracles.browser import find_ref
from restgraph.evals.trace import Trace
from restgraph.tools.browser.sites.tasks import TASKS_BY_ID
from tests.assistantbench.shared_browser import run_all

pytestmark = pytest.mark.browser


def _escape_policy(task: Any, params: dict[str, str]):
    """Tries to leave loopback three ways (a link click, a goto to an outside IP, a file:// URL),
    then with URLs Python's parser and the browser's read differently (issue 29), with a loopback
    page in between so the no-op loop detector does not stop it first."""
    moves = iter(["click", "/books/", "http://10.1.2.3/admin", "/gyms/", "file:///etc/passwd", "/books/"])
    moves = iter([*moves, *(m for url in TWO_WAY_URLS for m in (url, "/gyms/"))])

    def policy(messages: list[BaseMessage]) -> str:
        move = next(moves, None)
        if move is None:
            return json.dumps({"action": "answer", "text": ""})
        if move == "click":
            return json.dumps(
                {"action": "click", "ref": find_ref(str(messages[-1].content), "link", "example.com")}
            )
        return json.dumps({"action": "goto", "url": move})

    return policy


#: each passed the old ``urlsplit`` check as a loopback URL
TWO_WAY_URLS = (
    "http://127.0.0.1:47999\\@127.0.0.1/x",  # Chromium requests http://127.0.0.1:47999/@127.0.0.1/x
    "http://example.com\\@127.0.0.1/",  # Chromium would go to example.com
    "http://2130706433/",
    "http://%31%32%37.0.0.1/",
)

register_scripted("test-escape", _escape_policy)

RUNS: dict[str, dict[str, Any]] = {
    "oracle": {"agent": "aria", "model": "scripted:browser-oracle", "concurrency": 2},
    "fallback": {"agent": "browser+cb", "model": "scripted:browser-oracle?give_up=1", "limit": 2},
    "text": {"agent": "browser", "model": "scripted:browser-oracle?style=text&structured=0", "limit": 3},
    "closed_book": {"agent": "closed-book", "model": "scripted:browser-oracle", "limit": 1},
    "escape": {"agent": "aria", "model": "scripted:test-escape", "limit": 1},
    "loop": {
        "agent": "aria",
        "model": 'scripted:replay?text={"action":"scroll","direction":"down"}',
        "limit": 1,
    },
    "budget": {
        "agent": "aria",
        "model": "scripted:browser-oracle",
        "limit": 1,
        "agent_options": {"max_steps": 2},
    },
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, tuple[dict[str, Any], list[Trace]]]:
    return run_all(RUNS, tmp_path_factory.mktemp("ab_runs"))


def test_oracle_reaches_full_accuracy_in_real_chromium(runs):
    summary, traces = runs["oracle"]
    assert summary["n"] == len(TASKS_BY_ID) >= 30
    assert summary["metrics"]["accuracy"] == 1.0
    assert summary["metrics"]["answer_rate"] == 1.0
    assert summary["status_counts"] == {"finished": len(TASKS_BY_ID)}
    assert summary["metrics"]["exact_match"] == 1.0  # raw answers that are the gold values
    for trace in traces:
        calls = list(trace.tool_calls("browser"))
        assert calls and all(c.error is None for c in calls), trace.task_id
        assert trace.extra["answer_source"] == "browser"
        shots = [Path(c.extra["screenshot"]) for c in calls]
        assert all(p.is_file() and p.stat().st_size > 1000 for p in shots)


def test_the_oracle_saw_the_gold_on_the_pages(runs):
    """String and list golds appear verbatim in what the browser observed (the pages hold the answers)."""
    _, traces = runs["oracle"]
    for trace in traces:
        local = TASKS_BY_ID[trace.task.metadata["local_id"]]
        if local.answer_type not in ("string", "list"):
            continue
        seen = "\n".join(c.response or "" for c in trace.tool_calls("browser"))
        for line in local.gold.split("\n"):
            assert line in seen, (local.id, line)


def test_screenshots_are_kept_in_the_run_folder(runs):
    _, traces = runs["oracle"]
    shot = Path(next(traces[0].tool_calls("browser")).extra["screenshot"])
    assert shot.parent.parent.name == "screenshots" and shot.parent.parent.parent.name == "oracle"


def test_closed_book_fallback_answers_when_browsing_gives_up(runs):
    summary, traces = runs["fallback"]
    assert summary["metrics"]["accuracy"] == 1.0
    for trace in traces:
        assert trace.extra["answer_source"] == "closed_book"
        assert trace.extra["browse_outcome"] == "abstained"
        assert {c.role for c in trace.model_calls()} >= {"policy", "closed_book"}


def test_plain_text_protocol(runs):
    summary, traces = runs["text"]
    assert summary["metrics"]["accuracy"] == 1.0
    assert all(c.parsed for c in next(iter(traces)).model_calls())


def test_closed_book_agent_never_opens_the_browser(runs):
    summary, traces = runs["closed_book"]
    assert summary["metrics"]["accuracy"] == 1.0
    assert not list(traces[0].tool_calls()) and traces[0].extra["browser_actions"] == 0


def test_offline_mode_refuses_and_records_non_loopback_navigation(runs):
    _, traces = runs["escape"]
    trace = traces[0]
    refused = [c for c in trace.tool_calls("browser") if c.name == "refused"]
    urls = [c.url for c in refused]
    assert "https://example.com/" in urls  # clicking an external link
    assert "http://10.1.2.3/admin" in urls  # goto an outside IP
    assert "file:///etc/passwd" in urls  # file:// is never allowed
    assert all(c.error.startswith("refused:") for c in refused)
    actions = {
        c.params.get("url") or c.name: c for c in trace.tool_calls("browser") if c.name in ("goto", "click")
    }
    for target in ("click", "http://10.1.2.3/admin", "file:///etc/passwd"):
        assert "navigation refused" in (actions[target].error or ""), target
    for target in TWO_WAY_URLS:
        assert "is read two ways" in (actions[target].error or ""), (target, actions[target].error)
    assert actions["/books/"].error is None and actions["/gyms/"].error is None
    assert all(
        c.url.startswith("http://127.0.0.1") for c in trace.tool_calls("browser") if c.name != "refused"
    )
    assert trace.final_answer == ""


def test_loop_detection_stops_a_repeating_agent(runs):
    _, traces = runs["loop"]
    trace = traces[0]
    assert trace.status == "budget_exhausted"
    assert "loop" in trace.error
    assert trace.extra["browser_actions"] <= 3


def test_step_budget(runs):
    _, traces = runs["budget"]
    trace = traces[0]
    assert trace.status == "budget_exhausted" and trace.extra["browse_outcome"] == "budget"
    assert trace.extra["browser_actions"] == 2


def test_an_error_page_left_by_a_late_refusal_is_left_before_the_next_action(tmp_path):
    """A refused navigation commits Chromium's error page after the action returned (under load CI saw
    the next relative goto resolve against ``chrome-error://`` and be refused): the next action
    must start from the last real page."""
    from restgraph.tools.browser.actions import ActionResult, BrowserAction
    from restgraph.tools.browser.session import BrowserSession

    async def main() -> tuple[str, str, ActionResult]:
        options = RunOptions(benchmark="assistantbench-local", agent="aria", run_dir=str(tmp_path))
        async with AssistantBenchLocal().run_resources(options) as resources:
            session = await BrowserSession.open(
                resources.browser, resources.config, start_url=resources.start_url
            )
            try:
                await session.observe()
                with contextlib.suppress(
                    Exception
                ):  # what a late refusal leaves behind, bypassing the action's own recovery
                    await session.page.goto("http://10.1.2.3/admin")
                for _ in range(100):  # the error page commits ~0.1 s after goto raised: that is the race
                    if session.page.url.startswith("chrome-error://"):
                        break
                    await asyncio.sleep(0.05)
                stranded = session.page.url
                result = await session.act(BrowserAction(action="goto", url="/books/"))
                return stranded, resources.start_url, result
            finally:
                await session.close()

    stranded, start_url, result = asyncio.run(main())
    assert stranded.startswith("chrome-error://")
    assert result.ok, result.error
    assert result.url.startswith(start_url.rstrip("/") + "/books/") and not result.refused
