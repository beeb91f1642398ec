"""A clean-room re-implementation of AssistantBench's official answer scorer, quirks included.

Written from the behavioural description in ``docs/assistantbench.md`` (section 2 and the quirk
table in section 4), not from the upstream code. Published numbers (the paper, HAL, BrowserGym)
come from the official scorer, so the default here reproduces it *exactly*, bugs and crashes
included: the comma-to-dot number rewrite, the tuple returned for one-element numeric lists,
``len(None)`` crashes, natural-log number scores, NaN from empty dicts. ``fixed=True`` removes
the crashes (and only the crashes); ``restgraph.evals.scorers.assistantbench`` wraps this module so that a
crash becomes a recorded score of 0.

Type checks use ``type(x) is ...`` (not ``isinstance``) where the description treats ``bool`` as
"anything else" rather than as an int.
"""

from __future__ import annotations

import contextlib
import json
import re
import string
import warnings
from typing import Any

import numpy as np
from scipy.optimize import linear_sum_assignment

GoldType = str  # "number" | "json" | "string" | "string list"


# -- numbers and gold parsing ---------------------------------------------------------------------
def fix_number(value: Any, *, drop_square_km: bool = True) -> tuple[Any, bool]:
    """Turn a numeric-looking answer into a float; returns ``(value, ok)``.

    Quirk kept on purpose: every ``,`` becomes ``.``, so ``1,010,000`` fails to parse and
    ``14,2`` is 14.2.
    """
    if type(value) is str:
        text = value.replace("$", " ").replace("%", " ").replace("sqft", " ").strip()
        text = text.replace(",", ".")
        if drop_square_km:
            text = text.replace(" square kilometers", "")
        try:
            return float(text), True
        except ValueError:
            return value, False
    if type(value) is int:
        return float(value), True
    return value, True


def fix_ans(line: str) -> str:
    """Textual rewrite of Python-dict quoting into JSON quoting (gold lines only)."""
    for old, new in (("{'", '{"'), ("', '", '", "'), ("': '", '": "'), ("'}", '"}'), ("': ", '": ')):
        line = line.replace(old, new)
    return line


def parse_gold(gold: str) -> tuple[Any, GoldType]:
    """Classify the gold string and return its parsed form."""
    lines = [line for line in gold.split("\n") if line.strip()]
    if len(lines) == 1:
        value, ok = fix_number(lines[0])
        if ok:
            return value, "number"
        try:
            return [json.loads(fix_ans(lines[0]))], "json"
        except ValueError:
            return lines[0], "string"
    try:
        return [json.loads(fix_ans(line)) for line in lines], "json"
    except ValueError:
        return lines, "string list"


# -- strings: DROP-style bag-of-tokens F1 with one-to-one alignment --------------------------------
_ARTICLES = re.compile(r"\b(a|an|the)\b", re.UNICODE)
_PUNCTUATION = set(string.punctuation)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _normalize_token(token: str) -> str:
    token = token.lower()
    if not _is_number(token):
        token = "".join(ch for ch in token if ch not in _PUNCTUATION)
    if _is_number(token):
        token = str(float(token))
    token = _ARTICLES.sub(" ", token)
    return " ".join(token.split())


def normalize_span(text: str) -> str:
    """Split on a single space or hyphen (newlines do not split), normalise and re-join."""
    parts = [_normalize_token(token) for token in re.split(" |-", text)]
    return " ".join(part for part in parts if part.strip()).strip()


def _bags(answer: Any) -> list[set[str]]:
    spans = answer if isinstance(answer, list | tuple) else [answer]
    return [set(normalize_span(span).split()) for span in spans]


def _f1(predicted: set[str], gold: set[str]) -> float:
    overlap = len(gold & predicted)
    precision = 1.0 if not predicted else overlap / len(predicted)
    recall = 1.0 if not gold else overlap / len(gold)
    if precision == 0.0 and recall == 0.0:
        return 0.0
    return 2 * precision * recall / (precision + recall)


def _numbers_match(gold: set[str], predicted: set[str]) -> bool:
    gold_numbers = {t for t in gold if _is_number(t)}
    return not gold_numbers or bool(gold_numbers & {t for t in predicted if _is_number(t)})


def _aligned_mean(scores: np.ndarray, n_gold: int, n_pred: int) -> float:
    """Maximum-weight one-to-one assignment; unmatched gold *and* extra predictions count 0."""
    rows, cols = linear_sum_assignment(-scores)
    best = np.zeros(max(n_gold, n_pred))
    for row, col in zip(rows, cols, strict=True):
        best[row] = max(best[row], scores[row, col])
    return float(np.mean(best))


def evaluate_strings(prediction: Any, gold: Any) -> float:
    if type(prediction) not in (list, str):
        prediction = str(prediction)
    if type(gold) not in (list, str):
        gold = str(gold)
    try:
        pred_bags, gold_bags = _bags(prediction), _bags(gold)
        scores = np.zeros((len(gold_bags), len(pred_bags)))
        for i, gold_bag in enumerate(gold_bags):
            for j, pred_bag in enumerate(pred_bags):
                if _numbers_match(gold_bag, pred_bag):
                    scores[i, j] = _f1(pred_bag, gold_bag)
        return _aligned_mean(scores, len(gold_bags), len(pred_bags))
    except Exception:  # the official string scorer swallows every error as 0
        return 0.0


