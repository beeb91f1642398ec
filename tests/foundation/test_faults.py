"""A model that fails 30% of the time (real openai errors, malformed text) still gives exactly one
terminal trace per task, and the retries show in the trace."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from tests.foundation.conftest import cli, smoke_ids, trace_rows

TERMINAL = re.compile(r"^(finished|budget_exhausted|error:[A-Za-z_][\w.]*)$")


def _calls(rows: list[dict]) -> list[dict]:
    return [c for r in rows for s in r["steps"] for c in s["model_calls"]]


def test_thirty_percent_faults_one_terminal_trace_per_task_with_visible_retries(tmp_path: Path) -> None:
    n = 80
    result = cli(
        "run",
        "smoke",
        "--model",
        "scripted:smoke-oracle?faults=0.3",
        "-B",
        f"n={n}",
        "--concurrency",
        "8",
        "--out",
        tmp_path,
        "--quiet",
        "--allow-errors",
    )
    assert result.exit_code == 0, result
    rows = trace_rows(tmp_path)
    assert len(rows) == n and Counter(r["task_id"] for r in rows) == Counter(smoke_ids(n))
    assert all(TERMINAL.match(r["status"]) for r in rows), Counter(r["status"] for r in rows)

    calls = _calls(rows)
    retried = [c for c in calls if c["attempts"] > 1]
    assert retried, "at 30% faults some calls must have been retried"
    for call in retried:
        assert len(call["retried_errors"]) == call["attempts"] - 1
        assert all(
            e.split(":")[0] in ("RateLimitError", "InternalServerError", "APITimeoutError")
            for e in call["retried_errors"]
        )
    # malformed replies are not retried (they are not errors): they reach the scorer as wrong answers
    malformed = [r for r in rows if r["final_answer"] and "not json" in r["final_answer"]]
    assert malformed and all(r["status"] == "finished" for r in malformed)
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["n"] == n and sum(summary["status_counts"].values()) == n
    assert 0.5 < summary["metrics"]["accuracy"] < 1.0


def test_faults_every_call_ends_as_recorded_errors_after_bounded_attempts(tmp_path: Path) -> None:
    n = 12
    result = cli(
        "run",
        "smoke",
        "--model",
        "scripted:smoke-oracle?faults=1",
        "-B",
        f"n={n}",
        "--concurrency",
        "6",
        "--out",
        tmp_path,
        "--quiet",
        "--allow-errors",
        "--max-errors",
        "0",
    )
    assert result.exit_code == 0, (
        result
    )  # failed episodes are data, not a failed run (--allow-errors: exit 0)
    rows = trace_rows(tmp_path)
    assert len(rows) == n
    errors = [r for r in rows if r["status"].startswith("error:")]
    assert errors, Counter(r["status"] for r in rows)
    for row in errors:
        assert row["status"] in ("error:RateLimitError", "error:InternalServerError", "error:APITimeoutError")
        (call,) = _calls([row])
        assert (
            call["error"] and call["attempts"] == 5 and len(call["retried_errors"]) == 4
        )  # bounded: RetryPolicy.attempts
    # the others drew a "malformed" fault at some attempt: a finished episode with a garbage answer
    assert all(r["status"] == "finished" and "not json" in r["final_answer"] for r in rows if r not in errors)
