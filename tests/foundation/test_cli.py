"""The CLI contract: score reproduces summary.json byte for byte, report compares runs, exit codes
0 / 2 (one-line message) / 1."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any, ClassVar

import pytest

from restgraph.evals.benchmark import RunOptions, register_benchmark
from restgraph.evals.benchmarks.smoke import SmokeBenchmark
from restgraph.evals.trace import Task
from tests.foundation.conftest import cli, usage_error_line

ORACLE = "scripted:smoke-oracle"


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("runs")
    good, bad = root / "oracle", root / "garbage"
    assert (
        cli(
            "run", "smoke", "--model", f"{ORACLE}?faults=0.3", "-B", "n=12", "--out", good, "--quiet"
        ).exit_code
        == 0
    )
    assert (
        cli(
            "run",
            "smoke",
            "--agent",
            "chat-vote",
            "-A",
            "calls=2",
            "--model",
            "scripted:garbage",
            "-B",
            "n=5",
            "--out",
            bad,
            "--quiet",
        ).exit_code
        == 0
    )
    return good, bad


def test_score_reproduces_summary_byte_for_byte(two_runs: tuple[Path, Path]) -> None:
    for run_dir in two_runs:
        original = (run_dir / "summary.json").read_bytes()
        scores = (run_dir / "scores.jsonl").read_bytes()
        (run_dir / "summary.json").unlink()
        result = cli("score", run_dir)
        assert result.exit_code == 0, result
        assert (run_dir / "summary.json").read_bytes() == original
        assert (run_dir / "scores.jsonl").read_bytes() == scores


def test_summary_has_the_promised_fields(two_runs: tuple[Path, Path]) -> None:
    good, bad = (json.loads((d / "summary.json").read_text()) for d in two_runs)
    assert {"benchmark", "agent", "model", "n", "metrics"} <= set(good)
    assert good["n"] == 12 and set(good["metrics"]) == {"accuracy", "answer_rate"}
    assert (bad["agent"], bad["n"], bad["metrics"]["accuracy"], bad["usage"]["model_calls"]) == (
        "chat-vote",
        5,
        0.0,
        10,
    )


def test_report_compares_two_runs(two_runs: tuple[Path, Path]) -> None:
    result = cli("report", *two_runs, "--format", "csv")
    assert result.exit_code == 0, result
    table = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [(r["agent"], r["n"]) for r in table] == [("chat", "12"), ("chat-vote", "5")]
    assert float(table[1]["accuracy"]) == 0.0 and float(table[0]["accuracy"]) > 0.5
    md = cli("report", *two_runs, "--format", "markdown")
    assert md.exit_code == 0 and md.stdout.count("\n") == 4 and "| chat-vote |" in md.stdout
    assert cli("report", *two_runs).exit_code == 0


def test_report_plot_writes_a_png(two_runs: tuple[Path, Path], tmp_path: Path) -> None:
    png = tmp_path / "cmp.png"
    assert cli("report", *two_runs, "--plot", png, "--format", "json").exit_code == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["run", "no-such-bench", "--model", ORACLE], ["unknown benchmark 'no-such-bench'", "smoke"]),
        (
            ["run", "smoke", "--agent", "no-such-agent-" + "x" * 60, "--model", ORACLE],
            ["unknown agent", "chat"],
        ),
        (["run", "smoke", "--model", ORACLE, "-B", "n"], ["--bench-opt expects key=value", "'n'"]),
        (["run", "smoke", "--model", ORACLE, "-A", "=3"], ["--agent-opt expects key=value"]),
        (
            ["run", "smoke", "--model", "scripted:no-such-model"],
            ["unknown scripted model 'no-such-model'", "smoke-oracle"],
        ),
        (["run", "smoke", "--model", "scripted:smoke-oracle?latency=slow"], ["latency must be a number"]),
        (["report", "/nonexistent/run"], ["no run to report", "/nonexistent/run: no such folder"]),
        (["models", "pull", "gpt-5"], ["only 'local'"]),
    ],
)
def test_usage_errors_exit_2_with_one_line(args: list[str], needles: list[str], tmp_path: Path) -> None:
    usage_error_line(cli(*args, *(["--out", str(tmp_path / "r")] if args[0] == "run" else [])), *needles)
    assert not (tmp_path / "r").exists()  # nothing half-made


def test_rerun_into_a_used_folder_needs_resume(two_runs: tuple[Path, Path]) -> None:
    good, _ = two_runs
    before = (good / "traces.jsonl").read_bytes()
    usage_error_line(cli("run", "smoke", "--model", ORACLE, "-B", "n=12", "--out", good), "--resume")
    assert (good / "traces.jsonl").read_bytes() == before


def test_score_of_a_folder_without_traces_is_ausage_error_line(tmp_path: Path) -> None:
    usage_error_line(cli("score", tmp_path), "no traces.jsonl")


@register_benchmark
class _UnreadableBenchmark(SmokeBenchmark):
    """A benchmark whose data cannot be read: a run failure (exit 1), not a usage error."""

    name: ClassVar[str] = "test-unreadable"

    def tasks(self, options: RunOptions) -> list[Task]:
        raise OSError("the dataset is unreadable")


def test_run_failures_exit_1(tmp_path: Path) -> None:
    result = cli("run", "test-unreadable", "--model", ORACLE, "--out", tmp_path / "r", "--quiet")
    assert result.exit_code == 1 and "run failed" in result.stderr, result
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "traces.jsonl").write_text('{"not": "a trace"}\n')
    result = cli("score", tmp_path / "t")
    assert result.exit_code == 1 and "no traces" in result.stderr, result


def test_list_shows_benchmarks_agents_and_models() -> None:
    result = cli("list")
    assert result.exit_code == 0
    for name in ("smoke", "chat", "chat-vote", "smoke-oracle", "replay", "local"):
        assert name in result.stdout


def test_a_run_with_the_embedded_model_ends_saying_0_percent_is_expected(tmp_path: Path, monkeypatch) -> None:
    """The quick start's first run scores 0: its last lines say that this is the smoke-test model's
    expected result and how to plug in a real one (the model is swapped for a scripted one here:
    the output, not llama.cpp, is under test)."""
    from restgraph.agents import models

    real = models.make_chat_model

    def embedded_stand_in(spec: str, **kwargs: Any) -> Any:
        assert spec == "local"
        return real("scripted:constant?text=no idea", task=kwargs.get("task"))

    monkeypatch.setattr(models, "make_chat_model", embedded_stand_in)
    result = cli("run", "smoke", "-B", "n=2", "--out", tmp_path / "r", "--quiet")
    assert result.exit_code == 0, result
    last = [line for line in result.stdout.splitlines() if line.strip()][-2:]
    assert last[0].startswith("note: 0% is the expected result here") and "smoke-test model" in last[0]
    assert "--model openai:gpt-4o-mini" in last[1] and "--base-url" in last[1]
    mine = cli(
        "run", "smoke", "--model", "scripted:smoke-oracle", "-B", "n=2", "--out", tmp_path / "s", "--quiet"
    )
    assert "0% is the expected" not in mine.stdout  # only the embedded default model gets the note
