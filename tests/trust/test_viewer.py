"""``restgraph view`` in real Chromium: a Spotify run (successes with state diffs, a failure with a
parse error and an off-gold HTTP call) beside a browser run (a screenshot); filter to failures,
open one, find its prompts, HTTP calls and gold-vs-actual path; ``--export`` writes the same site."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from restgraph.evals.benchmark import RunOptions, get_benchmark
from restgraph.evals.trace import ModelCall, Step, Task, ToolCall, Trace, TraceStore
from restgraph.evals.viewer.server import Viewer, make_app
from tests.conftest import CHROMIUM
from tests.foundation.conftest import cli

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _failed_spotify_trace(task: Task) -> Trace:
    """What a weak model does: an unparseable plan, then one HTTP call that is not on the gold path."""
    parse = ModelCall(
        role="planner",
        model="scripted:weak",
        messages=[
            {"type": "system", "content": "You are a planner for the Spotify API."},
            {"type": "human", "content": task.instruction},
        ],
        raw_output="Plan: {{{ maybe",
        parse_error="json_error: no JSON value in the reply",
        input_tokens=50,
        output_tokens=4,
    )
    http = ToolCall(
        kind="http",
        name="GET /me",
        method="GET",
        url="http://127.0.0.1/v1/me",
        path="/me",
        status=200,
        response='{"id": "u1"}',
        extra={"template": "GET /me"},
    )
    # same run identity as the oracle run it joins (scoring refuses folders that mix runs)
    trace = Trace(
        task_id=task.id,
        task=task,
        benchmark="restbench-spotify",
        agent="oracle",
        model="none",
        steps=[
            Step(index=0, node="planner", model_calls=[parse]),
            Step(index=1, node="caller", tool_calls=[http]),
        ],
        final_answer="I could not do it.",
    )
    trace.recompute_usage()
    return trace


def _browser_run(folder: Path, page) -> None:
    shot = folder / "screenshots" / "ab_0" / "step01_goto.jpg"
    shot.parent.mkdir(parents=True)
    page.set_content("<h1 style='font-size:60px'>the page the agent saw</h1>")
    page.screenshot(path=str(shot), type="jpeg")
    task = Task(
        id="ab/0",
        benchmark="assistantbench-local",
        instruction="What does the page say?",
        gold={"answer": "the page"},
    )
    step = Step(
        index=0,
        node="act",
        tool_calls=[
            ToolCall(
                kind="browser",
                name="goto",
                url="http://127.0.0.1/",
                response="heading: the page the agent saw",
                extra={"screenshot": str(shot), "step": 1},
            )
        ],
    )
    TraceStore(folder).append(
        Trace(
            task_id=task.id,
            task=task,
            benchmark="assistantbench-local",
            agent="browser",
            model="scripted:x",
            steps=[step],
            final_answer="the page",
        )
    )


@pytest.fixture
def served(tmp_path: Path, data_dir: Path):
    from playwright.sync_api import sync_playwright

    spotify = tmp_path / "spotify"
    assert (
        cli(
            "run", "restbench-spotify", "--agent", "oracle", "--limit", "3", "--out", spotify, "--quiet"
        ).exit_code
        == 0
    )
    fourth = get_benchmark("restbench-spotify").tasks(
        RunOptions(benchmark="restbench-spotify", agent="oracle")
    )[3]
    TraceStore(spotify).append(_failed_spotify_trace(fourth))
    assert cli("score", spotify).exit_code == 0
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page()
        _browser_run(tmp_path / "browser", page)
        assert cli("score", tmp_path / "browser").exit_code == 0
        viewer = Viewer([spotify, tmp_path / "browser"])
        import uvicorn

        server = uvicorn.Server(
            uvicorn.Config(make_app(viewer), host="127.0.0.1", port=0, log_level="warning")
        )
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        deadline = time.monotonic() + 30
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        assert server.started, "viewer server did not start"
        port = server.servers[0].sockets[0].getsockname()[1]
        yield page, f"http://127.0.0.1:{port}/", viewer, fourth
        server.should_exit = True
        thread.join(timeout=10)
        browser.close()


def test_viewer_filters_to_failures_and_shows_prompts_http_calls_and_gold_path(served) -> None:
    page, url, _, fourth = served
    page.goto(url)
    page.wait_for_selector("#episodes tbody tr.episode")
    runs = page.locator("#runs tbody tr")
    assert runs.count() == 2 and "restbench-spotify" in runs.nth(0).inner_text()
    assert page.locator("#episodes tbody tr").count() == 4  # run 0: three successes and one failure

    page.select_option("#outcome-filter", "failure")
    page.wait_for_function("document.querySelectorAll('#episodes tbody tr').length === 1")
    failed = page.locator("#episodes tbody tr").first
    assert "failure" in failed.get_attribute("class") and failed.get_attribute("data-task") == fourth.id

    failed.click()
    page.wait_for_selector("#ep-timeline")
    # steps are one compact row each: nothing of a step's body shows, and no literal "null" anywhere
    assert page.locator("#ep-timeline .step-body").first.is_visible() is False
    assert "null" not in page.locator("#episode").inner_text()
    steps = page.locator("#ep-timeline details.step > summary")
    assert [steps.nth(k).locator(".node").inner_text() for k in range(steps.count())] == ["planner", "caller"]
    assert "GET http://127.0.0.1/v1/me → 200" in steps.nth(1).inner_text()
    assert "off gold" in steps.nth(1).inner_text()
    page.click("#expand-all")
    assert "error" in steps.nth(0).inner_text()  # the planner's parse error is flagged on its row
    assert fourth.instruction in page.locator("#ep-timeline pre.prompt").all_text_contents()
    assert (
        page.locator("#ep-timeline pre.parse-error").inner_text() == "json_error: no JSON value in the reply"
    )
    assert page.locator("#ep-timeline pre.raw").inner_text() == "Plan: {{{ maybe"
    gold = page.locator("#ep-gold table.gold tr.missed")
    assert gold.count() == len(fourth.gold["gold_path"])  # no gold step was called
    assert fourth.gold["gold_path"][0] in gold.first.inner_text()
    assert "no environment state change recorded" in page.locator("#ep-state-diff").inner_text()

    page.click("#back")
    page.select_option("#outcome-filter", "success")
    page.wait_for_function("document.querySelectorAll('#episodes tbody tr').length === 3")
    page.locator("#episodes tbody tr").first.click()
    page.wait_for_selector("#ep-state-diff pre.state-diff")
    assert '"after"' in page.locator("#ep-state-diff pre.state-diff").inner_text()  # Spotify: before/after
    assert page.locator("#ep-gold table.gold tr.matched").count() >= 1
    assert "gold 1" in page.locator("#ep-timeline").inner_text()  # the matched call is marked in the timeline


def test_viewer_shows_the_browser_screenshot_and_sorts(served) -> None:
    page, url, _, _ = served
    page.goto(url + "#1/0")
    page.wait_for_selector("#ep-timeline img.shot", state="attached")
    page.locator("#ep-timeline details.step").first.evaluate("d => d.open = true")
    page.wait_for_function("document.querySelector('#ep-timeline img.shot').naturalWidth > 0")
    page.click("#back")
    page.wait_for_selector("#episodes tbody tr.episode")
    page.click("#episodes th[data-key='task_id']")
    page.click("#episodes th[data-key='task_id']")  # descending
    ids = [r.get_attribute("data-task") for r in page.locator("#episodes tbody tr").all()]
    assert ids == sorted(ids, reverse=True)


def test_export_writes_the_same_documents_as_the_server(served, tmp_path: Path) -> None:
    page, url, viewer, _ = served
    from restgraph.evals.viewer.server import as_script, export_site

    index = export_site(viewer, tmp_path / "site")
    assert index.read_text().startswith("<!doctype html>")
    assert (tmp_path / "site" / "data" / "runs.js").read_bytes() == as_script("runs", viewer.runs_doc())
    served_js = page.request.get(url + "data/1/ep/0.js").body()
    assert (tmp_path / "site" / "data" / "1" / "ep" / "0.js").read_bytes() == served_js
    doc = viewer.episode_doc(1, 0)
    shot = doc["trace"]["steps"][0]["tool_calls"][0]["screenshot_url"]
    assert (tmp_path / "site" / shot).read_bytes()[:2] == b"\xff\xd8"  # the screenshot (JPEG) is copied
    assert viewer.file_path(1, "../spotify/traces.jsonl") is None  # nothing outside a run folder is served
