"""Start-up stays light: ``--help``, ``list`` and usage errors import no LangGraph, LangChain,
SciPy or FastAPI (``list`` reads ``evals/catalogue.json``), and that catalogue matches the plugins."""

from __future__ import annotations

import os
import subprocess
import sys

from restgraph.evals import catalogue
from tests.foundation.conftest import REPO, python_lines

HEAVY = ("langgraph", "langchain_core", "scipy", "fastapi", "openai", "numpy")


def test_help_list_and_usage_errors_import_nothing_heavy() -> None:
    probe = f"""
import sys
from typer.testing import CliRunner
import restgraph.evals.cli
from restgraph import evals
for args in (["--help"], ["list"], ["run", "no-such-bench"], ["run", "smoke", "--agent", "no-such-agent"], ["run", "smoke", "--limit", "5:2"]):
    result = CliRunner().invoke(evals.cli.app, args)
    heavy = sorted(m for m in sys.modules if m.split(".")[0] in {HEAVY!r})
    print(args[-1], result.exit_code, len(result.output) > 0, heavy)
"""
    lines = python_lines(probe)
    assert lines == [
        "--help 0 True []",
        "list 0 True []",
        "no-such-bench 2 True []",
        "no-such-agent 2 True []",
        "5:2 2 True []",
    ], lines


def test_list_shows_every_builtin_from_the_catalogue() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "restgraph.evals.cli", "list"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "COLUMNS": "300"},
    )
    assert out.returncode == 0, out.stderr
    saved = catalogue.load()
    lines = out.stdout.splitlines()
    for name, card in saved.benchmarks.items():  # columns: benchmark, default agent, metrics
        line = next(line for line in lines if line.startswith(name + " "))
        assert line.split()[:2] == [name, card.default_agent] and ", ".join(card.metric_keys) in line, name
    for name, card in saved.agents.items():  # columns: agent, acts on, description
        line = next(line for line in lines if line.startswith(name + " "))
        assert line.split()[:2] == [name, card.env_kind] and card.description in line, name
    assert "smoke-oracle" in out.stdout and "restgpt-oracle" in out.stdout


def test_the_catalogue_file_matches_the_plugins() -> None:
    """Each card is what loading its plugin says; a new or changed built-in needs the file redone."""
    built, saved = catalogue.build(), catalogue.load()
    assert catalogue.render(built) == catalogue.render(saved), (
        f"evals/catalogue.json is out of date: run `{catalogue.REGENERATE}` and commit it"
    )


def test_a_card_is_used_only_while_it_fits() -> None:
    """A card naming the declared entry point is shown as is; one for another entry-point value,
    or none at all, means: load the plugin and ask it (a fresh process, so nothing is loaded yet)."""
    probe = """
from restgraph.evals import catalogue
from restgraph.graphs.registry import get_agent
saved = catalogue.load()
wrong = catalogue.AgentCard(entry_point="somewhere.else", env_kind="bogus", description="stale words")
right = saved.agents["oracle"].model_copy(update={"description": "words from the card"})
catalogue.load = lambda: catalogue.Catalogue(benchmarks={}, agents={**saved.agents, "chat": wrong, "oracle": right})
cards = catalogue.agent_cards()
print(cards["chat"].description == get_agent("chat").description, cards["oracle"].description)
print(sorted(catalogue.benchmark_cards()) == sorted(saved.benchmarks))
"""
    lines = python_lines(probe)
    assert lines == ["True words from the card", "True"], lines
