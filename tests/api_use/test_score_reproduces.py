"""``restgraph score`` of an API Use run reproduces the verdicts recorded when each episode ended
(issue 29): scoring reads them from the trace instead of running the samples again, so nothing left
on the machine since can flip a re-score; a trace without a record is checked again and says so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from restgraph.evals.scorers import api_use as scorer
from tests.foundation.conftest import cli


def _rows(run: Path) -> list[dict]:
    return [json.loads(line) for line in (run / "scores.jsonl").read_text().splitlines()]


def test_score_reads_the_recorded_verdicts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = tmp_path / "run"
    done = cli(
        "run",
        "api-use",
        "--agent",
        "api-use-coder",
        "--model",
        "scripted:api-use-target",
        "--limit",
        "2",
        "--out",
        run,
        "--quiet",
    )
    assert done.exit_code == 0, done.stderr
    recorded = _rows(run)
    assert [r["success"] for r in recorded] == [True, True] and all(r["verdicts_recorded"] for r in recorded)
    traces = [json.loads(line) for line in (run / "traces.jsonl").read_text().splitlines()]
    assert all(t["env_state"]["verdicts"] == [[True, None]] for t in traces)

    async def refuse(*args, **kwargs):
        raise AssertionError("score ran the samples again")

    monkeypatch.setattr(scorer, "execute_batch_async", refuse)
    assert cli("score", run).exit_code == 0
    assert _rows(run) == recorded


def test_a_trace_without_a_record_is_checked_again_and_says_so(tmp_path: Path) -> None:
    run = tmp_path / "run"
    assert (
        cli(
            "run",
            "api-use",
            "--agent",
            "api-use-coder",
            "--model",
            "scripted:api-use-target",
            "--limit",
            "1",
            "--out",
            run,
            "--quiet",
        ).exit_code
        == 0
    )
    lines = (run / "traces.jsonl").read_text().splitlines()
    trace = json.loads(lines[0])
    trace["env_state"] = None  # a run from before the record
    (run / "traces.jsonl").write_text(json.dumps(trace) + "\n")
    assert cli("score", run).exit_code == 0
    (row,) = _rows(run)
    assert row["success"] is True and row["verdicts_recorded"] is False


def test_a_record_for_other_samples_is_not_used() -> None:
    gold = {"test": "t", "kwargs_aware": False, "api_args": {}}
    record = {"verdicts": [[True, None]], "digest": scorer.samples_digest(["return 1"], gold)}
    assert scorer.recorded_verdicts(["return 1"], gold, record) == [(True, None)]
    assert scorer.recorded_verdicts(["return 2"], gold, record) is None
    assert scorer.recorded_verdicts(["return 1"], {**gold, "test": "u"}, record) is None
