"""An interrupted run (SIGKILL, Ctrl-C, a torn last line) continues with --resume: no episode
repeated, none lost."""

from __future__ import annotations

import json
import signal
from collections import Counter
from pathlib import Path

from restgraph.evals.trace import TraceStore
from tests.foundation.conftest import (
    cli,
    smoke_ids,
    start_cli,
    trace_rows,
    usage_error_line,
    wait_for_file,
    wait_for_lines,
)

N = 40
SLOW_MODEL = "scripted:smoke-oracle?latency=0.2"


def _run_args(out: Path, *extra: str) -> list[str]:
    return [
        "run",
        "smoke",
        "--model",
        SLOW_MODEL,
        "-B",
        f"n={N}",
        "--concurrency",
        "3",
        "--out",
        str(out),
        "--quiet",
        *extra,
    ]


def test_sigkill_mid_run_then_resume_neither_repeats_nor_loses(tmp_path: Path) -> None:
    out = tmp_path / "run"
    proc = start_cli(*_run_args(out))
    wait_for_lines(out / "traces.jsonl", 4, proc)
    proc.kill()  # SIGKILL: no handler runs, whatever was in flight is lost
    proc.wait(timeout=10)
    before = out.joinpath("traces.jsonl").read_bytes()
    first = trace_rows(out)
    first_ids = [r["task_id"] for r in first]
    assert 4 <= len(first_ids) < N, "the kill must land mid-run for this test to mean anything"
    assert len(set(first_ids)) == len(first_ids)
    assert not (out / "summary.json").exists()

    result = cli(*_run_args(out, "--resume"))
    assert result.exit_code == 0, result

    rows = trace_rows(out)
    counts = Counter(r["task_id"] for r in rows)
    assert set(counts) == smoke_ids(N)  # none lost
    assert max(counts.values()) == 1  # none repeated
    assert out.joinpath("traces.jsonl").read_bytes().startswith(before.rsplit(b"\n", 1)[0])  # append-only
    assert {r["task_id"] for r in rows if r["run_id"] != first[0]["run_id"]} == smoke_ids(N) - set(first_ids)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["n"] == N and summary["metrics"]["accuracy"] == 1.0


