"""Swapping one role changes that role and nothing else, as the traces show (issue 26).

Before: a lower-case planner override (``prompts={"planner": ...}``) moved all four roles from the
upstream pack to this project's prompts (caller input tokens 18,120 -> 10,070), and a retrieval
selector that shortlisted endpoints left the upstream selector listing all 54 TMDB endpoints.
Notebook 2 makes the same claims on its own runs (``tests/notebooks``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from restgraph.agents.restgpt.packs import UPSTREAM
from restgraph.evals.benchmark import RunOptions
from restgraph.evals.runner import run_sync
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


def test_a_retrieval_selector_lists_only_its_shortlist(tmp_path: Path, data_dir: Path) -> None:
    _run(tmp_path / "restgpt", "restgpt")
    _run(tmp_path / "retrieval", "test-retrieval-selector")
    assert_selector_shortlists(tmp_path / "restgpt", tmp_path / "retrieval", TOP_K)
    record = roles_record(tmp_path / "retrieval")[0]["selector"]
    assert (
        record["pack"] == "upstream" and record["name"].endswith("shortlisting_selector") and record["sha256"]
    )
