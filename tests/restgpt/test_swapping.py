"""Swapping one role changes that role and nothing else, as the traces show (issue 26).

Before: a lower-case planner override (``prompts={"planner": ...}``) moved all four roles from the
upstream pack to this project's prompts (caller input tokens 18,120 -> 10,070), and a retrieval
selector that shortlisted endpoints left the upstream selector listing all 54 TMDB endpoints.
Notebook 2 makes the same claims on its own runs (``tests/notebooks``).
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from restgraph.agents.restgpt.packs import UPSTREAM
from restgraph.evals.benchmark import RunOptions
from restgraph.evals.cli import app
from restgraph.evals.reports.table4 import setup_of
from restgraph.evals.runner import run_sync
from restgraph.evals.trace import TraceStore
from restgraph.evals.viewer.data import episode_doc, index_run
from restgraph.graphs.registry import register_agent
from restgraph.graphs.restgpt import build_restgpt
from tests.restgpt.swap_checks import assert_only_planner_differs, assert_selector_shortlists, roles_record

TERSE = "Plan answers about $scenario_name one step at a time; end with Final Answer: and the answer."
TOP_K = 5


async def shortlisting_selector(ep: Any, *, subtask: str, **inputs: Any) -> Any:
    words = set(re.findall(r"[a-z]{3,}", subtask.lower()))
    ranked = sorted(
        ep.spec.endpoints, key=lambda e: -len(words & set(re.findall(r"[a-z]{3,}", e.key.lower())))
    )
    keys = [e.key for e in ranked[:TOP_K]]
    return await UPSTREAM["selector"].act(ep, subtask=subtask, endpoints=keys, **inputs)


def _retrieval(model: Any, env: Any, options: dict[str, Any]) -> Any:
    return build_restgpt(model, env, options, roles={"selector": shortlisting_selector})


register_agent("test-retrieval-selector", _retrieval, env_kind="openapi")


def _run(out: Path, agent: str, **agent_options: Any) -> dict[str, Any]:
    options = RunOptions(
        benchmark="restbench-tmdb",
        agent=agent,
        model="scripted:restgpt-oracle",
        limit=3,
        concurrency=3,
        agent_options=agent_options,
    )
    return run_sync(options, out, progress=False)


def test_a_planner_override_changes_the_planner_prompt_only(tmp_path: Path, data_dir: Path) -> None:
    default = _run(tmp_path / "restgpt", "restgpt")
    terse = _run(tmp_path / "terse", "restgpt", prompts={"planner": TERSE})
    assert default["metrics"]["success_rate"] == terse["metrics"]["success_rate"] == 1.0
    assert_only_planner_differs(tmp_path / "restgpt", tmp_path / "terse")
    record = roles_record(tmp_path / "terse")[0]
    assert record["planner"]["pack"] == "restgraph" and "planner" in record["planner"]["templates"]
    assert {record[r]["pack"] for r in ("selector", "caller", "parser")} == {"upstream"}


def test_the_roles_are_recorded_in_config_traces_viewer_and_report(tmp_path: Path, data_dir: Path) -> None:
    """config.json, each trace, the viewer's episode page and the Table 4 report's setup say which
    pack each role used and the hash of what was overridden (config.json said ``agent_settings: {}``)."""
    _run(tmp_path / "restgpt", "restgpt")
    _run(tmp_path / "terse", "restgpt", prompts={"planner": TERSE})
    digest = hashlib.sha256(TERSE.encode()).hexdigest()[:12]
    config = json.loads((tmp_path / "terse" / "config.json").read_text())
    assert config["agent_roles"]["planner"] == {
        "pack": "restgraph",
        "name": "restgraph.planner",
        "templates": {"planner": digest},
    }
    assert config["agent_roles"]["selector"] == {"pack": "upstream", "name": "upstream.selector"}
    traces = TraceStore(tmp_path / "terse").load().traces
    assert all(t.extra["roles"] == config["agent_roles"] for t in traces)
    line = episode_doc(0, index_run(tmp_path / "terse"), 0)["roles"]
    assert line.startswith(f"planner: restgraph [planner#{digest[:8]}] · selector: upstream"), line
    assert (
        setup_of(tmp_path / "terse", "restbench-tmdb")[0]["roles"]
        == f"planner: restgraph [planner#{digest[:8]}]"
    )
    assert (
        "roles" not in setup_of(tmp_path / "restgpt", "restbench-tmdb")[0]
    )  # nothing swapped, nothing shown


def test_a_retrieval_selector_lists_only_its_shortlist(tmp_path: Path, data_dir: Path) -> None:
    _run(tmp_path / "restgpt", "restgpt")
    _run(tmp_path / "retrieval", "test-retrieval-selector")
    assert_selector_shortlists(tmp_path / "restgpt", tmp_path / "retrieval", TOP_K)
    record = roles_record(tmp_path / "retrieval")[0]["selector"]
    assert (
        record["pack"] == "upstream" and record["name"].endswith("shortlisting_selector") and record["sha256"]
    )


@pytest.mark.browser
def test_the_viewer_page_shows_the_roles_line(tmp_path: Path, data_dir: Path) -> None:
    """``restgraph view --export`` in Chromium: the episode's overview has a ``roles`` entry naming
    the planner's pack and the hash of its overridden template, and the other roles' packs."""
    from playwright.sync_api import sync_playwright

    from tests.conftest import CHROMIUM

    _run(tmp_path / "terse", "restgpt", prompts={"planner": TERSE})
    result = CliRunner().invoke(app, ["view", str(tmp_path / "terse"), "--export", str(tmp_path / "site")])
    assert result.exit_code == 0, result.output
    digest = hashlib.sha256(TERSE.encode()).hexdigest()[:8]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page()
        page.goto((tmp_path / "site" / "index.html").as_uri() + "#0/0")
        page.wait_for_selector("#ep-overview dl.kv")
        terms = page.locator("#ep-overview dl.kv dt")
        values = page.locator("#ep-overview dl.kv dd")
        shown = {terms.nth(k).inner_text(): values.nth(k).inner_text() for k in range(terms.count())}
        browser.close()
    assert shown["roles"].startswith(
        f"planner: restgraph [planner#{digest}] · selector: upstream · caller: upstream"
    )
