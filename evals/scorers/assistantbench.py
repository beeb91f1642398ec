"""AssistantBench scoring as the harness uses it: the official scorer, made crash-safe, and the
run-level metrics (accuracy, answer rate, precision, exact match).

``score(prediction, gold)`` returns the official ``(score, has_ans)`` whenever the official code
would return one (``restgraph.evals.scorers.assistantbench_official``). Inputs that crash the official code
(``[45]`` against ``45``, ``null``, ``true``, ``{}`` against a dict) score 0, keep an independent
``has_ans`` and carry the reason in ``ScoreResult.error`` so the trace-level score records it.
``hal_compat=True`` records ``(0, 0)`` on a crash, as HAL does; ``fixed=True`` repairs the crashes
without changing any score the official code does produce. Faithful numbers are the default.
"""

from __future__ import annotations

import contextlib
import json
import math
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from restgraph.evals.scorers.assistantbench_official import fix_number, parse_gold, question_scorer


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
        return ScoreResult(
            score=0.0, has_ans=0.0 if hal_compat else independent_has_answer(prediction), error=reason
        )
    return ScoreResult(score=float(value), has_ans=float(has_ans))


def score(
    prediction: Any, gold: str, *, fixed: bool = False, hal_compat: bool = False
) -> tuple[float, float]:
    """``(score, has_ans)``, the official scorer's signature, crash-safe."""
    result = score_answer(prediction, gold, fixed=fixed, hal_compat=hal_compat)
    return result.score, result.has_ans


def exact_match_raw(prediction: str | None, gold: str | None) -> bool:
    """HAL's EM: raw string equality of the submitted answer and the gold string."""
    return prediction is not None and gold is not None and prediction == gold


def exact_match(prediction: Any, gold: str | None) -> bool:
    """The paper's EM (§3.4: "1 if it generated the exact reference answer"): the answer, read as the
    official scorer reads it, *is* the gold value the scorer parses from the gold string.

    The paper gives only that sentence (no EM code is published: SeePlanAct's
    ``evaluation_utils.py`` is SeeAct's Mind2Web step metric), so "exact" is taken at the answer
    format the paper prescribes (a number, a string, a list of strings or of JSON objects, parsed
    with ``json.loads``): ``14.2`` is the gold ``14.20%``, ``["a", "b"]`` is the gold list
    ``a\nb`` (in any order), ``{"price": "$41.75"}`` is ``{"price": 41.75}``. Unlike the F1 score
    there is no word-level leniency: strings must be equal after trimming, and an answer the
    scorer cannot read as a number (``1,010,000``) is not the number. HAL's raw equality
    (``exact_match_raw``) implies this.
    """
    if prediction is None or gold is None:
        return False
    if isinstance(prediction, str) and prediction.strip() == gold.strip():
        return True
    canonical = _canonical(prediction, gold)
    return canonical is not None and canonical == _gold_canonical(gold)


def _gold_canonical(gold: str) -> Any:
    value, kind = parse_gold(gold)
    if kind == "number":
        return ("number", value)
    if kind == "string":
        return ("string", value.strip())
    if kind == "string list":
        return ("list", sorted(line.strip() for line in value))
    return ("json", sorted(_json_key(item) for item in value))


def _json_key(item: Any) -> str:
    """A JSON value with its numbers (and numeric strings, as the dict scorer reads them) as floats."""
    if isinstance(item, dict):
        item = {k: fix_number(v, drop_square_km=False)[0] for k, v in item.items()}
    return json.dumps(item, sort_keys=True, default=str)


def _canonical(prediction: Any, gold: str) -> Any:
    """The answer in the gold's kind, or ``None`` when it cannot be that kind."""
    value = prediction
    if isinstance(value, str):
        with contextlib.suppress(ValueError):
            value = json.loads(value)
    _, kind = parse_gold(gold)
    if kind == "number":
        number, ok = fix_number(value)
        return ("number", number) if ok and type(number) is float else None
    if kind == "string":
        return ("string", value.strip()) if isinstance(value, str) else None
    if kind == "string list":
        ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
        return ("list", sorted(v.strip() for v in value)) if ok else None
    if isinstance(value, str):  # one JSON object per line
        try:
            value = [json.loads(line) for line in value.split("\n") if line.strip()]
        except ValueError:
            return None
    items = value if isinstance(value, list) else [value]
    return ("json", sorted(_json_key(item) for item in items))


def aggregate(rows: Sequence[dict[str, Any]], n_tasks: int | None = None) -> dict[str, float]:
    """Run metrics from per-episode rows ``{"score", "has_ans", "exact_match", "gold_available"}``.

    ``n_tasks`` is the number of tasks in the split; episodes that are missing, failed or were not
    scored count 0 (defaults to ``len(rows)``: the runner writes a trace for every task, failures
    included).

    Rows with ``gold_available: False`` (the hidden test split) have no score: accuracy, precision
    and exact match are computed over the tasks that have a gold answer only, and are *absent*
    when none has one (never a 0.0 that reads like a result); ``gold_available`` and
    ``gold_unavailable`` count the tasks of each kind. The answer rate is over the graded tasks,
    or over all of them when none is graded.
    """
    n_all = n_tasks if n_tasks is not None else len(rows)
    graded = [r for r in rows if r.get("gold_available", True)]
    unavailable = len(rows) - len(graded)
    out: dict[str, float] = {"answer_rate": sum(float(r.get("has_ans") or 0.0) for r in rows) / max(n_all, 1)}
    if unavailable:
        out |= {"gold_available": float(n_all - unavailable), "gold_unavailable": float(unavailable)}
    n = n_all - unavailable
    if n <= 0:
        return out
    total = sum(float(r.get("score") or 0.0) for r in graded)
    answered = sum(float(r.get("has_ans") or 0.0) for r in graded)
    return {
        "accuracy": total / n,
        "answer_rate": out["answer_rate"] if not unavailable else answered / n,
        "precision": total / answered if answered else 0.0,
        "exact_match": sum(bool(r.get("exact_match")) for r in graded) / n,
        "exact_match_raw": sum(bool(r.get("exact_match_raw")) for r in graded) / n,
        "full_score_rate": sum(float(r.get("score") or 0.0) == 1.0 for r in graded) / n,
        "scorer_errors": float(sum(bool(r.get("scorer_error")) for r in graded)),
        **({k: v for k, v in out.items() if k != "answer_rate"}),
    }
