"""Table 4 report: rows per agent/model, both scenarios side by side, the paper's numbers, files written."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from restgraph.evals.reports.table4 import load_rows, main, notes, table, with_paper


def write_summary(
    folder: Path,
    bench: str,
    agent: str,
    success: float,
    model: str = "m",
    max_tokens: int = 256,
    agent_options: dict[str, Any] | None = None,
) -> Path:
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
            {
                "options": {
                    "agent_options": agent_options or {},
                    "model_options": {"temperature": 0.0, "max_tokens": max_tokens},
                }
            }
        )
    )
    return folder


def test_table4_layout_and_files(tmp_path: Path) -> None:
    runs = [
        write_summary(tmp_path / "a", "restbench-tmdb", "restgpt", 0.75),
        write_summary(tmp_path / "b", "restbench-spotify", "restgpt", 0.0, max_tokens=700),
        write_summary(tmp_path / "c", "restbench-tmdb", "react", 0.5),
        write_summary(tmp_path / "d", "smoke", "chat", 1.0),
    ]
    rows = load_rows(runs)
    # one row per method: TMDB (max_tokens 256) and Spotify (700) share it; the protocol is no identity
    assert [(r.agent, sorted(r.cells)) for r in rows] == [
        ("react", ["TMDB"]),
        ("restgpt", ["Spotify", "TMDB"]),
    ]
    header, body = table(with_paper(rows), price_in=1.0, price_out=2.0)
    cells = {(c[0], c[1]): dict(zip(header, c, strict=True)) for c in body}
    assert list(cells) == [("ReAct", "ours"), ("ReAct", "paper"), ("RestGPT", "ours"), ("RestGPT", "paper")]
    restgpt = cells[("RestGPT", "ours")]
    assert (restgpt["TMDB Success %"], restgpt["TMDB Correct Path %"], restgpt["TMDB ΔSol.Len"]) == (
        "75.0",
        "50.0",
        "+0.25",
    )
    assert restgpt["TMDB #API"] == "2.50" and restgpt["TMDB n (err)"] == "4 (1)"
    assert restgpt["TMDB tok/ep"] == "1100" and restgpt["TMDB $/ep"] == "0.0012"
    assert restgpt["Spotify ΔSol.Len"] == "–"  # no successes: Δ is undefined, as in the paper
    # model "m" is none of the paper's: the paper's text-davinci-003 row is there all the same
    paper = cells[("RestGPT", "paper")]
    assert paper["TMDB Success %"].startswith("75.0 [") and paper["Spotify Correct Path %"].startswith(
        "74.5 ["
    )
    assert paper["TMDB n (err)"] == "100" and paper["Spotify n (err)"] == "57"
    assert cells[("ReAct", "ours")]["Spotify Success %"] == ""  # ReAct ran no Spotify
    note = "\n".join(notes(with_paper(rows)))
    assert "TMDB protocol" in note and "max_tokens=256" in note and "max_tokens=700" in note
    assert "hand-judged" in note and "text-davinci-003" in note
    main([str(r) for r in runs] + ["--out", str(tmp_path / "out")])
    for name in ("table4.md", "table4.csv", "table4.png", "index.html"):
        assert (tmp_path / "out" / name).stat().st_size > 0
    md = (tmp_path / "out" / "table4.md").read_text()
    assert "| ReAct | ours |" in md and "| ReAct | paper |" in md


def test_runs_of_one_method_split_only_when_they_differ(tmp_path: Path) -> None:
    runs = [
        write_summary(tmp_path / "a", "restbench-tmdb", "restgpt", 0.75),
        write_summary(tmp_path / "b", "restbench-tmdb", "restgpt", 0.5, model="openai:gpt-4o"),
        write_summary(tmp_path / "c", "restbench-tmdb", "restgpt", 0.5, agent_options={"prompts": "fixed"}),
        write_summary(tmp_path / "d", "restbench-spotify", "restgpt", 0.5, max_tokens=700),
    ]
    labels = [r.label for r in load_rows(runs)]
    assert labels == [
        "ours (m, -A prompts=-)",
        "ours (m, -A prompts=fixed)",
        "ours (openai:gpt-4o, -A prompts=-)",
    ]
    # another cap than the published one on the same scenario is another protocol: its own row
    other = write_summary(tmp_path / "e", "restbench-spotify", "restgpt", 0.1, max_tokens=64)
    assert len(load_rows([runs[0], runs[3], other])) == 2


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
    header, body = table(with_paper(load_rows(runs)))
    paper = {(c[0], c[1]): c[header.index("TMDB Success %")] for c in body if c[1].startswith("paper")}
    assert [k for k in paper] == [
        ("ReAct", "paper"),  # the paper ran ReAct on text-davinci-003 only
        ("RestGPT", "paper"),
        ("RestGPT", "paper, gpt-3.5-turbo-0301"),
        ("RestGPT", "paper, Llama2-13B"),
        ("RestGPT", "paper, Vicuna-13B"),
    ]
    assert paper[("RestGPT", "paper")].startswith("75.0 [") and paper[("ReAct", "paper")].startswith("44.0 [")
    assert paper[("RestGPT", "paper, gpt-3.5-turbo-0301")].startswith("68.0 [")
    assert paper[("RestGPT", "paper, Vicuna-13B")].startswith("9.0 [")


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
    assert (
        cells["TMDB Success %"] == "75.0 [30.0, 95.0]" and cells["TMDB Correct Path %"] == "50.0 [15.0, 85.0]"
    )