# -- numbers ----------------------------------------------------------------------------------------
def _log_closeness(prediction: float, gold: float) -> float:
    if prediction == 0 and gold == 0:
        return 1.0
    if prediction == 0:
        prediction = 1e-4
    if gold == 0:
        gold = 1e-4
    with np.errstate(all="ignore"):  # opposite signs: log of a negative ratio is NaN, and max(0, NaN) == 0
        ratio = prediction / gold if prediction > gold else gold / prediction
        return max(0, 1 - np.log(ratio))


def evaluate_numbers(prediction: Any, gold: Any) -> float:
    """Natural-log closeness. ``ValueError`` on conversion scores 0; ``TypeError`` propagates."""
    failed = False
    if not isinstance(prediction, int | float):
        try:
            prediction = float(prediction)
        except ValueError:
            failed = True
    if not isinstance(gold, int | float):
        try:
            gold = float(gold)
        except ValueError:
            failed = True
    return 0.0 if failed else _log_closeness(prediction, gold)


# -- dicts ------------------------------------------------------------------------------------------
def _value_score(pred_value: Any, gold_value: Any) -> float:
    pred_value = fix_number(pred_value, drop_square_km=False)[0]
    gold_value = fix_number(gold_value, drop_square_km=False)[0]
    evaluator = _VALUE_EVALUATORS[
        type(gold_value)
    ]  # KeyError for dict/None gold values, before the type check
    if type(pred_value) is not type(gold_value):
        return 0.0
    return evaluator(pred_value, gold_value)


_VALUE_EVALUATORS = {
    str: evaluate_strings,
    list: evaluate_strings,
    bool: evaluate_strings,
    int: evaluate_numbers,
    float: evaluate_numbers,
}


def evaluate_pair_of_dicts(prediction: dict, gold: dict, *, fixed: bool = False) -> float:
    if fixed and (not prediction or not gold):
        return 0.0
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # mean of an empty dict's scores is NaN, as upstream
        recall = np.mean([_value_score(prediction[k], gold[k]) if k in prediction else 0.0 for k in gold])
        precision = np.mean([_value_score(prediction[k], gold[k]) if k in gold else 0.0 for k in prediction])
        if precision + recall == 0:
            return 0.0
        return float(
            2 * precision * recall / (precision + recall)
        )  # NaN for an empty dict (official behaviour)


def evaluate_dicts(prediction: Any, gold: list, *, fixed: bool = False) -> float:
    if not isinstance(prediction, dict) and len(prediction) > 0 and not isinstance(prediction[0], dict):
        return 0.0
    if isinstance(prediction, dict):
        prediction = [prediction]
    scores = np.zeros((len(gold), len(prediction)))
    for i, gold_item in enumerate(gold):
        for j, pred_item in enumerate(prediction):
            scores[i, j] = evaluate_pair_of_dicts(pred_item, gold_item, fixed=fixed)
    return _aligned_mean(scores, len(gold), len(prediction))  # NaN in the matrix -> ValueError


# -- the scorer -------------------------------------------------------------------------------------
def _fix_prediction(prediction: Any, gold: Any, gold_type: GoldType) -> tuple[Any, bool]:
    run_eval = True
    if (
        isinstance(prediction, list)
        and len(prediction) == 1
        and (type(prediction[0]) is int or (isinstance(prediction[0], str) and prediction[0].isnumeric()))
    ):
        prediction = fix_number(prediction[0])  # upstream bug: the whole (value, ok) tuple
    if not isinstance(prediction, list):
        prediction = fix_number(prediction)[0]
        if gold_type == "json":
            try:
                prediction = [json.loads(line) for line in prediction.split("\n")]
            except Exception:
                prediction = [prediction]
    if hasattr(prediction, "__len__") and len(prediction) == 0:
        run_eval = False
    if isinstance(prediction, list) and len(prediction) > 1 and isinstance(gold, float):
        run_eval = False
    return prediction, run_eval


def _is_nan(value: Any) -> bool:
    try:
        return bool(np.isnan(value))
    except Exception:  # strings, lists of several items...: "not NaN"
        return False


def _has_answer(prediction: Any) -> float:
    has_ans = 1.0
    if (type(prediction) is not float and len(prediction) == 0) or _is_nan(prediction):  # len(None) raises
        has_ans = 0.0
    if isinstance(prediction, list) and all(
        _is_nan(item) if type(item) in (int, float) else len(item) == 0 for item in prediction
    ):
        has_ans = 0.0
    return has_ans


def _unwrap_for_fixed(prediction: Any, gold_type: GoldType) -> Any:
    """``fixed=True``: repair only the inputs that crash the official scorer."""
    if prediction is None:
        return ""
    if type(prediction) is bool:
        return "true" if prediction else "false"
    if gold_type == "number" and isinstance(prediction, list) and len(prediction) == 1:
        item = prediction[0]
        return ("true" if item else "false") if type(item) is bool else item
    return prediction


def question_scorer(prediction: Any, gold: str, *, fixed: bool = False) -> tuple[float, float]:
    """``(score, has_ans)`` exactly as the official scorer computes it (it may raise, like upstream)."""
    if isinstance(prediction, str):
        with contextlib.suppress(ValueError):
            prediction = json.loads(prediction)
    gold_value, gold_type = parse_gold(gold)
    if fixed:
        prediction = _unwrap_for_fixed(prediction, gold_type)
    prediction, run_eval = _fix_prediction(prediction, gold_value, gold_type)
    has_ans = _has_answer(prediction)
    if not run_eval:
        return 0.0, has_ans
    if gold_type in ("string", "string list"):
        score = evaluate_strings(prediction, gold_value)
    elif gold_type == "number":
        score = evaluate_numbers(prediction, gold_value)
    else:
        score = evaluate_dicts(prediction, gold_value, fixed=fixed)
    return float(score), has_ans
