"""ShortcutsBench metrics (spec §3): API selection, static / previous-output / ask-for-input fill.

Scored on the log schema of §1.3 (``aseqs`` / ``bseqs``), so upstream logs and ours go through
the same code. Micro-averages: ``score_record`` returns numerators and denominators per record,
``aggregate_counts`` sums them overall, per difficulty level, per canonical category and per
candidate-count bucket. The parameter metrics are *conditional*: an action enters them only
when its predicted identifier equals the gold one, exactly as upstream. Gold values are raw.

Fixes of upstream crashes (no published number depends on them): a non-dict prediction counts as
"no identifier / no parameters"; non-dict predicted parameters are a format error.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from restgraph.tools.shortcuts.length import shortcut_length, top_level_positions
from restgraph.tools.shortcuts.output import JSON_ERROR
from restgraph.tools.shortcuts.protocol import (
    ACTION_OUTPUT,
    CATEGORIES,
    INPUT_TYPES,
    action_id,
    action_params,
    candidate_bucket,
    is_scored,
    level_of,
)

METRICS = (
    "api_selection_accuracy",
    "static_param_accuracy",
    "prev_output_param_accuracy",
    "ask_input_accuracy",
)
_COUNT_KEYS = {
    "api_selection_accuracy": "api",
    "static_param_accuracy": "static",
    "prev_output_param_accuracy": "prev",
    "ask_input_accuracy": "ask",
}


# -- value comparison (judge_if_equal / judge_if_return_value_equal) --------------------------------
def judge_if_equal(gold: Any, pred: Any) -> bool:
    """Primitive/enum equality with upstream's coercions: bool->int, then float, then int, else ==."""
    if isinstance(gold, bool):
        gold = int(gold)
    if isinstance(pred, bool):
        pred = int(pred)
    if isinstance(gold, float) or isinstance(pred, float):
        try:
            return float(gold) == float(pred)
        except (TypeError, ValueError, OverflowError):
            return False
    if isinstance(gold, int) or isinstance(pred, int):
        try:
            return int(gold) == int(pred)
        except (TypeError, ValueError, OverflowError):
            return str(gold) == str(pred)
    return gold == pred


def return_value_verdict(gold: Any, pred: Any) -> str:
    """``correct`` | ``format`` (not a dict / no dict Value / other Type) | ``value``."""
    if not (isinstance(gold, dict) and isinstance(pred, dict)):
        return "format"
    gv, pv = gold.get("Value"), pred.get("Value")
    if not (isinstance(gv, dict) and isinstance(pv, dict)) or gv.get("Type") != pv.get("Type"):
        return "format"
    fields = ("OutputUUID", "OutputName")
    if all(f in gv and f in pv for f in fields):
        ok = gv["OutputUUID"] == pv["OutputUUID"] or gv["OutputName"] == pv["OutputName"]
    elif "OutputUUID" in gv and "OutputUUID" in pv:
        ok = gv["OutputUUID"] == pv["OutputUUID"]
    elif "OutputName" in gv and "OutputName" in pv:
        ok = gv["OutputName"] == pv["OutputName"]
    else:
        ok = False
    return "correct" if ok else "value"


def _value_type(value: Any) -> str | None:
    if isinstance(value, dict) and isinstance(value.get("Value"), dict):
        kind = value["Value"].get("Type")
        return kind if isinstance(kind, str) else None
    return None


def prediction_of(bstep: Any) -> dict[str, Any] | None:
    """The predicted action of a ``bseqs`` entry, or None (json_error, non-dict, malformed entry)."""
    if not isinstance(bstep, dict) or bstep.get("state") == JSON_ERROR:
        return None
    aseq = bstep.get("aseq")
    return aseq if isinstance(aseq, dict) else None


