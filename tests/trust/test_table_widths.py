"""Every table the CLI prints (run, report, list, sweep) at 80, 100 and 120 columns: no line wider
than ``COLUMNS`` (piped, as here), and every benchmark, agent, model name and number whole on a
line: a table that does not fit changes layout (fewer columns, a table per scenario or per group
of metrics, key/value lines) instead of folding cells (``benc/hmar/k``, ``success_ra/te``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.foundation.conftest import cli
from tests.sweep.test_table4_study import assert_fits

WIDTHS = (80, 100, 120)
ORACLE = "scripted:restgpt-oracle"


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory, data_dir: Path) -> list[Path]:
    root = tmp_path_factory.mktemp("widths")
    out = []
    for bench, agent in (("restbench-tmdb", "restgpt-no-parser"), ("restbench-tmdb", "react")):
        folder = root / f"{agent}-{bench}"
        result = cli(
            "run", bench, "--agent", agent, "--model", ORACLE, "--limit", "2", "--out", folder, "--quiet"
        )
        assert result.exit_code == 0, result
        out.append(folder)
    return out


@pytest.mark.parametrize("width", WIDTHS)
def test_run_summary_fits(
    width: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, data_dir: Path
) -> None:
    monkeypatch.setenv("COLUMNS", str(width))
    result = cli(
        "run", "restbench-tmdb", "--agent", "restgpt-no-parser", "--model", ORACLE, "--limit", "1",
        "--out", tmp_path / "r", "--quiet",
    )  # fmt: skip
    assert result.exit_code == 0, result
    assert_fits(result.stdout, width, ["restbench-tmdb", "restgpt-no-parser", ORACLE, "success_rate"])


@pytest.mark.parametrize("width", WIDTHS)
def test_generic_report_fits(width: int, runs: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", str(width))
    result = cli("report", *runs, "--layout", "generic")
    assert result.exit_code == 0, result
    summary = json.loads((runs[0] / "summary.json").read_text())
    tokens = f"{summary['usage']['input_tokens']}/{summary['usage']['output_tokens']}"
    names = ["restbench-tmdb", "restgpt-no-parser", "react", ORACLE, "success_rate", "correct_path_rate"]
    assert_fits(result.stdout, width, names)
    assert tokens in result.stdout or "tokens in/out, cost $: restgraph report --format csv" in result.stdout
    monkeypatch.setenv("COLUMNS", "300")
    assert tokens in cli("report", *runs, "--layout", "generic").stdout  # a wide terminal gets every column
    assert "1.000 [0.342, 1.000]" in result.stdout  # a number and its interval never split


@pytest.mark.parametrize("width", WIDTHS)
def test_list_fits(width: int, monkeypatch: pytest.MonkeyPatch) -> None:
    from restgraph.evals.catalogue import agent_cards, benchmark_cards

    monkeypatch.setenv("COLUMNS", str(width))
    result = cli("list")
    assert result.exit_code == 0, result
    assert_fits(result.stdout, width, [*benchmark_cards(), *agent_cards(), "scripted:<name>"])
    options = cli("list", "--options", "restgpt")
    assert options.exit_code == 0, options
    assert_fits(options.stdout, width, ["planner_steps", "selector_retries", "caller_iterations"])


@pytest.mark.parametrize("width", WIDTHS)
def test_sweep_report_fits(
    width: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, data_dir: Path
) -> None:
    study = tmp_path / "study.yaml"
    study.write_text(
        "name: widths\nbenchmarks: [restbench-tmdb, restbench-spotify]\n"
        f"agents: [restgpt-no-parser, react]\nmodels: ['{ORACLE}']\nlimit: 1\nreport: table4\n"
    )
    monkeypatch.setenv("COLUMNS", str(width))
    result = cli("sweep", study, "--out", tmp_path / "s", "--quiet")
    assert result.exit_code == 0, result
    assert_fits(
        result.stdout, width, ["ReAct", "RestGPT w/o Parser", "ours", "paper", "44.0", "46.0", "1 (0)"]
    )
    assert "TMDB" in result.stdout and "Spotify" in result.stdout


@pytest.mark.parametrize("width", WIDTHS)
def test_markdown_reports_print_as_fitted_tables(width: int) -> None:
    """ShortcutsBench and Synthetic API Use reports write Markdown; on the terminal each of its
    tables changes layout to fit instead of running past the edge."""
    import io

    from rich.console import Console

    from restgraph.evals.termtable import print_markdown

    names = ["shortcuts-next-action (openai:Qwen/Qwen2.5-72B-Instruct)", "replay (mixtral-8x7b)"]
    header = "| run | " + " | ".join(f"level {i} api_selection_accuracy" for i in range(1, 6)) + " |"
    rows = [f"| {name} | " + " | ".join("0.731 [0.702, 0.760]" for _ in range(5)) + " |" for name in names]
    text = "Accuracy per level\n\n" + "\n".join([header, "|" + "---|" * 6, *rows]) + "\n"
    console = Console(file=io.StringIO(), width=width)
    print_markdown(console, text)
    out = console.file.getvalue()
    assert_fits(out, width, [*names, "0.731 [0.702, 0.760]", "Accuracy per level"])
