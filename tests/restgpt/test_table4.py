"""Table 4 report: rows per agent/model, both scenarios side by side, the paper's numbers, files written."""

from __future__ import annotations

import json
from pathlib import Path

from evals.reports.table4 import load_rows, main, table


def write_summary(folder: Path, bench: str, agent: str, success: float) -> Path:
    folder.mkdir(parents=True)
    (folder / "summary.json").write_text(json.dumps({
        "benchmark": bench, "agent": agent, "model": "m", "n": 4,
        "metrics": {"success_rate": success, "correct_path_rate": 0.5, "delta_solution_len": 0.25, "mean_api_calls": 2.5},
        "usage": {"input_tokens": 4000, "output_tokens": 400, "model_calls": 40}}))
    return folder


def test_table4_layout_and_files(tmp_path: Path) -> None:
    runs = [write_summary(tmp_path / "a", "restbench-tmdb", "restgpt", 0.75), write_summary(tmp_path / "b", "restbench-spotify", "restgpt", 0.0),
            write_summary(tmp_path / "c", "restbench-tmdb", "react", 0.5), write_summary(tmp_path / "d", "smoke", "chat", 1.0)]
    rows = load_rows(runs)
    assert [r.agent for r in rows] == ["react", "restgpt"]  # paper order; non-RestBench runs ignored
    header, body = table(rows, price_in=1.0, price_out=2.0)
    restgpt = dict(zip(header, body[1], strict=True))
    assert (restgpt["TMDB Succ"], restgpt["TMDB CP"], restgpt["TMDB Δ"], restgpt["TMDB #API"]) == ("75.0", "50.0", "+0.25", "2.50")
    assert restgpt["TMDB tok/ep"] == "1100" and restgpt["TMDB $/ep"] == "0.0012"
    assert restgpt["Spotify Δ"] == "–"  # no successes: Δ is undefined, as in the paper
    assert restgpt["TMDB paper Succ/CP/Δ"] == "75.0 / 79.0 / +0.55"
    assert dict(zip(header, body[0], strict=True))["Spotify Succ"] == ""
    main([str(r) for r in runs] + ["--out", str(tmp_path / "out")])
    for name in ("table4.md", "table4.csv", "table4.png"):
        assert (tmp_path / "out" / name).stat().st_size > 0
    assert "| react (m) |" in (tmp_path / "out" / "table4.md").read_text()


def test_restgraph_report_uses_the_table4_layout_for_restbench_runs(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from evals.cli import app

    runs = [write_summary(tmp_path / "a", "restbench-tmdb", "restgpt", 0.75), write_summary(tmp_path / "b", "restbench-spotify", "react", 0.5)]
    result = CliRunner().invoke(app, ["report", *map(str, runs), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert "Table 4 layout" in result.output and "paper" in (tmp_path / "out" / "table4.md").read_text()
    generic = CliRunner().invoke(app, ["report", *map(str, runs), "--layout", "generic"])
    assert generic.exit_code == 0 and "Table 4 layout" not in generic.output
    bad = CliRunner().invoke(app, ["report", *map(str, runs), "--layout", "nope"])
    assert bad.exit_code == 2


def test_generic_table_leaves_per_dial_breakdowns_out(tmp_path: Path) -> None:
    from evals.report import metric_names

    summaries = [{"metrics": {"pass_rate": 0.5, "pass_rate/k=3": 1.0, "pass@1": 0.5}}]
    assert metric_names(summaries) == ["pass_rate", "pass@1"]