# -- one record --------------------------------------------------------------------------------
def score_record(
    *,
    aseqs: Sequence[Any],
    bseqs: Sequence[Any],
    api_names: Sequence[str] | None = None,
    category: str | None = None,
    essential: Mapping[str, Sequence[str]] | None = None,
    full_length: int | None = None,
) -> dict[str, Any]:
    """Counts for one query. Positions past ``len(bseqs)`` were never run: upstream cuts ``aseqs``
    there (they leave every denominator and the difficulty length); ``api_unrun`` keeps them for
    the strict variant. ``full_length`` (the uncut gold's length) overrides the faithful length."""
    run = list(aseqs[: len(bseqs)])
    length = shortcut_length(run) if full_length is None else full_length
    positions = top_level_positions(run)
    candidates = list(api_names or [])
    # upstream (evaluate_experiment): every wrong action counts in the hallucination / position
    # denominators, and a missing pick (json_error, no identifier) is "not among the candidates";
    # the ``picked_*`` / ``offered_*`` counts give the variants restricted to real picks
    api = {
        "n": 0,
        "correct": 0,
        "wrong": 0,
        "hallucinated": 0,
        "rel_pos_sum": 0.0,
        "picked_wrong": 0,
        "picked_hallucinated": 0,
        "offered_wrong": 0,
    }
    static = {"n": 0, "correct": 0}
    prev = {"n": 0, "correct": 0, "nopred": 0, "format": 0, "value": 0}
    ask: dict[str, Any] = {"n": 0, "correct": 0, "by_type": {}}
    by_position: list[list[int]] = []  # [top-level position, API right (1) or wrong (0)]
    for pos, gold in enumerate(run):
        if not is_scored(gold):
            continue
        pred = prediction_of(bseqs[pos])
        pred_id = pred.get("WFWorkflowActionIdentifier") if pred else None
        api["n"] += 1
        right = int(pred_id is not None and pred_id == action_id(gold))
        if pos in positions:
            by_position.append([positions[pos], right])
        if right:
            api["correct"] += 1
        else:
            api["wrong"] += 1
            offered = pred_id is not None and pred_id in candidates
            if offered and pred_id is not None:
                api["rel_pos_sum"] += candidates.index(pred_id) / len(candidates)
                api["offered_wrong"] += 1
            else:
                api["hallucinated"] += 1
            if pred_id is not None:
                api["picked_wrong"] += 1
                api["picked_hallucinated"] += int(not offered)
            continue
        pred_params = pred.get("WFWorkflowActionParameters") if pred else None
        pred_params = pred_params if isinstance(pred_params, dict) else None
        gold_params = action_params(gold)
        wanted = set((essential or {}).get(str(pos), ()))
        for name, value in gold_params.items():
            if name in wanted:
                static["n"] += 1
                static["correct"] += int(
                    pred_params is not None
                    and name in pred_params
                    and judge_if_equal(value, pred_params[name])
                )
            kind = _value_type(value)
            if kind == ACTION_OUTPUT:
                prev["n"] += 1
                verdict = (
                    "nopred"
                    if pred_params is None or name not in pred_params
                    else return_value_verdict(value, pred_params[name])
                )
                prev[verdict] += 1
            elif kind in INPUT_TYPES:
                ok = (
                    pred_params is not None and name in pred_params and _value_type(pred_params[name]) == kind
                )
                ask["n"] += 1
                ask["correct"] += int(ok)
                per = ask["by_type"].setdefault(kind, [0, 0])
                per[0] += 1
                per[1] += int(ok)
    unrun = sum(1 for gold in aseqs[len(bseqs) :] if is_scored(gold))
    return {
        "length": length,
        "level": level_of(length),
        "category": category,
        "n_candidates": len(candidates),
        "api": api,
        "api_unrun": unrun,
        "api_by_position": by_position,
        "static": static if essential is not None else None,
        "prev": prev,
        "ask": ask,
        "success": api["n"] > 0 and api["correct"] == api["n"] and unrun == 0,
    }


# -- aggregation ---------------------------------------------------------------------------------
def position_counts(
    scores: Iterable[Mapping[str, Any]], levels: Sequence[str] = ("(1,5]", "(5,15]", "(15,30]")
) -> dict[str, dict[int, tuple[int, int]]]:
    """API selection by top-level action position (upstream's longest-branch ``pos``) within each
    of ``levels``; actions nested in blocks carry no position and are left out, as upstream."""
    out: dict[str, dict[int, list[int]]] = {level: defaultdict(lambda: [0, 0]) for level in levels}
    for score in scores:
        if score.get("level") not in out:
            continue
        for position, ok in score.get("api_by_position") or []:
            out[score["level"]][position][0] += ok
            out[score["level"]][position][1] += 1
    return {level: {k: (c, n) for k, (c, n) in sorted(per.items())} for level, per in out.items()}


