"""Runs that refuse to be corrupted: --resume into another run, scoring a mixed folder, trace lines
without a status, duplicate task lines, and data files that are not the pinned ones."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from restgraph.evals.trace import TraceStore
from restgraph.tools import datafiles
from tests.foundation.conftest import cli
from tests.foundation.conftest import usage_error_line as _usage_error

ORACLE = "scripted:smoke-oracle"


@pytest.fixture
def smoke_run(tmp_path: Path) -> Path:
    out = tmp_path / "run"
    assert cli("run", "smoke", "--model", ORACLE, "-B", "n=4", "--out", out, "--quiet").exit_code == 0
    return out


@pytest.mark.parametrize(
    ("extra", "needles"),
    [
        (["--model", "scripted:constant"], ["model", "smoke-oracle", "scripted:constant"]),
        (["--model", ORACLE, "--agent", "chat-vote"], ["agent"]),
        (["--model", ORACLE, "--seed", "7"], ["seed 0 there, 7 now"]),
        (["--model", ORACLE, "-B", "dataset_seed=9"], ["bench_options"]),  # (chat takes no -A options at all)
    ],
)
def test_resume_refuses_another_run(smoke_run: Path, extra: list[str], needles: list[str]) -> None:
    before = (smoke_run / "traces.jsonl").read_bytes()
    _usage_error(
        cli("run", "smoke", "-B", "n=4", *extra, "--out", smoke_run, "--quiet", "--resume"),
        "--resume",
        *needles,
    )
    assert (smoke_run / "traces.jsonl").read_bytes() == before


def test_resume_refuses_another_benchmark(smoke_run: Path) -> None:
    config = json.loads((smoke_run / "config.json").read_text())
    config["options"]["benchmark"] = "api-use"  # as if the folder held an api-use run
    (smoke_run / "config.json").write_text(json.dumps(config))
    _usage_error(
        cli("run", "smoke", "--model", ORACLE, "-B", "n=4", "--out", smoke_run, "--quiet", "--resume"),
        "benchmark",
        "api-use",
        "smoke",
    )


def test_resume_checks_the_traces_even_without_config(smoke_run: Path) -> None:
    (smoke_run / "config.json").unlink()
    _usage_error(
        cli(
            "run",
            "smoke",
            "--model",
            "scripted:constant",
            "-B",
            "n=4",
            "--out",
            smoke_run,
            "--quiet",
            "--resume",
        ),
        "traces.jsonl holds model",
    )


def test_resume_with_the_same_run_still_works(smoke_run: Path) -> None:
    assert (
        cli(
            "run",
            "smoke",
            "--model",
            ORACLE,
            "-B",
            "n=4",
            "--limit",
            "6",
            "--out",
            smoke_run,
            "--quiet",
            "--resume",
        ).exit_code
        == 0
    )


def test_score_refuses_a_mixed_folder(smoke_run: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    assert (
        cli("run", "smoke", "--model", "scripted:constant", "-B", "n=2", "--out", other, "--quiet").exit_code
        == 0
    )
    with open(smoke_run / "traces.jsonl", "a") as fh:
        fh.write((other / "traces.jsonl").read_text())
    summary_before = (smoke_run / "summary.json").read_bytes()
    _usage_error(cli("score", smoke_run), "mixes runs", "model")
    assert (smoke_run / "summary.json").read_bytes() == summary_before  # not overwritten


def test_score_reports_duplicates_and_lines_without_status(smoke_run: Path) -> None:
    lines = (smoke_run / "traces.jsonl").read_text().splitlines()
    first = json.loads(lines[0])
    no_status = dict(json.loads(lines[1]))
    del no_status["status"]
    (smoke_run / "traces.jsonl").write_text("\n".join([*lines, lines[0], json.dumps(no_status)]) + "\n")
    assert cli("score", smoke_run).exit_code == 0
    summary = json.loads((smoke_run / "summary.json").read_text())
    assert summary["duplicate_task_lines"] == {first["task_id"]: 2}
    assert any("status" in s for s in summary["skipped_lines"]), summary["skipped_lines"]
    assert len(TraceStore(smoke_run).load().skipped) == 1


@pytest.fixture
def tampered_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    source = os.environ.get("RESTGRAPH_DATA_DIR")
    if not source:
        pytest.skip("RESTGRAPH_DATA_DIR is not set")
    root = tmp_path / "data"
    shutil.copytree(Path(source) / "api_use", root / "api_use")
    target = root / "api_use" / "distractors_and_positioning.json"
    target.write_text(target.read_text().replace("volume_of_cone", "volume_of_cube", 1))
    monkeypatch.setenv("RESTGRAPH_DATA_DIR", str(root))
    monkeypatch.setattr(datafiles, "_allow_modified", [False])
    return target


def test_a_tampered_data_file_stops_the_run(tampered_data: Path, tmp_path: Path) -> None:
    result = cli(
        "run",
        "api-use",
        "--model",
        "scripted:api-use-target",
        "--suite",
        "distractors",
        "--limit",
        "1",
        "--out",
        tmp_path / "r",
        "--quiet",
    )
    assert result.exit_code != 0
    assert str(tampered_data) in result.stderr and "--allow-modified-data" in result.stderr, result.stderr
    assert not (tmp_path / "r" / "traces.jsonl").exists()


def test_allow_modified_data_runs_and_records_the_hashes(tampered_data: Path, tmp_path: Path) -> None:
    result = cli(
        "run",
        "api-use",
        "--model",
        "scripted:api-use-target",
        "--suite",
        "distractors",
        "--limit",
        "1",
        "--allow-modified-data",
        "--out",
        tmp_path / "r",
        "--quiet",
    )
    assert result.exit_code == 0, result
    config = json.loads((tmp_path / "r" / "config.json").read_text())
    assert config["options"]["allow_modified_data"] is True
    assert config["data_sha256"]["api_use/distractors_and_positioning.json"].endswith("(modified)")


def test_pinned_data_hashes_go_into_config(tmp_path: Path) -> None:
    if not os.environ.get("RESTGRAPH_DATA_DIR"):
        pytest.skip("RESTGRAPH_DATA_DIR is not set")
    assert (
        cli(
            "run",
            "api-use",
            "--model",
            "scripted:api-use-target",
            "--suite",
            "distractors",
            "--limit",
            "1",
            "--out",
            tmp_path / "r",
            "--quiet",
        ).exit_code
        == 0
    )
    config = json.loads((tmp_path / "r" / "config.json").read_text())
    digest = config["data_sha256"]["api_use/distractors_and_positioning.json"]
    assert len(digest) == 64 and digest == datafiles.sha256_of(
        Path(os.environ["RESTGRAPH_DATA_DIR"]) / "api_use" / "distractors_and_positioning.json"
    )
