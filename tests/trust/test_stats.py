"""restgraph.evals.stats and what uses it: intervals in summary.json and reports, --epochs pass@k / pass^k,
Table 4 pooling every run of an (agent, model), mixed-benchmark reports, --price."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from restgraph.evals import stats
from restgraph.evals.reports.table4 import load_rows
from tests.foundation.conftest import cli


def test_wilson_matches_the_textbook_values() -> None:
    lo, hi = stats.wilson(6, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.3127, 0.8318)  # Wilson 1927 / Newcombe 1998, 95%
    assert stats.wilson(0, 5)[0] == 0.0 and stats.wilson(5, 5)[1] == 1.0


def test_bootstrap_is_deterministic_and_brackets_the_mean() -> None:
    values = [1, 3, 2, 8, 4, 4, 0, 5]
    lo, hi = stats.bootstrap_mean(values)
    assert lo < sum(values) / len(values) < hi and (lo, hi) == stats.bootstrap_mean(values)


def test_one_numeric_score_is_described_without_numpy_as_numpy_would() -> None:
    """One value has nothing to resample: ``describe`` answers without importing numpy (0.1 s of a
    one-task run's start-up, issue 30), with what the bootstrap path gives."""
    import subprocess
    import sys

    code = (
        "import sys; from restgraph.evals import stats; "
        "print(stats.describe([2.5]), stats.describe([None, 3]), 'numpy' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split()[-1] == "False", out
    import numpy as np

    for value in (3, 0.1, 1e-7, 2 / 3, -4.0, 7.0000005):
        mean = float(np.asarray([value], dtype=float).mean())
        lo, hi = stats.bootstrap_mean([value])
        expected = {"n": 1, "mean": round(mean, 6), "se": 0.0, "ci95": [round(lo, 6), round(hi, 6)]}
        assert stats.describe([value]) == expected | {"method": "bootstrap"}, value


def test_pass_at_k_and_pass_hat_k() -> None:
    assert stats.pass_at_k(3, 1, 1) == pytest.approx(1 / 3) and stats.pass_at_k(3, 1, 3) == 1.0
    assert stats.pass_hat_k(3, 2, 2) == pytest.approx(1 / 3) and stats.pass_hat_k(3, 3, 3) == 1.0
    m = stats.epoch_metrics(
        [("a", True), ("a", False), ("a", True), ("b", False), ("b", False), ("b", False)], 3
    )
    assert m["pass@1"] == pytest.approx(1 / 3) and m["pass@3"] == 0.5 and m["pass^3"] == 0.0


def test_summary_carries_n_errors_and_intervals_and_epochs_give_pass_k(tmp_path: Path) -> None:
    out = tmp_path / "run"
    # scripted faults: some tries fail, so the epochs differ and pass@k > pass^k
    result = cli(
        "run",
        "smoke",
        "--model",
        "scripted:smoke-oracle?faults=0.5",
        "--limit",
        "4",
        "--epochs",
        "3",
        "--out",
        out,
        "--quiet",
        "--seed",
        "3",
    )
    summary = json.loads((out / "summary.json").read_text())
    assert summary["n"] == 12 and summary["n_tasks"] == 4, result
    seeds = sorted({json.loads(line)["seed"] for line in (out / "traces.jsonl").read_text().splitlines()})
    assert seeds == [3, 4, 5]  # one seed per epoch
    acc = summary["metric_stats"]["accuracy"]
    assert (
        acc["n"] == 12
        and acc["method"] == "wilson"
        and acc["ci95"][0] <= summary["metrics"]["accuracy"] <= acc["ci95"][1]
    )
    ep = summary["epochs"]
    assert ep["k"] == 3 and ep["pass@3"] >= ep["pass@1"] >= ep["pass^3"]
    assert summary["errors"] == sum(v for k, v in summary["status_counts"].items() if k.startswith("error"))
    assert (
        "errors" in result.stdout and "[" in result.stdout
    )  # the printed table shows errors and the interval


def _summary(folder: Path, bench: str, agent: str, n: int, k: int) -> Path:
    folder.mkdir(parents=True)
    lo, hi = stats.wilson(k, n)
    st = {"n": n, "mean": k / n, "se": 0.1, "ci95": [lo, hi], "method": "wilson", "source": "success"}
    (folder / "summary.json").write_text(
        json.dumps(
            {
                "benchmark": bench,
                "agent": agent,
                "model": "m",
                "n": n,
                "errors": 1,
                "metrics": {
                    "success_rate": k / n,
                    "correct_path_rate": 0.5,
                    "delta_solution_len": 0.25,
                    "mean_api_calls": 2.0,
                },
                "metric_stats": {"success_rate": st},
                "usage": {"input_tokens": 100 * n, "output_tokens": 10 * n, "model_calls": n},
            }
        )
    )
    return folder


def test_table4_pools_every_run_of_an_agent_and_model(tmp_path: Path) -> None:
    runs = [
        _summary(tmp_path / "a", "restbench-tmdb", "restgpt", 10, 6),
        _summary(tmp_path / "b", "restbench-tmdb", "restgpt", 1, 0),
    ]
    (row,) = load_rows(runs)
    cell = row.cells["TMDB"]
    assert (
        cell["n"] == 11 and cell["runs"] == 2 and cell["errors"] == 2
    )  # the n=10 run is not dropped for the n=1 run
    assert cell["success_rate"] == pytest.approx(6 / 11)
    assert cell["stats"]["success_rate"]["ci95"] == [pytest.approx(x, abs=1e-6) for x in stats.wilson(6, 11)]


def test_report_over_mixed_benchmarks_writes_one_report_per_benchmark_only_under_out(
    tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.chdir(tmp_path)
    restbench = _summary(tmp_path / "r", "restbench-tmdb", "restgpt", 4, 2)
    smoke = tmp_path / "s"
    assert (
        cli(
            "run", "smoke", "--model", "scripted:smoke-oracle", "--limit", "3", "--out", smoke, "--quiet"
        ).exit_code
        == 0
    )
    printed = cli("report", restbench, smoke)
    assert printed.exit_code == 0 and sorted(p.name for p in tmp_path.iterdir()) == [
        "r",
        "s",
    ]  # no --out: no files
    assert "Table 4 layout" in printed.stdout and "accuracy" in printed.stdout
    written = cli("report", restbench, smoke, "--out", tmp_path / "rep")
    assert written.exit_code == 0
    assert (tmp_path / "rep" / "restbench" / "table4.md").is_file() and (
        tmp_path / "rep" / "smoke" / "smoke.md"
    ).is_file()
    assert "errors" in (tmp_path / "rep" / "smoke" / "smoke.md").read_text()


def test_price_option_prices_the_run_and_bad_price_is_a_usage_error(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert (
        cli(
            "run",
            "smoke",
            "--model",
            "scripted:smoke-oracle",
            "--limit",
            "2",
            "--out",
            out,
            "--quiet",
            "--price",
            "1000000/0",
        ).exit_code
        == 0
    )
    summary = json.loads((out / "summary.json").read_text())
    assert math.isclose(summary["cost_usd"], summary["usage"]["input_tokens"])  # $1 per token in
    bad = cli("run", "smoke", "--model", "scripted:smoke-oracle", "--out", tmp_path / "x", "--price", "cheap")
    assert bad.exit_code == 2 and "--price expects IN/OUT" in bad.stderr and not (tmp_path / "x").exists()


def test_a_slice_metric_counts_only_its_slice() -> None:
    """API Use's ``pass_rate/distractors=0`` reported n=20 (the whole run) when one episode had no
    distractors: a slice metric's n and interval come from the episodes of that slice."""
    from restgraph.evals.scorers.api_use import aggregate_scores
    from restgraph.evals.stats import episode_stats, metric_stats

    scores = [{"pass_rate": 1.0, "n": 1, "no_code": 0, "keyword_args": 0, "distractors": 0}]
    scores += [
        {"pass_rate": float(i % 2), "n": 1, "no_code": 0, "keyword_args": 0, "distractors": 3}
        for i in range(19)
    ]
    metrics = aggregate_scores(scores)
    stats = metric_stats(metrics, episode_stats(scores), len(scores), None, scores)
    assert stats["pass_rate/distractors=0"]["n"] == 1
    assert stats["pass_rate/distractors=3"]["n"] == 19
    assert stats["pass_rate/distractors=3"]["mean"] == round(metrics["pass_rate/distractors=3"], 6)
    assert stats["pass_rate"]["n"] == 20
