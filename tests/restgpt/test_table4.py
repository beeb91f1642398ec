"""Table 4 report: rows per agent/model, both scenarios side by side, the paper's numbers, files written."""

from __future__ import annotations

import json
from pathlib import Path

from restgraph.evals.reports.table4 import load_rows, main, table


def write_summary(folder: Path, bench: str, agent: str, success: float, model: str = "m") -> Path:
    folder.mkdir(parents=True)
    (folder / "summary.json").write_text(
        json.dumps(
            {
                "benchmark": bench,
                "agent": agent,
                "model": model,
                "n": 4,
                "status_counts": {"finished": 3, "error:TimeoutError": 1},
                "metrics": {
                    "success_rate": success,
                    "correct_path_rate": 0.5,
                    "delta_solution_len": 0.25,
                    "mean_api_calls": 2.5,
                },
                "usage": {"input_tokens": 4000, "output_tokens": 400, "model_calls": 40},
            }
        )
    )
    (folder / "config.json").write_text(
        json.dumps(
            {"options": {"agent_options": {}, "model_options": {"temperature": 0.0, "max_tokens": 256}}}
        )
    )
    return folder


def test_table4_layout_and_files(tmp_path: Path) -> None:
    runs = [
        write_summary(tmp_path / "a", "restbench-tmdb", "restgpt", 0.75),
        write_summary(tmp_path / "b", "restbench-spotify", "restgpt", 0.0),
        write_summary(tmp_path / "c", "restbench-tmdb", "react", 0.5),
        write_summary(tmp_path / "d", "smoke", "chat", 1.0),
    ]
    rows = load_rows(runs)
    assert [r.agent for r in rows] == ["react", "restgpt"]  # paper order; non-RestBench runs ignored
    header, body = table(rows, price_in=1.0, price_out=2.0)
    restgpt = dict(zip(header, body[1], strict=True))
    assert (restgpt["TMDB Succ"], restgpt["TMDB CP"], restgpt["TMDB Δ"], restgpt["TMDB #API"]) == (
        "75.0",
        "50.0",
        "+0.25",
        "2.50",
    )
    assert restgpt["TMDB setup"] == "prompts=upstream text temperature=0.0 max_tokens=256"
    assert restgpt["TMDB tok/ep"] == "1100" and restgpt["TMDB $/ep"] == "0.0012"
    assert restgpt["Spotify Δ"] == "–"  # no successes: Δ is undefined, as in the paper
    assert restgpt["TMDB paper Succ/CP/Δ"] == ""  # model "m" is none of the paper's models
    assert dict(zip(header, body[0], strict=True))["Spotify Succ"] == ""
    main([str(r) for r in runs] + ["--out", str(tmp_path / "out")])
    for name in ("table4.md", "table4.csv", "table4.png"):
        assert (tmp_path / "out" / name).stat().st_size > 0
    assert "| react (m) |" in (tmp_path / "out" / "table4.md").read_text()


def test_restgraph_report_uses_the_table4_layout_for_restbench_runs(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from restgraph.evals.cli import app

    runs = [
        write_summary(tmp_path / "a", "restbench-tmdb", "restgpt", 0.75),
        write_summary(tmp_path / "b", "restbench-spotify", "react", 0.5),
    ]
    result = CliRunner().invoke(app, ["report", *map(str, runs), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert "Table 4 layout" in result.output and "paper" in (tmp_path / "out" / "table4.md").read_text()
    generic = CliRunner().invoke(app, ["report", *map(str, runs), "--layout", "generic"])
    assert generic.exit_code == 0 and "Table 4 layout" not in generic.output
    bad = CliRunner().invoke(app, ["report", *map(str, runs), "--layout", "nope"])
    assert bad.exit_code == 2


def test_generic_table_leaves_per_dial_breakdowns_out(tmp_path: Path) -> None:
    from restgraph.evals.report import metric_names

    summaries = [{"metrics": {"pass_rate": 0.5, "pass_rate/k=3": 1.0, "pass@1": 0.5}}]
    assert metric_names(summaries) == ["pass_rate", "pass@1"]


def test_paper_rows_match_by_agent_and_model(tmp_path: Path) -> None:
    runs = [
        write_summary(tmp_path / "a", "restbench-tmdb", "restgpt", 0.7, model="openai:gpt-3.5-turbo-0301"),
        write_summary(tmp_path / "b", "restbench-tmdb", "restgpt", 0.7, model="openai:text-davinci-003"),
        write_summary(
            tmp_path / "c", "restbench-tmdb", "restgpt", 0.0, model="openai:meta-llama/Llama-2-13b-chat-hf"
        ),
        write_summary(
            tmp_path / "d", "restbench-tmdb", "restgpt", 0.1, model="local:/models/vicuna-13b-v1.5.Q4.gguf"
        ),
        write_summary(tmp_path / "e", "restbench-tmdb", "react", 0.4, model="openai:gpt-3.5-turbo-0301"),
    ]
    header, body = table(load_rows(runs))
    paper = {cells[0]: dict(zip(header, cells, strict=True))["TMDB paper Succ/CP/Δ"] for cells in body}
    assert paper["restgpt (openai:gpt-3.5-turbo-0301)"] == "68.0 / 65.0 / +0.72"
    assert paper["restgpt (openai:text-davinci-003)"] == "75.0 / 79.0 / +0.55"
    assert paper["restgpt (openai:meta-llama/Llama-2-13b-chat-hf)"] == "0.0 / 0.0 / –"
    assert paper["restgpt (local:/models/vicuna-13b-v1.5.Q4.gguf)"] == "9.0 / 15.0 / +1.21"
    assert paper["react (openai:gpt-3.5-turbo-0301)"] == ""  # the paper ran ReAct on text-davinci-003 only


def test_correct_path_carries_its_interval(tmp_path: Path) -> None:
    run = write_summary(tmp_path / "a", "restbench-tmdb", "restgpt", 0.75)
    summary = json.loads((run / "summary.json").read_text())
    summary["metric_stats"] = {
        "success_rate": {"ci95": [0.3, 0.95]},
        "correct_path_rate": {"ci95": [0.15, 0.85]},
    }
    (run / "summary.json").write_text(json.dumps(summary))
    header, body = table(load_rows([run]))
    cells = dict(zip(header, body[0], strict=True))
    assert cells["TMDB Succ"] == "75.0 [30.0, 95.0]" and cells["TMDB CP"] == "50.0 [15.0, 85.0]"
