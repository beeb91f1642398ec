"""Notebook 4's claims, each checked on runs like the notebook's own (its text quoted in each docstring)."""

from __future__ import annotations

from pathlib import Path

from restgraph.evals.benchmark import RunOptions
from restgraph.evals.datasets import resolve
from restgraph.evals.datasets.shortcuts import FILES
from restgraph.evals.reports import api_use as api_use_report
from restgraph.evals.reports.shortcuts import load_run, measured
from restgraph.evals.runner import run_sync


def test_the_stored_log_is_a_small_sample_and_empty_panels_are_left_out(tmp_path: Path, data_dir: Path) -> None:
    """"The log is a **sample**: the pinned file is a small excerpt of upstream's `open-mixtral-8x7b`
    log ... Panels with nothing counted (a log replay carries no essential-parameter data, so no
    static-parameter fill; a log without ask-for-input actions counts none) are left out of the heat
    map and named in its title\""""
    options = RunOptions(
        benchmark="shortcuts", agent="replay", model="none", bench_options={"source": str(resolve(FILES["sample_log"]))}
    )
    summary = run_sync(options, tmp_path / "replay", progress=False)
    assert summary["n"] < 20 and summary["metrics"]["api_selection_accuracy_n"] < 100
    shown = measured([load_run(tmp_path / "replay")])
    assert "static_param_accuracy" not in shown and "ask_input_accuracy" not in shown
    assert "api_selection_accuracy" in shown


def test_the_chaining_suite_draws_chain_length(tmp_path: Path, data_dir: Path) -> None:
    """"pass rate against each dial of the generator the suites run here (number of distractors and
    target position; noise and naming style; chain length)\""""
    options = RunOptions(
        benchmark="api-use",
        agent="api-use-coder",
        model="scripted:api-use-target",
        bench_options={"suite": "chaining"},
        limit=6,
    )
    run_sync(options, tmp_path / "chaining", progress=False)
    dials = api_use_report.plot([api_use_report.Run(tmp_path / "chaining")], tmp_path / "dials.png")
    assert "chain_length" in dials
