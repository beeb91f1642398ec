"""``restgraph run --workers N``: episodes on N processes, one writer; the run folder is the one a
single process writes (same scores, one trace per (task, epoch)), and a run stopped any way
(SIGKILL, Ctrl-C, a worker killed, --max-errors) keeps what finished and resumes without repeats."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from rich.console import Console

from restgraph.evals.episode_worker import note_of
from restgraph.evals.process_workers import connection_shares
from restgraph.evals.progress import RunProgress
from restgraph.evals.trace import Task, Trace, TraceStore
from tests.foundation.conftest import REPO, cli, smoke_ids, trace_rows, usage_error_line, wait_for_lines

TMDB = ["run", "restbench-tmdb", "--agent", "restgpt", "--model", "scripted:restgpt-oracle", "--quiet"]
N = 60
#: a resume may change --concurrency (the last one given wins): the rest of the run, quickly
FASTER = ("--concurrency", "12")


def _smoke(out: Path, *extra: str, model: str = "scripted:smoke-oracle?latency=0.5") -> list[str]:
    return [
        "run",
        "smoke",
        "--model",
        model,
        "-B",
        f"n={N}",
        "--concurrency",
        "2",
        "--out",
        str(out),
        "--quiet",
        *extra,
    ]


def _start(*args: str) -> subprocess.Popen:
    """The CLI in a session of its own, so a test can Ctrl-C its whole process group as a terminal does."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "200"}
    return subprocess.Popen(
        [sys.executable, "-m", "restgraph.evals.cli", *args],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _workers(cli_pid: int) -> list[int]:
    """The episode worker processes of a run (the CLI's own process is worker 0): children of the
    fork server the CLI started."""
    (server,) = [p for p in _children(cli_pid) if b"forkserver" in Path(f"/proc/{p}/cmdline").read_bytes()]
    return _children(server)


def _wait_for_workers(out: Path, proc: subprocess.Popen, n: int, timeout: float = 120.0) -> list[int]:
    """Block until workers 1..n-1 have each written a trace (so each is up and running episodes);
    their pids."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if (out / "traces.jsonl").exists():
            seen = {r["extra"].get("worker") for r in trace_rows(out)}
            if seen >= set(range(1, n)):
                pids = _workers(proc.pid)
                assert len(pids) == n - 1, pids
                return pids
        if proc.poll() is not None:
            pytest.fail(
                f"run ended (rc={proc.returncode}) before its workers wrote traces:\n{proc.communicate()[1][-2000:]}"
            )
        time.sleep(0.05)
    proc.kill()
    pytest.fail(f"workers 1..{n - 1} wrote no trace in {timeout}s")


def _gone(pids: list[int], timeout: float = 60.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not any(Path(f"/proc/{p}").exists() and "Z" not in _state(p) for p in pids):
            return True
        time.sleep(0.05)
    return False


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "gone"


def _assert_complete_without_repeats(out: Path) -> None:
    counts = Counter(r["task_id"] for r in trace_rows(out))
    assert set(counts) == smoke_ids(N) and max(counts.values()) == 1, counts
    assert json.loads((out / "summary.json").read_text())["n"] == N


def test_two_workers_write_the_one_process_run(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    # tmdb/6 takes ~24k tokens, the others under 20k: the per-episode limit ends it in either process
    args = [*TMDB, "--limit", "6", "--epochs", "2", "--concurrency", "2", "--token-limit", "20000"]
    assert cli(*args, "--out", one).exit_code == 0
    result = cli(*[a for a in args if a != "--quiet"], "--workers", "2", "--out", two)
    assert result.exit_code == 0, result
    # piped: one progress line per episode, counted by the one writer, whichever process ran it
    counts = re.findall(r"^\[(\d+)/12\] tmdb/\d(?:#1)? status=\S+ success=[01] ", result.stderr, re.M)
    assert counts == [str(k) for k in range(1, 13)], result.stderr
    assert (two / "summary.json").read_bytes() == (one / "summary.json").read_bytes()  # same scores
    assert (two / "scores.jsonl").read_bytes() == (one / "scores.jsonl").read_bytes()
    rows = trace_rows(two)
    assert Counter((r["task_id"], r["extra"].get("epoch", 0)) for r in rows) == Counter(
        (r["task_id"], r["extra"].get("epoch", 0)) for r in trace_rows(one)
    )
    assert len(rows) == 12 and len({(r["task_id"], r["extra"].get("epoch", 0)) for r in rows}) == 12
    assert {r["extra"]["worker"] for r in rows} == {0, 1}  # both processes ran episodes (0: the CLI's)
    assert sorted(r["task_id"] for r in rows if r["status"] == "budget_exhausted") == ["tmdb/6", "tmdb/6"]
    assert len({r["run_id"] for r in rows}) == 1
    assert rows[0]["run_id"] == json.loads((two / "config.json").read_text())["run_id"]

    def prompts(run: Path) -> dict[tuple[str, int], list]:  # what the viewer shows, prompts resolved
        return {
            (t.task_id, t.extra.get("epoch", 0)): [c.messages for c in t.model_calls()]
            for t in TraceStore(run).traces()
        }

    assert prompts(two) == prompts(one)


def test_bad_worker_counts_are_one_line_usage_errors_before_any_work(tmp_path: Path) -> None:
    out = tmp_path / "run"
    for bad, needle in (("0", "--workers"), ("two", "--workers")):
        usage_error_line(cli(*TMDB, "--workers", bad, "--out", out), needle)
    usage_error_line(
        cli("run", "smoke", "--model", "local", "--workers", "2", "--out", out), "--workers 2", "local"
    )
    usage_error_line(
        cli(*TMDB, "--workers", "3", "--max-connections", "2", "--out", out), "--max-connections"
    )
    assert not out.exists()


def test_max_connections_is_shared_out_exactly() -> None:
    assert connection_shares(7, 3) == [3, 2, 2] and connection_shares(None, 2) == [None, None]


def test_parent_killed_its_workers_stop_and_resume_neither_repeats_nor_loses(tmp_path: Path) -> None:
    out = tmp_path / "run"
    proc = _start(*_smoke(out, "--workers", "2"))
    workers = _wait_for_workers(out, proc, 2)
    wait_for_lines(out / "traces.jsonl", 4, proc)
    proc.kill()  # SIGKILL: no handler runs
    proc.wait(timeout=30)
    assert _gone(workers), "the workers of a killed run must stop (their pipe to it closed)"
    first = [r["task_id"] for r in trace_rows(out)]
    assert 4 <= len(first) < N and len(set(first)) == len(first)
    result = cli(*_smoke(out, "--workers", "2", "--resume", *FASTER))
    assert result.exit_code == 0, result
    _assert_complete_without_repeats(out)


def test_ctrl_c_stops_every_worker_keeping_finished_episodes(tmp_path: Path) -> None:
    out = tmp_path / "run"
    proc = _start(*_smoke(out, "--workers", "2"))
    workers = _wait_for_workers(out, proc, 2)
    wait_for_lines(out / "traces.jsonl", 3, proc)
    os.killpg(proc.pid, signal.SIGINT)  # what a terminal does: the whole process group
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "--resume" in err and "Traceback" not in err
    assert _gone(workers)
    raw = (out / "traces.jsonl").read_bytes()
    rows = trace_rows(out)
    assert raw.endswith(b"\n") and len(rows) == raw.count(b"\n") and 3 <= len(rows) < N
    assert {r["status"] for r in rows} == {"finished"}  # in-flight episodes cancelled, not recorded
    assert json.loads((out / "summary.json").read_text())["n"] == len(rows)
    assert cli(*_smoke(out, "--workers", "2", "--resume", *FASTER)).exit_code == 0
    _assert_complete_without_repeats(out)


def test_a_worker_killed_fails_the_run_keeping_what_finished(tmp_path: Path) -> None:
    out = tmp_path / "run"
    proc = _start(*_smoke(out, "--workers", "3"))
    victim, *others = _wait_for_workers(out, proc, 3)
    os.kill(victim, signal.SIGKILL)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 1, err
    assert f"pid {victim}) died" in err and "--resume" in err
    assert _gone(others)  # the other worker was stopped, not left running
    rows = trace_rows(out)
    assert len({r["task_id"] for r in rows}) == len(rows) < N
    assert cli(*_smoke(out, "--resume", *FASTER)).exit_code == 0  # any --workers resumes
    _assert_complete_without_repeats(out)


def test_max_errors_stops_a_run_with_workers(tmp_path: Path) -> None:
    out = tmp_path / "run"
    # every episode times out: the first five alike stop the run (evals.guards), across both workers
    args = _smoke(out, "--workers", "2", "--timeout", "0.1", model="scripted:smoke-oracle?latency=30")
    result = cli(*args)
    assert result.exit_code == 1 and "first 5 episodes all ended error:timeout" in result.stderr, result
    rows = trace_rows(out)
    assert 5 <= len(rows) < N and {r["status"] for r in rows} == {"error:timeout"}


def test_the_live_view_counts_episodes_in_flight_in_workers() -> None:
    progress = RunProgress("live", "restbench-tmdb/restgpt", total=3, console=Console(file=io.StringIO()))
    for key in ("tmdb/1", "tmdb/2"):
        progress.started(key, None)  # a worker's episode: no recorder in this process
    trace = Trace(
        run_id="r",
        task_id="tmdb/1",
        task=Task(id="tmdb/1", benchmark="b", instruction="q"),
        benchmark="b",
        agent="a",
        model="m",
        seed=0,
        status="finished",
    )
    progress.finished("tmdb/1", note_of("tmdb/1", trace, True), True)
    console = Console(file=io.StringIO(), width=100)
    console.print(progress)
    shown = console.file.getvalue()
    assert "1/3" in shown and "success 1  errors 0  in flight 1" in shown, shown
    assert "tmdb/2" not in shown  # no row for an episode whose recorder is in another process
