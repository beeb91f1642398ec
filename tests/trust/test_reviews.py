"""Human verdicts (issue 28): ``reviews.jsonl`` records who said what, ``restgraph score`` takes a
person's verdict over the checker's and counts the overrides, agreement is Cohen's kappa, and the
review queue puts the answers the checker may misread (hedges, negations, several candidates) first."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from restgraph.evals.reviews import REVIEWS_FILE, Review, agreement, append_review, review_agreement
from restgraph.evals.trace import Task, Trace, TraceStore
from restgraph.evals.viewer.review import answer_cues, review_doc
from restgraph.evals.viewer.server import Viewer
from tests.foundation.conftest import cli, usage_error_line


def _pairs(both_pass: int, both_fail: int, checker_only: int, human_only: int) -> list[tuple[bool, bool]]:
    return (
        [(True, True)] * both_pass
        + [(False, False)] * both_fail
        + [(True, False)] * checker_only
        + [(False, True)] * human_only
    )


def test_agreement_counts_and_cohens_kappa() -> None:
    # 10 episodes: observed agreement 0.7; the checker passes 6, people 5, so chance agreement is
    # 0.6 * 0.5 + 0.4 * 0.5 = 0.5 and kappa = (0.7 - 0.5) / (1 - 0.5) = 0.4
    stats = agreement(_pairs(4, 3, 2, 1))
    assert stats == {
        "reviewed": 10,
        "agree": 7,
        "overrides": 3,
        "both_pass": 4,
        "both_fail": 3,
        "checker_pass_human_fail": 2,
        "checker_fail_human_pass": 1,
        "agreement": 0.7,
        "kappa": 0.4,
    }
    assert agreement(_pairs(3, 0, 0, 0))["kappa"] is None  # all pass on both sides: chance explains it
    assert agreement(_pairs(0, 0, 2, 2))["kappa"] == -1.0
    assert agreement([])["agreement"] is None


def test_a_review_line_is_strict() -> None:
    with pytest.raises(ValidationError):
        Review(task_id="t/1", verdict="maybe", who="ann")  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        Review(task_id="t/1", verdict="pass", who="ann", whoo="x")  # type: ignore[call-arg]
    with pytest.raises(ValidationError):
        Review(task_id="t/1", verdict="pass", who="")


@pytest.mark.parametrize(
    ("answer", "cue"),
    [
        ("The director is Christopher Nolan or Steven Spielberg.", "hedge: or"),
        ("It is one of these: Heat, Ronin, Casino.", "hedge: one of"),
        ("Tom Hanks is not in the cast.", "negation"),
        ("The lead actor isn't listed.", "negation"),
        ("No data: the request returned an error, so I can't check.", "could not check"),
        ("The lead actor is A. The lead actor is B. The lead actor is C.", "repeated sentences"),
        ("Genres: Drama | Crime | Thriller", "candidates: 3"),
        ("", "no answer"),
    ],
)
def test_doubt_cues_are_read_from_the_answer(answer: str, cue: str) -> None:
    assert cue in answer_cues(answer)


def test_doubt_the_checker_records_counts_too() -> None:
    from restgraph.evals.viewer.review import checker_cues

    row = {"success": True, "candidates": ["A", "B"], "hedged": True, "negated": False, "claims": ["A"]}
    assert checker_cues(row) == ["checker: 2 candidates", "checker: hedged"]


def test_a_plain_single_answer_has_no_cue() -> None:
    assert answer_cues("The top-1 rated movie is The Godfather, directed by Francis Ford Coppola.") == []


def _trace(i: int, answer: str) -> Trace:
    task = Task(id=f"smoke/{i}", benchmark="smoke", instruction=f"What is {i} + 1?", gold={"answer": i + 1})
    return Trace(
        task_id=task.id, task=task, benchmark="smoke", agent="chat", model="scripted:x", final_answer=answer
    )


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("RESTGRAPH_CACHE_DIR", str(tmp_path / "cache"))
    folder = tmp_path / "run"
    store = TraceStore(folder)
    store.append(_trace(0, "1"))
    store.append(_trace(1, "It is 2, or maybe 3."))
    store.append(_trace(2, "3"))
    assert cli("score", folder).exit_code == 0
    return folder


def test_score_takes_the_human_verdict_and_counts_overrides(run: Path) -> None:
    before = json.loads((run / "summary.json").read_text())
    assert before["metrics"]["accuracy"] == 1.0 and "human_review" not in before  # the smoke checker
    append_review(run, Review(task_id="smoke/0", verdict="pass", who="ann"))
    append_review(run, Review(task_id="smoke/1", verdict="pass", who="ann"))
    append_review(run, Review(task_id="smoke/1", verdict="fail", who="ann"))  # changed her mind: last wins
    (run / REVIEWS_FILE).open("a").write('{"task_id": "smoke/2", "verd')  # a torn last line is skipped
    assert cli("score", run).exit_code == 0
    summary = json.loads((run / "summary.json").read_text())
    assert summary["metrics"]["accuracy"] == pytest.approx(2 / 3)
    review = summary["human_review"]
    assert (review["reviewed"], review["overrides"], review["agree"]) == (2, 1, 1)
    rows = {r["task_id"]: r for r in map(json.loads, (run / "scores.jsonl").read_text().splitlines())}
    assert rows["smoke/1"]["checker_success"] is True and rows["smoke/1"]["success"] is False
    assert rows["smoke/1"]["human_review"]["who"] == "ann"
    assert "checker_success" not in rows["smoke/2"]
    assert review_agreement(run) == {k: v for k, v in review.items() if k not in ("file", "unmatched")}


def test_the_review_queue_puts_doubtful_answers_first_and_shows_the_checker(run: Path) -> None:
    viewer = Viewer([run], reviewer="ann")
    doc = review_doc(0, viewer.runs[0], "ann")
    assert [item["task_id"] for item in doc["items"]] == ["smoke/1", "smoke/0", "smoke/2"]
    first = doc["items"][0]
    assert first["query"] == "What is 1 + 1?" and first["answer"] == "It is 2, or maybe 3."
    assert first["checker"] is True and "hedge: or" in first["cues"]
    assert first["key"] == "2" and first["review"] is None


def test_review_refuses_a_folder_without_traces(tmp_path: Path) -> None:
    usage_error_line(cli("review", tmp_path, "--no-open"), "no traces.jsonl")


def test_the_judge_is_still_compared_with_the_checker_after_a_human_override(run: Path) -> None:
    from restgraph.evals.judge import JUDGE_FILE, JudgeRecord

    record = JudgeRecord(task_id="smoke/1", judge_model="scripted:judge", verdict=True)
    (run / JUDGE_FILE).write_text(record.model_dump_json() + "\n")
    append_review(run, Review(task_id="smoke/1", verdict="fail", who="ann"))
    assert cli("score", run).exit_code == 0
    judge = json.loads((run / "summary.json").read_text())["judge"]
    assert judge["agreement_with_rules"] == 1.0  # the checker passed smoke/1 as the judge did


def test_the_review_endpoint_takes_json_from_loopback_only(run: Path) -> None:
    from fastapi.testclient import TestClient

    from restgraph.evals.viewer.server import make_app

    app = make_app(Viewer([run], reviewer="ann"))
    good = {"run": 0, "i": 0, "verdict": "fail"}
    assert TestClient(app, base_url="http://evil.example").post("/api/review", json=good).status_code == 403
    local = TestClient(app, base_url="http://127.0.0.1:8000")
    assert local.post("/api/review", content="run=0&i=0&verdict=fail").status_code == 415
    assert local.post("/api/review", json={**good, "verdict": "maybe"}).status_code == 422
    assert local.post("/api/review", json={**good, "i": 9}).status_code == 404
    assert not (run / REVIEWS_FILE).exists()
    saved = local.post("/api/review", json=good).json()
    assert (saved["task_id"], saved["verdict"], saved["who"]) == ("smoke/0", "fail", "ann")
    assert len((run / REVIEWS_FILE).read_text().splitlines()) == 1
    # a read-only viewer has no review route at all
    assert TestClient(make_app(Viewer([run])), base_url="http://127.0.0.1").post(
        "/api/review", json=good
    ).status_code in (404, 405)
