"""Helpers for the foundation tests: the CLI in-process and as a real subprocess, trace reading."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from restgraph.evals.cli import app

REPO = Path(__file__).resolve().parents[2]


class CliResult:
    def __init__(self, exit_code: int, stdout: str, stderr: str):
        self.exit_code, self.stdout, self.stderr = exit_code, stdout, stderr

    def __repr__(self) -> str:
        return f"CliResult(exit_code={self.exit_code}, stderr={self.stderr!r}, stdout={self.stdout[-500:]!r})"


def cli(*args: str) -> CliResult:
    """``restgraph ARGS`` in this process (fast: no interpreter start-up, registered test agents visible)."""
    result = CliRunner().invoke(app, [str(a) for a in args], catch_exceptions=False)
    return CliResult(result.exit_code, result.stdout, result.stderr)


def python_lines(code: str) -> list[str]:
    """Run ``code`` in a fresh interpreter at the repo root (nothing imported yet); its stdout lines."""
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout.splitlines()


def usage_error_line(result: CliResult, *needles: str) -> str:
    """Assert a usage error: exit 2 and exactly one line on stderr, holding every needle."""
    assert result.exit_code == 2, result
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, lines
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def start_cli(*args: str) -> subprocess.Popen:
    """``python -m restgraph.evals.cli ARGS`` as a real process, so it can be killed or interrupted."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "200"}
    return subprocess.Popen(
        [sys.executable, "-m", "restgraph.evals.cli", *map(str, args)],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_for_file(path: Path, proc: subprocess.Popen, timeout: float = 90.0) -> None:
    """Block until ``path`` exists (fails if the process ends first)."""
    wait_for_lines(path, 0, proc, timeout)


def wait_for_lines(path: Path, n: int, proc: subprocess.Popen, timeout: float = 90.0) -> int:
    """Block until ``path`` holds at least ``n`` complete lines (fails if the process ends first)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists():
            count = path.read_bytes().count(b"\n")
            if count >= n:
                return count
        if proc.poll() is not None:
            out, err = proc.communicate()
            pytest.fail(f"run ended (rc={proc.returncode}) before {n} traces were written:\n{err[-2000:]}")
        time.sleep(0.02)
    proc.kill()
    pytest.fail(f"no {n} traces in {path} after {timeout}s")


def trace_rows(run_dir: Path) -> list[dict[str, Any]]:
    """Every complete, parseable line of traces.jsonl (torn lines dropped)."""
    rows = []
    for line in (run_dir / "traces.jsonl").read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return rows


def one_node_graph(fn: Any) -> Any:
    """A compiled ``ChatState`` graph whose only node is ``fn`` (for test agents)."""
    from langgraph.graph import END, START, StateGraph

    from restgraph.graphs.chat import ChatState

    graph = StateGraph(ChatState)
    graph.add_node("act", fn)
    graph.add_edge(START, "act")
    graph.add_edge("act", END)
    return graph.compile()


def smoke_ids(n: int) -> set[str]:
    return {f"smoke/{i}" for i in range(n)}
