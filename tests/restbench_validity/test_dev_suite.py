"""The rule checker against the hand-labelled dev suite (327 answers, 1 correct + 2 traps per
query): no incorrect answer passes, no correct answer fails. Also: the previous containment
checker is measurably worse on the same suite (the measurement can fail)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bench.answer_validity import load_suite, main, measure


@pytest.fixture(scope="module")
def suite() -> list[dict]:
    root = os.environ.get("RESTGRAPH_DATA_DIR")
    if not root:
        pytest.skip(
            "RESTGRAPH_DATA_DIR is unset: the labelled dev suite lives in $RESTGRAPH_DATA_DIR/restbench/answer_suite_dev.jsonl"
        )
    path = Path(root) / "restbench" / "answer_suite_dev.jsonl"
    if not path.is_file():
        pytest.skip(f"{path} is missing")
    return load_suite(path)


def test_zero_false_positives_and_zero_false_negatives_on_the_dev_suite(suite):
    assert len(suite) == 327
    result = measure(suite)
    overall = result["table"]["all"]
    assert overall["n"] == 327 and overall["incorrect"] == 218 and overall["correct"] == 109
    assert result["errors"] == [], result["errors"][:5]
    assert overall["fp"] == 0 and overall["fn"] == 0


def test_the_containment_checker_it_replaces_errs_on_the_same_suite(suite):
    table = measure(suite, checker="containment")["table"]["all"]
    assert table["n"] == 300  # TMDB rows only
    assert table["fp"] >= 40 and table["fn"] >= 5, table


def test_the_bench_script_prints_the_figures(suite, capsys, tmp_path):
    root = Path(os.environ["RESTGRAPH_DATA_DIR"]) / "restbench" / "answer_suite_dev.jsonl"
    assert main([str(root)]) == 0
    out = capsys.readouterr().out
    assert (
        "false positives" in out
        and "trap:negation" in out
        and "0/218 (0.0%)" in out
        and "0/109 (0.0%)" in out
    )
    assert main([str(tmp_path / "missing.jsonl")]) == 2


def test_an_llm_judge_is_measured_against_the_labels(suite, capsys):
    """A scripted judge that passes everything: all incorrect answers are its false positives."""
    from restgraph.agents.scripted import register_scripted

    register_scripted("test-yes-judge", lambda task, params: lambda messages: "VERDICT: PASS")
    assert (
        main(
            [
                str(Path(os.environ["RESTGRAPH_DATA_DIR"]) / "restbench" / "answer_suite_dev.jsonl"),
                "--judge",
                "scripted:test-yes-judge",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert (
        "judge: scripted:test-yes-judge" in out
        and "218/218 (100.0%)" in out
        and "agreement with the rule checker: 109/327" in out
    )


def test_several_suites_are_measured_each_on_its_own(suite, capsys, tmp_path):
    """Two suites side by side (as the dev and the blind suite are): one table and one rates line each."""
    import json

    from tests.restbench_validity.test_formats import ACCEPTED
    from tests.restbench_validity.test_traps import TRAPS

    rows = [
        {"scenario": sc, "query_id": f"{sc}/{q}", "answer": a, "correct": False, "trap": family}
        for family, items in TRAPS.items()
        for sc, q, a in items
    ] + [
        {"scenario": sc, "query_id": f"{sc}/{q}", "answer": a, "correct": True, "trap": "format"}
        for items in ACCEPTED.values()
        for sc, q, a in items
    ]
    traps = tmp_path / "traps.jsonl"
    traps.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    dev = Path(os.environ["RESTGRAPH_DATA_DIR"]) / "restbench" / "answer_suite_dev.jsonl"
    assert main([f"dev={dev}", str(traps)]) == 0
    out = capsys.readouterr().out
    wrong = sum(len(v) for v in TRAPS.values())
    right = sum(len(v) for v in ACCEPTED.values())
    assert "suite: dev " in out and "suite: traps " in out
    assert "dev          FPR 0.000 (0/218)   FNR 0.000 (0/109)" in out
    assert f"traps        FPR 0.000 (0/{wrong})   FNR 0.000 (0/{right})" in out
    assert main([str(dev), str(tmp_path / "missing.jsonl")]) == 2


def test_without_a_suite_the_bench_measures_the_dev_suites_then_blind_in_that_order():
    from bench.answer_validity import default_suites

    suites = default_suites()
    assert [name for name, _ in suites] == ["dev", "dev2", "dev3", "dev4", "dev5", "blind"]
    dev2 = load_suite(suites[1][1])
    assert len(dev2) >= 300 and {r["scenario"] for r in dev2} == {"tmdb", "spotify"}
    assert {r["trap"] for r in dev2} >= {"wrong_entity", "multi_sentence"}
    assert all(isinstance(r["correct"], bool) and r["answer"].strip() for r in dev2)
