"""``restgraph report`` for AssistantBench runs: the paper's Table 1 layout over the run frames,
n and 95% intervals, the paper's GPT-4-Turbo figures beside the systems that implement them,
normalised runs kept apart, and "gold unavailable" for a split without gold."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from restgraph.evals.reports.assistantbench import NO_GOLD, load_rows, markdown, table
from restgraph.evals.reports.assistantbench_paper import SYSTEMS, TABLE1, TABLE8, system_of
from restgraph.evals.trace import Task, Trace, TraceStore
from tests.foundation.conftest import cli

GOLDS = ["1010000", "Clara Voss", "a\nb", '{"price": 41.75}', "45"]


def _run(
    root: Path,
    name: str,
    agent: str,
    answers: list[str | None],
    *,
    bench: str = "assistantbench-local",
    golds: list[str | None] | None = None,
    **bench_options,
) -> Path:
    run_dir = root / name
    store = TraceStore(run_dir)
    for i, (answer, gold) in enumerate(zip(answers, golds or GOLDS, strict=True)):
        task = Task(id=f"t{i}", benchmark=bench, instruction="q", gold={"answer": gold})
        store.append(
            Trace(
                task_id=task.id,
                task=task,
                benchmark=bench,
                agent=agent,
                model="scripted:x",
                final_answer=answer,
                status="finished",
                config={"bench_options": bench_options},
            )
        )
    (run_dir / "config.json").write_text(
        json.dumps({"options": {"benchmark": bench, "agent": agent, "bench_options": bench_options}})
    )
    return run_dir


ANSWERS = ["1,010,000", "Clara Voss", "a\nb", '{"price": 41.75}', ""]


def test_rows_hold_the_four_metrics_with_n_and_intervals(tmp_path):
    rows = load_rows([_run(tmp_path, "spa", "spa+cb", ANSWERS)])
    (row,) = rows
    assert row.system == "SPA→CB" and row.n == row.n_gold == 5
    # raw answers: the comma quirk scores 0, the raw two-line string 0.5 F1 ... as the official scorer says
    assert row.cells["answer_rate"].value == pytest.approx(4 / 5)
    assert row.cells["exact_match"].value == pytest.approx(
        3 / 5
    )  # "Clara Voss", the gold string itself, the dict
    accuracy = row.cells["accuracy"]
    assert 0 < accuracy.value < 1 and accuracy.low <= accuracy.value <= accuracy.high and accuracy.n == 5
    assert (
        row.cells["precision"].value == pytest.approx(accuracy.value * 5 / 4)
        and row.cells["precision"].n == 4
    )


def test_normalised_runs_are_scored_as_such_and_kept_apart(tmp_path):
    raw = _run(tmp_path, "raw", "spa", ANSWERS)
    normalized = _run(tmp_path, "norm", "spa", ANSWERS, normalize_answers=True)
    rows = {r.setup: r for r in load_rows([raw, normalized])}
    assert set(rows) == {"answers=raw", "answers=normalized"}
    assert rows["answers=normalized"].cells["accuracy"].value > rows["answers=raw"].cells["accuracy"].value


def test_pooled_runs_and_the_paper_columns(tmp_path):
    first, second = _run(tmp_path, "a", "cb-1s", ANSWERS), _run(tmp_path, "b", "cb-1s", ANSWERS)
    other = _run(tmp_path, "c", "browser", ANSWERS)
    rows = load_rows([first, second, other])
    assert [(r.agent, r.n, r.runs) for r in rows] == [("cb-1s", 10, 2), ("browser", 5, 1)]
    header, body = table(rows)
    assert header[:5] == ["Type", "System", "agent (model)", "setup", "n (err)"] and "paper Acc." in header
    by_system = {cells[1]: cells for cells in body}
    assert by_system["CB-1S"][0] == "Closed-book LMs" and by_system["CB-1S"][-4:] == [
        "22.2",
        "89.5",
        "24.8",
        "8.3",
    ]
    assert by_system["browser"][0].startswith("Other") and by_system["browser"][-4:] == ["", "", "", ""]
    assert by_system["SPA→CB"][2] == "(not run)" and by_system["SPA→CB"][-4:] == [
        "25.2",
        "91.7",
        "27.5",
        "9.9",
    ]
    assert len(body) == 2 + len(SYSTEMS) - 1
    assert "arXiv 2407.15711" in markdown(header, body)


def test_a_split_without_gold_says_so(tmp_path):
    run = _run(
        tmp_path,
        "test",
        "spa",
        ["55", "", "x", "y", "z"],
        bench="assistantbench",
        golds=[None] * 5,
        split="test",
    )
    (row,) = load_rows([run])
    assert row.n == 5 and row.n_gold == 0 and set(row.cells) == {"answer_rate"}
    assert row.cells["answer_rate"].value == pytest.approx(4 / 5)
    _, body = table([row])
    cells = body[0]
    assert NO_GOLD in cells[4] and cells[5] == NO_GOLD and cells[7] == NO_GOLD and cells[8] == NO_GOLD
    assert not any(c.startswith("0.0") for c in cells[5:9])


def test_restgraph_report_picks_the_layout(tmp_path):
    runs = [_run(tmp_path, "x", "spa", ANSWERS), _run(tmp_path, "y", "seeact+cb", ANSWERS)]
    for run in runs:
        assert cli("score", str(run)).exit_code == 0
    result = cli("report", *map(str, runs), "--out", str(tmp_path / "report"))
    assert result.exit_code == 0, result
    assert "Table 1 layout" in result.stdout and "SeeAct→CB" in result.stdout and "23.4" in result.stdout
    assert "| SeeAct→CB |" in (tmp_path / "report" / "assistantbench_table1.md").read_text()
    csv_rows = (tmp_path / "report" / "assistantbench_table1.csv").read_text().splitlines()
    assert (
        csv_rows[0].startswith("benchmark,split,agent")
        and len(csv_rows) == 3
        and ",23.4," in csv_rows[2] + csv_rows[1]
    )


@pytest.mark.parametrize(
    ("agent", "system"),
    [
        ("spa", "SPA"),
        ("seeact", "SeeAct"),
        ("cb-inst", "CB-INST"),
        ("cb-1s", "CB-1S"),
        ("ralm-1s", "RALM-1S"),
        ("spa+cb", "SPA→CB"),
        ("ralm-inst->cb", "RALM-INST→CB"),
        ("seeact-cb", "SeeAct→CB"),
        ("browser", None),
        ("browser+cb", None),
        ("closed-book", None),
    ],
)
def test_agent_names_map_to_the_papers_systems(agent, system):
    assert system_of(agent) == system


def _paper_text() -> str | None:
    data = os.environ.get("RESTGRAPH_DATA_DIR")
    path = Path(data).parent / "docs" / "papers" / "assistantbench-paper.txt" if data else None
    return path.read_text(encoding="utf-8") if path and path.is_file() else None


def test_the_published_figures_match_the_papers_text():
    text = _paper_text()
    if text is None:
        pytest.skip("the paper's text is not at $RESTGRAPH_DATA_DIR/../docs/papers/assistantbench-paper.txt")
    names = {
        "CB-INST": "CB-I NST",
        "CB-1S": "CB-1S",
        "RALM-INST": "RALM-I NST",
        "RALM-1S": "RALM-1S",
        "SeeAct": "S EE ACT",
        "SPA": "SPA (ours)",
    }
    for caption, figures in (
        ("Table 1: Results on the A SSISTANT B ENCH test set with GPT4-T", TABLE1),
        ("Table 8: Results on the A SSISTANT B ENCH develop", TABLE8),
    ):
        end = text.index(caption)
        # Table 1's rows are the lines just before its caption; Table 8's sit in the column beside it
        window = text[max(0, end - 3000) : end + (0 if caption.startswith("Table 1") else 200)]
        for system, row in figures.items():
            base, ensemble = system.removesuffix("→CB"), system.endswith("→CB")
            label = names[base].replace(" (ours)", "") + ("→CB" if ensemble else "")
            pattern = (
                re.escape(label)
                + (r"(?: \(ours\))?" if base == "SPA" else "")
                + r"\s+"
                + r"\s+".join(re.escape(f"{v:.1f}") for v in row)
            )
            assert re.search(pattern, window), (caption, system, row)


def test_summary_of_a_split_without_gold_has_no_accuracy(tmp_path):
    from restgraph.evals.report import rows as generic_rows
    from restgraph.evals.summary import write_summary

    run = _run(
        tmp_path,
        "test",
        "spa",
        ["55", "", "x", "y", "z"],
        bench="assistantbench",
        golds=[None] * 5,
        split="test",
    )
    summary = write_summary(run)
    assert "accuracy" not in summary["metrics"] and "precision" not in summary["metrics"]
    assert summary["metrics"]["gold_unavailable"] == 5 and summary["metrics"]["answer_rate"] == pytest.approx(
        0.8
    )
    graded = write_summary(_run(tmp_path, "dev", "spa", ANSWERS))
    header, body = generic_rows(
        [graded, summary]
    )  # the generic table beside a graded run: no 0.0 for the hidden split
    accuracy = header.index("accuracy")
    assert body[1][accuracy] == NO_GOLD and body[0][accuracy] != NO_GOLD
