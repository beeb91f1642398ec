"""Reports are built on typed frames: Table 4 pools the episodes frames (``restgraph.evals.results``) of every
run of an (agent, model, setup), so a single run's cell equals its ``summary.json`` and a pooled cell
keeps an interval for every per-episode metric; the CSV files hold numbers, not formatted cells."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pandas as pd
import pytest

from restgraph.evals.report import frame, load_summaries
from restgraph.evals.reports.table4 import csv_text, load_rows, main, table, with_paper
from restgraph.evals.reports.table4 import frame as table4_frame
from tests.foundation.conftest import cli


@pytest.fixture(scope="module")
def tmdb_runs(tmp_path_factory: pytest.TempPathFactory, data_dir: Path) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("runs")
    a, b = root / "a", root / "b"
    assert (
        cli("run", "restbench-tmdb", "--agent", "oracle", "--limit", "3", "--out", a, "--quiet").exit_code
        == 0
    )
    assert (
        cli("run", "restbench-tmdb", "--agent", "oracle", "--limit", "3:5", "--out", b, "--quiet").exit_code
        == 0
    )
    return a, b


def test_a_single_runs_cell_equals_its_summary(tmdb_runs: tuple[Path, Path]) -> None:
    a, _ = tmdb_runs
    summary = json.loads((a / "summary.json").read_text())
    cell = load_rows([a])[0].cells["TMDB"]
    assert cell["n"] == summary["n"] == 3 and cell["errors"] == summary["errors"]
    for metric, value in summary["metrics"].items():
        assert cell[metric] == pytest.approx(value), metric
    for metric, stat in summary["metric_stats"].items():
        assert cell["stats"][metric]["ci95"] == pytest.approx(stat["ci95"]), metric


def test_pooled_runs_keep_an_interval_for_every_per_episode_metric(tmdb_runs: tuple[Path, Path]) -> None:
    (row,) = load_rows(list(tmdb_runs))
    cell = row.cells["TMDB"]
    assert cell["n"] == 5 and cell["runs"] == 2
    assert set(cell["stats"]) == {
        "success_rate",
        "correct_path_rate",
        "mean_api_calls",
    }  # summaries alone pool no #API interval
    assert (
        cell["stats"]["mean_api_calls"]["method"] == "bootstrap" and cell["stats"]["mean_api_calls"]["n"] == 5
    )
    header, body = table([row])
    assert dict(zip(header, body[0], strict=True))["TMDB n (err)"] == "5 (0)"


def test_table4_csv_and_generic_csv_hold_typed_numbers(tmdb_runs: tuple[Path, Path], tmp_path: Path) -> None:
    rows = load_rows(list(tmdb_runs))
    df = table4_frame(with_paper(rows))  # tidy: one line per method x source x scenario x metric
    assert str(df["n"].dtype) == "Int64" and str(df["value"].dtype) == "Float64"
    back = pd.read_csv(io.StringIO(csv_text(df)))
    ours = back[(back.source == "ours") & (back.metric == "success_rate")].iloc[0]
    assert ours.value == pytest.approx(rows[0].cells["TMDB"]["success_rate"]) and ours.n == 5
    assert pd.api.types.is_float_dtype(back["ci95_low"]) and set(back.scenario) == {"TMDB"}
    main([str(d) for d in tmdb_runs] + ["--out", str(tmp_path / "out")])
    written = pd.read_csv(tmp_path / "out" / "table4.csv")
    api = written[(written.source == "ours") & (written.metric == "mean_api_calls")]
    assert api.value.iloc[0] == pytest.approx(rows[0].cells["TMDB"]["mean_api_calls"])
    # the paper's numbers are lines of their own, labelled: rates as fractions, like ours
    paper = written[(written.source == "paper") & (written.metric == "success_rate")]
    assert paper.empty  # the oracle agent is none of the paper's methods: no reference row

    generic = frame(load_summaries(list(tmdb_runs)))
    assert list(generic["n"]) == [3, 2] and str(generic["success_rate_ci95_low"].dtype) == "Float64"
    report = cli("report", *tmdb_runs, "--format", "csv")
    parsed = pd.read_csv(io.StringIO(report.stdout))
    assert pd.api.types.is_float_dtype(parsed["success_rate"]) and pd.api.types.is_integer_dtype(
        parsed["errors"]
    )
