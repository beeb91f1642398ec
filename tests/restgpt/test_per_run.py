"""RestGPT-family graphs compile once per run; each episode still gets its own role kit, bound to
its own environment (its own HTTP client and request log) and its scenario's prompt pack."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from restgraph.evals.benchmark import RunOptions
from restgraph.evals.runner import EpisodeRunner
from restgraph.graphs.registry import get_agent
from tests.foundation.conftest import trace_rows


def _run_counting_builds(out: Path, benchmark_name: str, agent: str, model: str) -> dict[str, Any]:
    """Four episodes at concurrency 4 with the agent's builder counted: a per-run agent is built
    once, with no model and no environment (each episode binds its own at run time)."""
    spec = get_agent(agent)
    assert spec.per_run
    builds: list[tuple[Any, Any]] = []

    def counting(model_: Any, env: Any, options: dict[str, Any]) -> Any:
        builds.append((model_, env))
        return spec.builder(model_, env, options)

    counted = spec.__class__(**{**spec.__dict__, "builder": counting})
    options = RunOptions(benchmark=benchmark_name, agent=agent, model=model, limit=4, concurrency=4)
    summary = asyncio.run(EpisodeRunner(options, out, agent=counted, progress=False).run())
    assert builds == [(None, None)]
    assert summary["n"] == 4 and summary["errors"] == 0
    return summary


@pytest.mark.parametrize(
    ("benchmark_name", "agent"), [("restbench-tmdb", "restgpt"), ("restbench-spotify", "react")]
)
def test_compiled_once_and_each_episode_has_its_own_kit(
    tmp_path: Path, data_dir: Path, benchmark_name: str, agent: str
) -> None:
    _run_counting_builds(tmp_path, benchmark_name, agent, "scripted:restgpt-oracle")
    rows = trace_rows(tmp_path)
    # every episode's HTTP calls are its own (an episode reading another's kit would log the
    # other's requests, or none), and its config names the scenario's prompt pack
    assert all(any(c["kind"] == "http" for s in r["steps"] for c in s["tool_calls"]) for r in rows)
    packs = {
        s["update"]["config"]["prompt_pack"]
        for r in rows
        for s in r["steps"]
        if s["node"] == "start" and s.get("update") and "config" in s["update"]
    }
    assert packs == {"upstream"}


@pytest.mark.parametrize(
    ("benchmark_name", "agent", "model", "success"),
    [
        ("restbench-tmdb", "oracle", "none", "success_rate"),
        ("api-use", "api-use-coder", "scripted:api-use-target", "pass_rate"),
        ("shortcuts", "shortcuts-next-action", "scripted:shortcuts-gold", "api_selection_accuracy"),
    ],
)
def test_other_agents_compile_once_per_run_and_still_score(
    tmp_path: Path, data_dir: Path, benchmark_name: str, agent: str, model: str, success: str
) -> None:
    """The oracle, the Synthetic API coder and the ShortcutsBench next-action agent are compiled
    once per run too; each episode still acts on its own environment (a perfect score says every
    episode used its own task's environment and model)."""
    summary = _run_counting_builds(tmp_path, benchmark_name, agent, model)
    assert summary["metrics"][success] == 1.0, summary
