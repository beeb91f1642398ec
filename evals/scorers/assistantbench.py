"""AssistantBench scoring as the harness uses it: the official scorer, made crash-safe, and the
run-level metrics (accuracy, answer rate, precision, exact match).

``score(prediction, gold)`` returns the official ``(score, has_ans)`` whenever the official code
would return one (``evals.scorers.assistantbench_official``). Inputs that crash the official code
(``[45]`` against ``45``, ``null``, ``true``, ``{}`` against a dict) score 0, keep an independent
``has_ans`` and carry the reason in ``ScoreResult.error`` so the trace-level score records it.
``hal_compat=True`` records ``(0, 0)`` on a crash, as HAL does; ``fixed=True`` repairs the crashes
without changing any score the official code does produce. Faithful numbers are the default.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from evals.scorers.assistantbench_official import question_scorer


class ScoreResult(BaseModel):
    score: float
    has_ans: float
    #: why the official scorer crashed on this input (``None`` when it did not)
    error: str | None = None


def independent_has_answer(prediction: Any) -> float:
    """``has_ans`` for inputs the official code crashes on: 0 for None, NaN, blank, or all-blank lists."""
    value = prediction
    if isinstance(value, str):
        if not value.strip():
            return 0.0
        try:
            value = json.loads(value)
        except ValueError:
            return 1.0
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return 0.0
    if isinstance(value, str | list | dict | tuple) and len(value) == 0:
        return 0.0
    if isinstance(value, list) and all(independent_has_answer(item) == 0.0 for item in value):
        return 0.0
    return 1.0


def score_answer(prediction: Any, gold: str, *, fixed: bool = False, hal_compat: bool = False) -> ScoreResult:
    """Score one answer; never raises."""
    if prediction is None:
        prediction = ""
    try:
        value, has_ans = question_scorer(prediction, gold, fixed=fixed)
    except Exception as exc:  # the official code's crashes (TypeError, ValueError, KeyError, ...)
        reason = f"{type(exc).__name__}: {exc}"[:300]
        return ScoreResult(score=0.0, has_ans=0.0 if hal_compat else independent_has_answer(prediction), error=reason)
    return ScoreResult(score=float(value), has_ans=float(has_ans))


def score(prediction: Any, gold: str, *, fixed: bool = False, hal_compat: bool = False) -> tuple[float, float]:
    """``(score, has_ans)``, the official scorer's signature, crash-safe."""
    result = score_answer(prediction, gold, fixed=fixed, hal_compat=hal_compat)
    return result.score, result.has_ans


def exact_match(prediction: str | None, gold: str | None) -> bool:
    """HAL's EM: raw string equality of the submitted answer and the gold string."""
    return prediction is not None and gold is not None and prediction == gold


def aggregate(rows: Sequence[dict[str, Any]], n_tasks: int | None = None) -> dict[str, float]:
    """Run metrics from per-episode rows ``{"score", "has_ans", "exact_match"}``.

    ``n_tasks`` is the number of tasks in the split; episodes that are missing, failed or were not
    scored count 0 (defaults to ``len(rows)``: the runner writes a trace for every task, failures
    included).
    """
    n = max(n_tasks if n_tasks is not None else len(rows), 1)
    total = sum(float(r.get("score") or 0.0) for r in rows)
    answered = sum(float(r.get("has_ans") or 0.0) for r in rows)
    return {
        "accuracy": total / n,
        "answer_rate": answered / n,
        "precision": total / answered if answered else 0.0,
        "exact_match": sum(bool(r.get("exact_match")) for r in rows) / n,
        "full_score_rate": sum(float(r.get("score") or 0.0) == 1.0 for r in rows) / n,
        "scorer_errors": float(sum(bool(r.get("scorer_error")) for r in rows)),
    }
