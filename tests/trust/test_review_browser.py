"""``restgraph review`` in Chromium (issue 28): on a run made by the scripted RestGPT oracle, with one
answer replaced by a hedge, a person marks two verdicts by key press; they land in ``reviews.jsonl``
with who and when, ``restgraph score`` takes them over the checker's, and ``restgraph report``
shows the reviewed count and Cohen's kappa."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import CHROMIUM
from tests.foundation.conftest import cli

pytestmark = [pytest.mark.browser, pytest.mark.slow]

HEDGE = "I could not check: it is either Christopher Nolan or Steven Spielberg, one of them."


@pytest.fixture
def run(tmp_path: Path, data_dir: Path) -> Path:
    folder = tmp_path / "run"
    args = ("run", "restbench-tmdb", "--model", "scripted:restgpt-oracle", "--limit", "3", "--out", folder)
    assert cli(*args, "--quiet").exit_code == 0
    # tmdb/3 answered again, with a hedge the checker fails (the last line of a task wins)
    traces = folder / "traces.jsonl"
    line = next(x for x in map(json.loads, traces.read_text().splitlines()) if x["task_id"] == "tmdb/3")
    with traces.open("a") as fh:
        fh.write(json.dumps({**line, "final_answer": HEDGE}) + "\n")
    assert cli("score", folder).exit_code == 0
    return folder


@pytest.fixture
def review_url(run: Path, tmp_path: Path):
    env = {**os.environ, "USER": "tester", "RESTGRAPH_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "restgraph.evals.cli", "review", str(run), "--no-open"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        line = proc.stdout.readline()  # type: ignore[union-attr]  # the URL, printed once it listens
        assert line.startswith("restgraph review: http://127.0.0.1:"), (line, proc.stderr.read())  # type: ignore[union-attr]
        assert str(run / "reviews.jsonl") in line and "tester" in line
        yield line.split()[2]
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_two_key_presses_become_verdicts_that_score_and_report_use(run: Path, review_url: str) -> None:
    from playwright.sync_api import sync_playwright

    summary = json.loads((run / "summary.json").read_text())
    assert summary["metrics"]["success_rate"] == pytest.approx(2 / 3)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(review_url)
        card = page.locator("#review-card")
        card.wait_for()
        # least sure first: the hedge, with its query, answer, key, the checker's verdict and why
        assert card.get_attribute("data-task") == "tmdb/3"
        assert "Who directed the top-1 rated movie?" in card.locator("dd.query").inner_text()
        assert card.locator("dd.answer").inner_text() == HEDGE
        assert "Francis Ford Coppola" in card.locator("dd.key").inner_text()
        assert card.locator("dd.checker").inner_text() == "fail"
        assert card.locator("dd.checker-field").count() >= 1  # whatever the checker's score row records
        assert "hedge: or" in card.locator("dd.cues").inner_text()

        page.keyboard.press("f")  # agrees with the checker
        page.wait_for_function(
            "document.getElementById('review-status').textContent === 'saved: tmdb/3 fail'"
        )
        second = page.locator("#review-card").get_attribute("data-task")
        assert (
            second in ("tmdb/1", "tmdb/2") and page.locator("#review-card dd.checker").inner_text() == "pass"
        )
        page.keyboard.press("f")  # overrides the checker's pass
        page.wait_for_function(
            f"document.getElementById('review-status').textContent === 'saved: {second} fail'"
        )
        assert page.locator("#review-progress").inner_text().startswith("2 of 3 reviewed")
        page.keyboard.press("t")  # the trace of the card in view, alone on the page
        page.wait_for_selector("#ep-timeline details.step")
        assert not page.locator("#review-card").is_visible()
        page.click("#back")
        page.locator("#review-card").wait_for()
        browser.close()

    lines = [json.loads(x) for x in (run / "reviews.jsonl").read_text().splitlines()]
    assert [(x["task_id"], x["verdict"], x["who"]) for x in lines] == [
        ("tmdb/3", "fail", "tester"),
        (second, "fail", "tester"),
    ]
    assert all(x["when"].endswith("Z") for x in lines)

    scored = cli("score", run)
    assert scored.exit_code == 0
    assert (
        "human verdicts (reviews.jsonl): 2 episodes reviewed, 1 checker verdicts overridden" in scored.stdout
    )
    summary = json.loads((run / "summary.json").read_text())
    assert summary["metrics"]["success_rate"] == pytest.approx(1 / 3)
    assert (summary["human_review"]["reviewed"], summary["human_review"]["overrides"]) == (2, 1)

    report = cli("report", run)
    assert report.exit_code == 0
    assert f"{run}: 2 reviewed, 1 agree, 1 overridden" in report.stdout
    assert "checker pass, people fail: 1; checker fail, people pass: 0" in report.stdout
    # (F, F) and (P, F): observed 0.5, chance 0.5 * 0 + 0.5 * 1 = 0.5, so kappa 0
    assert "agreement 0.500, Cohen's kappa 0.000" in report.stdout
