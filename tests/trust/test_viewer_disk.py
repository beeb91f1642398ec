"""``restgraph view RUN --export site/`` opened as ``file://.../site/index.html`` in Chromium (issue 27:
it showed "TypeError: Failed to fetch"): the episode list, then one RestGPT episode as a timeline of
graph steps, each model call's prompt collapsed and diffable against the previous call of its role."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import CHROMIUM
from tests.foundation.conftest import cli

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, data_dir: Path) -> Path:
    root = tmp_path_factory.mktemp("disk")
    run = root / "run"
    assert (
        cli(
            "run",
            "restbench-tmdb",
            "--model",
            "scripted:restgpt-oracle",
            "--limit",
            "2",
            "--out",
            run,
            "--quiet",
        ).exit_code
        == 0
    )
    result = cli("view", run, "--export", root / "site")
    assert result.exit_code == 0, result
    assert (root / "site" / "index.html").as_uri() in result.stdout  # says it opens from disk
    return root / "site"


@pytest.fixture
def page():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        yield page
        assert errors == []
        browser.close()


def test_the_exported_viewer_opens_from_disk_with_the_episode_list_and_its_steps(site: Path, page) -> None:
    page.goto((site / "index.html").as_uri())
    page.wait_for_selector("#episodes tbody tr.episode")
    assert "Failed to fetch" not in page.locator("body").inner_text()
    rows = page.locator("#episodes tbody tr")
    assert sorted(r.get_attribute("data-task") for r in rows.all()) == ["tmdb/1", "tmdb/2"]
    fits = "document.documentElement.scrollWidth <= window.innerWidth"  # wide tables scroll in their box
    assert page.evaluate(fits)
    row = page.locator("#episodes tbody tr[data-task='tmdb/2']")
    assert "Who was the lead actor in the movie The Dark Knight?" in row.inner_text()

    row.click()
    page.wait_for_selector("#ep-timeline details.step")
    steps = page.locator("#ep-timeline details.step > summary")
    nodes = [steps.nth(k).locator(".node").inner_text() for k in range(steps.count())]
    assert (
        nodes[:6] == ["start", "planner", "selector", "caller", "parser", "caller"] and nodes[-1] == "finish"
    )
    # a caller row names its HTTP call and where it sits on the gold path
    assert "GET http://tmdb.sandbox/3/search/movie → 200" in steps.nth(3).inner_text()
    assert "gold 1" in steps.nth(3).inner_text()
    assert "null" not in page.locator("#episode").inner_text()
    assert page.evaluate(fits) and steps.nth(3).bounding_box()["height"] < 30  # one line per step
    assert "1. GET /search/movie" in page.locator("#ep-gold").inner_text()

    # the second planner call: its prompt is collapsed, and diffs against the first planner call
    second_planner = page.locator("#ep-timeline details.step[data-node='planner']").nth(1)
    second_planner.locator("summary").first.click()
    prompt = second_planner.locator("details.prompt")
    assert prompt.get_attribute("open") is None and not prompt.locator("pre.prompt").is_visible()
    prompt.locator("summary").click()
    assert (
        "User query: Who was the lead actor in the movie The Dark Knight?"
        in prompt.locator("pre.prompt").inner_text()
    )
    prompt.locator("button.diff-toggle").click()
    diff = prompt.locator(".prompt-diff")
    assert "against the previous planner call (step 1)" not in diff.inner_text()  # the button says it
    added = diff.locator("span.ins").all_inner_texts()
    assert any(line.startswith("+ API response:") for line in added), added
    assert not prompt.locator("pre.prompt").is_visible()  # the diff replaces the whole prompt
    assert "state diff" in second_planner.inner_text() and "plan_text" in second_planner.inner_text()
