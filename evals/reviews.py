"""Human verdicts on episodes (``reviews.jsonl``), how ``restgraph score`` uses them, and how far the
checker agrees with people.

Why: the paper's success was judged by people; the answer checker is a cheaper stand-in that must be
checked against them. ``restgraph review RUN`` (``restgraph.evals.viewer``) appends one ``Review``
per key press to ``RUN/reviews.jsonl`` (the last line of an episode wins, so a changed mind is one
more line, and the file is an audit trail). ``write_summary`` then takes the human verdict over the
checker's for the episode's success (``apply_reviews``): the scores row keeps the checker's verdict
as ``checker_success`` and the person's as ``human_review``, and ``summary.json`` gets a
``human_review`` block (how many reviewed, how many verdicts the people overrode, agreement and
Cohen's kappa). ``review_agreement`` computes the same from a run folder for the reports.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

REVIEWS_FILE = "reviews.jsonl"


class Review(BaseModel):
    """One line of ``reviews.jsonl``: a person's verdict on one episode."""

    model_config = ConfigDict(extra="forbid")

    task_id: str
    epoch: int = 0
    verdict: Literal["pass", "fail"]
    who: str = Field(min_length=1)
    when: datetime = Field(default_factory=lambda: datetime.now(UTC))
    checker: bool | None = None  # the checker's verdict the person saw (the agreement uses the current one)


def append_review(run_dir: str | Path, review: Review) -> None:
    """One line, appended and flushed (a crash never tears an earlier verdict)."""
    with open(Path(run_dir) / REVIEWS_FILE, "a", encoding="utf-8") as fh:
        fh.write(review.model_dump_json() + "\n")


def load_reviews(run_dir: str | Path) -> dict[tuple[str, int], Review]:
    """The standing verdict per (task, epoch): the last line wins. A torn last line is skipped."""
    path = Path(run_dir) / REVIEWS_FILE
    if not path.is_file():
        return {}
    out: dict[tuple[str, int], Review] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        try:
            review = Review.model_validate_json(line)
        except ValueError:
            continue
        out[(review.task_id, review.epoch)] = review
    return out


def agreement(pairs: Iterable[tuple[bool, bool]]) -> dict[str, Any]:
    """Checker vs human on the reviewed episodes: the 2x2 counts, the share agreeing and Cohen's
    kappa (agreement beyond what the two raters' pass rates give by chance; None when chance alone
    explains everything, e.g. both passed every episode)."""
    pairs = list(pairs)
    n = len(pairs)
    both_pass = sum(c and h for c, h in pairs)
    both_fail = sum(not c and not h for c, h in pairs)
    checker_only = sum(c and not h for c, h in pairs)  # the checker passed what people failed
    human_only = sum(h and not c for c, h in pairs)
    agree = both_pass + both_fail
    kappa: float | None = None
    if n:
        observed = agree / n
        checker_rate, human_rate = (both_pass + checker_only) / n, (both_pass + human_only) / n
        chance = checker_rate * human_rate + (1 - checker_rate) * (1 - human_rate)
        kappa = None if chance >= 1 else round((observed - chance) / (1 - chance), 6)
    return {
        "reviewed": n,
        "agree": agree,
        "overrides": n - agree,
        "both_pass": both_pass,
        "both_fail": both_fail,
        "checker_pass_human_fail": checker_only,
        "checker_fail_human_pass": human_only,
        "agreement": round(agree / n, 6) if n else None,
        "kappa": kappa,
    }


def apply_reviews(
    run_dir: str | Path, keys: Sequence[tuple[str, int]], scores: list[dict[str, Any]], success_key: str
) -> dict[str, Any] | None:
    """Put the human verdicts into ``scores`` (in place, before the metrics are aggregated) and
    return the summary's ``human_review`` block; None when the run has no reviews."""
    reviews = load_reviews(run_dir)
    if not reviews:
        return None
    pairs = []
    for key, row in zip(keys, scores, strict=True):
        review = reviews.get(key)
        if review is None:
            continue
        checker = bool(row.get(success_key))
        human = review.verdict == "pass"
        row["checker_success"] = checker
        row[success_key] = human
        row["human_review"] = review.model_dump(mode="json", exclude={"task_id", "epoch"})
        pairs.append((checker, human))
    unmatched = len(set(reviews) - set(keys))
    return {"file": REVIEWS_FILE, **agreement(pairs), "unmatched": unmatched}


def checker_verdict(row: dict[str, Any], success_key: str = "success") -> bool | None:
    """The checker's own verdict in a ``scores.jsonl`` row, whether or not a person overrode it."""
    value = row.get("checker_success", row.get(success_key))
    return None if value is None else bool(value)


def review_agreement(run_dir: str | Path) -> dict[str, Any] | None:
    """Reviewed counts and checker-vs-human agreement of one run folder, from ``reviews.jsonl`` and
    ``scores.jsonl`` as they are now (a review added after the last ``restgraph score`` counts);
    None when the run has no reviews."""
    run_dir = Path(run_dir)
    reviews = load_reviews(run_dir)
    if not reviews:
        return None
    success_key = "success"
    summary = run_dir / "summary.json"
    if summary.is_file():
        success_key = json.loads(summary.read_text(encoding="utf-8")).get("success_key") or success_key
    pairs = []
    scores = run_dir / "scores.jsonl"
    lines = scores.read_text(encoding="utf-8").splitlines() if scores.is_file() else []
    for line in lines:
        if not line.strip():
            continue
        row = json.loads(line)
        review = reviews.get((str(row.get("task_id")), int(row.get("epoch", 0) or 0)))
        checker = checker_verdict(row, success_key)
        if review is not None and checker is not None:
            pairs.append((checker, review.verdict == "pass"))
    return agreement(pairs)