def level_counts(scores: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, tuple[int, int]]]:
    """``{metric: {level or "Overall": (correct, n)}}``: the per-level table with its denominators."""
    out: dict[str, dict[str, list[int]]] = {m: defaultdict(lambda: [0, 0]) for m in METRICS}
    for score in scores:
        if "api" not in score:
            continue
        for metric, key in _COUNT_KEYS.items():
            counts = score.get(key)
            if counts is None:
                continue
            for group in (score["level"], "Overall"):
                out[metric][group][0] += counts["correct"]
                out[metric][group][1] += counts["n"]
    return {m: {g: (c, n) for g, (c, n) in groups.items()} for m, groups in out.items()}


def _groups(score: Mapping[str, Any]) -> list[str]:
    groups = ["", f"@{score['level']}", f"@candidates{candidate_bucket(score['n_candidates'])}"]
    if score.get("category") in CATEGORIES:
        groups.append(f"@{score['category']}")
    return groups


_API_EXTRA = ("wrong", "hallucinated", "rel_pos_sum", "picked_wrong", "picked_hallucinated", "offered_wrong")


def _wrong_pick_metrics(counts: Mapping[str, float], suffix: str = "") -> dict[str, float]:
    """Upstream's hallucination rate and mean relative position (denominator: every wrong action,
    json_error included) and, under other names, the variants over real picks only."""
    out: dict[str, float] = {}
    if counts["wrong"]:
        out["api_hallucination_rate" + suffix] = counts["hallucinated"] / counts["wrong"]
        out["api_wrong_pick_mean_rel_position" + suffix] = counts["rel_pos_sum"] / counts["wrong"]
    if counts["picked_wrong"]:  # wrong picks that name an identifier (json_error and no-id left out)
        out["api_hallucination_rate_among_picks" + suffix] = (
            counts["picked_hallucinated"] / counts["picked_wrong"]
        )
    if counts["offered_wrong"]:  # wrong picks that are among the candidates
        out["api_wrong_pick_mean_rel_position_among_offered" + suffix] = (
            counts["rel_pos_sum"] / counts["offered_wrong"]
        )
    return out


def aggregate_counts(scores: Iterable[Mapping[str, Any]]) -> dict[str, float]:
    """Micro-averaged metrics; a rate whose denominator is 0 is left out (its ``*_n`` says 0)."""
    sums: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    extra: defaultdict[str, float] = defaultdict(float)
    wrong_picks: dict[str, dict[str, float]] = defaultdict(lambda: dict.fromkeys(_API_EXTRA, 0.0))
    static_seen = False
    for score in scores:
        if "api" not in score:
            continue  # a record that could not be scored (its error is in the per-episode scores)
        for group in _groups(score):
            for metric, key in _COUNT_KEYS.items():
                counts = score.get(key)
                if counts is None:
                    continue
                if group.startswith("@candidates") and metric != "api_selection_accuracy":
                    continue  # the candidate-count breakdown is an API-selection analysis only
                sums[metric + group][0] += counts["correct"]
                sums[metric + group][1] += counts["n"]
        static_seen = static_seen or score.get("static") is not None
        for kind, (n, correct) in score["ask"]["by_type"].items():
            sums[f"ask_input_accuracy@type:{kind}"][0] += correct
            sums[f"ask_input_accuracy@type:{kind}"][1] += n
        api = score["api"]
        sums["api_selection_accuracy_strict"][0] += api["correct"]
        sums["api_selection_accuracy_strict"][1] += api["n"] + score.get("api_unrun", 0)
        for group in ("", f"@candidates{candidate_bucket(score['n_candidates'])}"):  # upstream keeps both
            for key in _API_EXTRA:
                wrong_picks[group][key] += api.get(key, 0)
        for key in ("nopred", "format", "value"):
            extra["prev_" + key] += score["prev"][key]
    out: dict[str, float] = {}
    for name, (correct, n) in sums.items():
        if n:
            out[name] = correct / n
    for metric in METRICS:
        if metric == "static_param_accuracy" and not static_seen:
            continue
        out[f"{metric}_n"] = float(sums[metric][1])
    for group, counts in wrong_picks.items():
        out.update(_wrong_pick_metrics(counts, group))
    for key in ("nopred", "format", "value"):
        out[f"prev_output_errors_{key}"] = extra["prev_" + key]
    return dict(sorted(out.items(), key=lambda kv: (kv[0].split("@")[0] not in METRICS, kv[0])))