def test_torn_last_line_is_skipped_reported_and_rerun(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert (
        cli(
            "run", "smoke", "--model", "scripted:smoke-oracle", "-B", "n=6", "--out", out, "--quiet"
        ).exit_code
        == 0
    )
    path = out / "traces.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    torn_id = json.loads(lines[-1])["task_id"]
    path.write_bytes(b"".join(lines[:-1]) + lines[-1][: len(lines[-1]) // 2])  # killed mid-write

    report = TraceStore(out).load()
    assert len(report.traces) == 5 and len(report.skipped) == 1 and report.skipped[0].startswith("line 6:")
    assert torn_id not in TraceStore(out).finished_ids()

    result = cli(
        "run", "smoke", "--model", "scripted:smoke-oracle", "-B", "n=6", "--out", out, "--quiet", "--resume"
    )
    assert result.exit_code == 0, result
    report = TraceStore(out).load()
    assert Counter(t.task_id for t in report.traces) == Counter(smoke_ids(6))
    assert len(report.skipped) == 1  # the torn fragment stays (append-only) and keeps being reported
    summary = json.loads((out / "summary.json").read_text())
    assert summary["n"] == 6 and summary["skipped_lines"] == report.skipped


def test_torn_line_cut_inside_a_utf8_character_is_skipped(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert (
        cli(
            "run", "smoke", "--model", "scripted:constant?text=réponse", "-B", "n=2", "--out", out, "--quiet"
        ).exit_code
        == 0
    )
    path = out / "traces.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    cut = lines[-1].index("é".encode()) + 1  # half of a two-byte character
    path.write_bytes(lines[0] + lines[-1][:cut])
    report = TraceStore(out).load()
    assert [t.task_id for t in report.traces] == ["smoke/0"] and len(report.skipped) == 1


def test_sigint_stops_cleanly_keeping_finished_episodes(tmp_path: Path) -> None:
    out = tmp_path / "run"
    proc = start_cli(*_run_args(out))
    wait_for_lines(out / "traces.jsonl", 3, proc)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "--resume" in err  # says how to continue

    raw = (out / "traces.jsonl").read_bytes()
    assert raw.endswith(b"\n")  # nothing torn: in-flight episodes were cancelled, not half-written
    rows = trace_rows(out)
    assert len(rows) == raw.count(b"\n") and 3 <= len(rows) < N
    assert {r["status"] for r in rows} == {"finished"}  # cancelled episodes are not recorded as failures
    summary = json.loads((out / "summary.json").read_text())
    assert summary["n"] == len(rows)

    assert cli(*_run_args(out, "--resume")).exit_code == 0
    assert Counter(r["task_id"] for r in trace_rows(out)) == Counter(smoke_ids(N))


def test_sigint_before_any_episode_finished_says_so_and_exits_130(tmp_path: Path) -> None:
    out = tmp_path / "run"
    proc = start_cli(
        "run",
        "smoke",
        "--model",
        "scripted:smoke-oracle?latency=120",
        "-B",
        "n=2",
        "--out",
        str(out),
        "--quiet",
    )
    wait_for_file(out / "config.json", proc)  # written as the run starts, before any episode can end
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert (
        "interrupted before any episode finished" in err
        and "run failed" not in err
        and "Traceback" not in err
    )
    assert not (out / "traces.jsonl").exists()


def _smoke(n: int, *extra: str) -> list[str]:
    return ["run", "smoke", "--model", "scripted:smoke-oracle", "-B", f"n={n}", "--quiet", *extra]


def _interrupt(run_dir: Path, keep: int) -> set[str]:
    """Leave ``run_dir`` as a run stopped after ``keep`` episodes (the rest never written)."""
    path = run_dir / "traces.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:keep]))
    (run_dir / "summary.json").unlink()
    return {json.loads(line)["task_id"] for line in lines[:keep]}


def test_resume_without_out_finishes_the_latest_matching_run_in_its_folder(
    tmp_path: Path, monkeypatch
) -> None:
    """'Finish with the same command plus --resume' once made a new folder and paid for every episode
    again; now it continues the run in runs/ that the command describes, and only its missing episodes."""
    monkeypatch.chdir(tmp_path)
    assert cli(*_smoke(8)).exit_code == 0
    [run_dir] = list((tmp_path / "runs").iterdir())
    kept = _interrupt(run_dir, 3)
    before = run_dir.joinpath("traces.jsonl").read_bytes()
    # a later run of another command: the latest folder, but not this command's run
    assert cli(*_smoke(8, "--seed", "1", "--out", "runs/other-seed")).exit_code == 0

    result = cli(*_smoke(8, "--resume"))
    assert result.exit_code == 0, result
    assert f"resuming {Path('runs') / run_dir.name}" in result.stderr
    assert sorted(p.name for p in (tmp_path / "runs").iterdir()) == sorted([run_dir.name, "other-seed"])
    rows = trace_rows(run_dir)
    counts = Counter(r["task_id"] for r in rows)
    assert set(counts) == smoke_ids(8) and max(counts.values()) == 1  # the missing five, none twice
    assert run_dir.joinpath("traces.jsonl").read_bytes().startswith(before)
    assert {r["task_id"] for r in rows[3:]} == smoke_ids(8) - kept
    assert json.loads((run_dir / "summary.json").read_text())["n"] == 8


def test_resume_without_out_refuses_with_the_folder_and_the_command_that_continues_it(
    tmp_path: Path, monkeypatch
) -> None:
    import shlex

    monkeypatch.chdir(tmp_path)
    line = usage_error_line(cli(*_smoke(6, "--resume")), "--resume: no smoke/chat run in runs/")
    assert "without --resume" in line and not (tmp_path / "runs").exists()  # nothing started

    assert cli(*_smoke(6, "--seed", "3", "-M", "temperature=0.5", "-B", "dataset_seed=2")).exit_code == 0
    [run_dir] = list((tmp_path / "runs").iterdir())
    kept = _interrupt(run_dir, 2)
    line = usage_error_line(
        cli(*_smoke(6, "--resume")), f"{Path('runs') / run_dir.name}", "seed 3 there, 0 now"
    )
    assert list((tmp_path / "runs").iterdir()) == [run_dir]  # refused: no new folder, no episode
    assert len(trace_rows(run_dir)) == 2
    command = shlex.split(line.split("to continue it: ", 1)[1])
    assert command[:2] == ["restgraph", "run"] and command[-1] == "--resume"
    assert cli(*command[1:], "--quiet").exit_code == 0  # the exact command given continues it
    counts = Counter(r["task_id"] for r in trace_rows(run_dir))
    assert set(counts) == smoke_ids(6) and max(counts.values()) == 1
    assert kept < set(counts)


def test_resume_into_a_folder_without_a_run_is_refused(tmp_path: Path) -> None:
    usage_error_line(cli(*_smoke(3, "--out", tmp_path / "empty", "--resume")), "holds no run to continue")
    assert not (tmp_path / "empty").exists()
