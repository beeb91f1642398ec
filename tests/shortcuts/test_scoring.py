"""Scorers: value judges, hand-counted fixture numbers, and every shared log re-scored by ``replay``.

The expected numbers come from hand counts (the fixture's comments, the mixtral log's pinned
values) or from the few independent lines of ``independent_counts`` below, never from the scorer.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from restgraph.evals.reports.shortcuts import load_scores
from restgraph.evals.scorers.shortcuts import judge_if_equal, position_counts, return_value_verdict
from tests.shortcuts.conftest import FIXTURES, read_log

P = "is.workflow.actions."
SKIP = {
    P + n
    for n in (
        "comment",
        "alert",
        "conditional",
        "choosefrommenu",
        "repeat.each",
        "repeat.count",
        "getvariable",
        "setvariable",
        "appendvariable",
        "runworkflow",
        "gettext",
        "ask",
    )
}
INPUTS = {"ExtensionInput", "CurrentDate", "Clipboard", "DeviceDetails", "Ask"}
LOGS = sorted(
    (Path(os.environ.get("RESTGRAPH_DATA_DIR", "/nonexistent")) / "shortcutsbench").glob(
        "experiment_res_*.jsonl"
    )
)


def _type(v):
    return v["Value"].get("Type") if isinstance(v, dict) and isinstance(v.get("Value"), dict) else None


def _spec_equal(g, p):
    """§3.2's rule written out again: bool->int; float if either is float; else int (str on failure); else ==."""
    g, p = (int(x) if isinstance(x, bool) else x for x in (g, p))
    kinds = {type(g), type(p)}
    try:
        if float in kinds:
            return float(g) == float(p)
        if int in kinds:
            try:
                return int(g) == int(p)
            except (TypeError, ValueError):
                return str(g) == str(p)
    except (TypeError, ValueError):
        return False
    return g == p


def independent_counts(records):
    """API / previous-output / ask-input [correct, n] re-derived from the paper's definitions."""
    api, prev, ask = [0, 0], [0, 0], [0, 0]
    for rec in records:
        for gold, b in zip(rec["aseqs"], rec["bseqs"], strict=False):
            if gold["WFWorkflowActionIdentifier"] in SKIP:
                continue
            api[1] += 1
            pred = b["aseq"] if b["state"] != "json_error" and isinstance(b["aseq"], dict) else {}
            if pred.get("WFWorkflowActionIdentifier") != gold["WFWorkflowActionIdentifier"]:
                continue
            api[0] += 1
            pp = (
                pred.get("WFWorkflowActionParameters")
                if isinstance(pred.get("WFWorkflowActionParameters"), dict)
                else {}
            )
            for name, value in gold["WFWorkflowActionParameters"].items():
                if _type(value) == "ActionOutput":
                    g, q = (
                        value["Value"],
                        (pp.get(name) or {}).get("Value") if isinstance(pp.get(name), dict) else None,
                    )
                    ok = isinstance(q, dict) and q.get("Type") == "ActionOutput"
                    shared = [k for k in ("OutputUUID", "OutputName") if k in g and q and k in q]
                    prev[0] += int(ok and bool(shared) and any(g[k] == q[k] for k in shared))
                    prev[1] += 1
                elif _type(value) in INPUTS:
                    ask[0] += int(_type(pp.get(name)) == _type(value))
                    ask[1] += 1
    return api, prev, ask


def test_judge_if_equal_coercions():
    assert judge_if_equal(True, 1) and judge_if_equal(1, "1") and judge_if_equal(3.5, "3.5")
    assert not judge_if_equal(3.5, "abc")  # float conversion fails -> False
    assert judge_if_equal(3, "3.0") is False and judge_if_equal(3, "x3") is False  # int fails -> str compare
    assert judge_if_equal(10, "10") and not judge_if_equal("POST", "post")  # enums are case-sensitive
    assert judge_if_equal(False, 0.0) and not judge_if_equal(2, {"a": 1})


def test_return_value_verdicts():
    gold = {"Value": {"OutputUUID": "U", "Type": "ActionOutput", "OutputName": "N"}}
    assert (
        return_value_verdict(gold, {"Value": {"OutputUUID": "X", "Type": "ActionOutput", "OutputName": "N"}})
        == "correct"
    )  # either matches
    assert return_value_verdict(gold, {"Value": {"Type": "ActionOutput", "OutputName": "N"}}) == "correct"
    assert return_value_verdict(gold, {"Value": {"OutputUUID": "X", "Type": "ActionOutput"}}) == "value"
    assert return_value_verdict(gold, {"Value": {"Type": "ActionOutput"}}) == "value"  # no shared field
    assert return_value_verdict(gold, {"Value": {"Type": "Variable", "OutputName": "N"}}) == "format"
    assert (
        return_value_verdict(gold, "N") == "format" and return_value_verdict(gold, {"Value": "N"}) == "format"
    )


def test_replay_of_hand_built_fixture(run_shortcuts):
    """tiny_log.jsonl, counted by hand: API 5/7 (rec 1: positions 2,3,5,8 right, 7 json_error, 10 a
    hallucinated id; rec 2: 1/1); static 2/3 ("3" == 3, 2.0 == 2, but "x" != "×"); previous output
    1/1 (name-only match); ask 1/2 (Ask answered with a string; Clipboard right; the ExtensionInput
    at position 10 is not counted since the API is wrong). Lengths 6 and 1."""
    summary, traces = run_shortcuts(
        "replay",
        source=FIXTURES / "tiny_log.jsonl",
        check_intersection=FIXTURES / "tiny_check_intersection.json",
    )
    m = summary["metrics"]
    assert (
        m["api_selection_accuracy"] == pytest.approx(5 / 7, abs=1e-6) and m["api_selection_accuracy_n"] == 7
    )
    assert m["static_param_accuracy"] == pytest.approx(2 / 3, abs=1e-6) and m["static_param_accuracy_n"] == 3
    assert m["prev_output_param_accuracy"] == 1.0 and m["prev_output_param_accuracy_n"] == 1
    assert m["ask_input_accuracy"] == 0.5 and m["ask_input_accuracy_n"] == 2
    assert m["ask_input_accuracy@type:Ask"] == 0.0 and m["ask_input_accuracy@type:Clipboard"] == 1.0
    assert (
        m["api_selection_accuracy@(5,15]"] == pytest.approx(4 / 6, abs=1e-6)
        and m["api_selection_accuracy@(0,1]"] == 1.0
    )
    assert m["api_hallucination_rate"] == 1.0
    assert summary["model"] == "none" and summary["usage"]["model_calls"] == 0
    assert {t.task_id for t in traces} == {"shortcuts/tiny0001", "shortcuts/tiny0002"}


def test_mixtral_log_pinned_numbers(data_dir, run_shortcuts):
    """Hand-counted from the log: 56 scored actions, 9 right (1 + 4 + 1 + 3 per record); 4 previous-
    output parameters on right APIs, 1 right; no ask-input parameter on a right API. Lengths counted by
    hand on the printed action lists: 7, 28, 24, 15, so (5,15] holds 1/2 + 3/18 and (15,30] 4/15 + 1/21."""
    summary, _ = run_shortcuts(
        "replay", source=data_dir / "shortcutsbench" / "experiment_res_open-mixtral-8x7b.jsonl"
    )
    m = summary["metrics"]
    assert m["api_selection_accuracy_n"] == 56 and m["api_selection_accuracy"] == pytest.approx(
        9 / 56, abs=1e-6
    )
    assert m["api_selection_accuracy@(5,15]"] == pytest.approx(4 / 20, abs=1e-6)
    assert m["api_selection_accuracy@(15,30]"] == pytest.approx(5 / 36, abs=1e-6)
    assert m["api_selection_accuracy@Productivity & Utilities"] == pytest.approx(9 / 56, abs=1e-6)
    assert m["prev_output_param_accuracy"] == 0.25 and m["prev_output_param_accuracy_n"] == 4
    # upstream's definitions: 47 wrong actions, of which 7 json errors + 9 ids not offered = 16
    assert m["api_hallucination_rate"] == pytest.approx(16 / 47, abs=1e-6)
    assert m["api_hallucination_rate_among_picks"] == pytest.approx(
        9 / 40, abs=1e-6
    )  # the variant without json errors
    assert m["ask_input_accuracy_n"] == 0 and "ask_input_accuracy" not in m
    assert "static_param_accuracy" not in m  # unavailable without the check_intersection file


@pytest.mark.parametrize("log", LOGS, ids=[p.name for p in LOGS])
def test_every_log_replays_to_its_independent_counts(log, data_dir, run_shortcuts, tmp_path):
    records = read_log(log)
    (api_ok, api_n), (prev_ok, prev_n), (ask_ok, ask_n) = independent_counts(records)
    # the static metric on real data: treat every precomputed candidate as essential
    candidates = json.loads(
        (data_dir / "shortcutsbench" / "all_shortcuts_paras_that_is_necessary_in_query.json").read_text()
    )
    check = {
        r["URL"]: {
            "significant_paras": {
                pos: {p: {p: "Essential parameter"} for p in ps}
                for pos, ps in candidates.get(r["URL"], {}).items()
            }
        }
        for r in records
    }
    static = [0, 0]
    for rec in records:
        for pos, (gold, b) in enumerate(zip(rec["aseqs"], rec["bseqs"], strict=False)):
            pred = b["aseq"] if b["state"] == "generated_by_agent" and isinstance(b["aseq"], dict) else {}
            if (
                gold["WFWorkflowActionIdentifier"] in SKIP
                or pred.get("WFWorkflowActionIdentifier") != gold["WFWorkflowActionIdentifier"]
            ):
                continue
            for name in candidates.get(rec["URL"], {}).get(str(pos), {}):
                if name in gold["WFWorkflowActionParameters"]:
                    static[1] += 1
                    pp = pred.get("WFWorkflowActionParameters") or {}
                    static[0] += int(
                        name in pp and _spec_equal(gold["WFWorkflowActionParameters"][name], pp[name])
                    )
    check_path = tmp_path / "check.json"
    check_path.write_text(json.dumps(check))
    summary, _ = run_shortcuts("replay", source=log, check_intersection=check_path)
    m = summary["metrics"]
    for key, (ok, n) in {
        "api_selection_accuracy": (api_ok, api_n),
        "prev_output_param_accuracy": (prev_ok, prev_n),
        "ask_input_accuracy": (ask_ok, ask_n),
        "static_param_accuracy": tuple(static),
    }.items():
        assert m.get(f"{key}_n", 0) == n, key
        if n:
            assert m[key] == pytest.approx(ok / n, abs=1e-6), key
        else:
            assert key not in m, key


def test_cli_replay_reproduces_the_log(data_dir, tmp_path):
    log = data_dir / "shortcutsbench" / "experiment_res_open-mixtral-8x7b.jsonl"
    out = tmp_path / "cli"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "restgraph.evals.cli",
            "run",
            "shortcuts",
            "--agent",
            "replay",
            "--source",
            str(log),
            "--out",
            str(out),
            "--quiet",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert result.returncode == 0, result.stderr[-2000:]
    metrics = json.loads((out / "summary.json").read_text())["metrics"]
    assert (
        metrics["api_selection_accuracy"] == pytest.approx(9 / 56, abs=1e-6)
        and metrics["prev_output_param_accuracy"] == 0.25
    )


def _reference_positions(actions):
    """cal_shortcut_len's labelling re-derived from spec §4: (length, {index: pos}) of the top level."""

    def measure(seq, labels):
        total, i = 0, 0
        while i < len(seq):
            ident, params = seq[i]["WFWorkflowActionIdentifier"], seq[i]["WFWorkflowActionParameters"]
            if ident in BLOCKS:
                if params["WFControlFlowMode"] == 2:
                    i += 1
                    continue
                ends = [i] + [
                    j
                    for j in range(i + 1, len(seq))
                    if seq[j]["WFWorkflowActionParameters"].get("GroupingIdentifier")
                    == params["GroupingIdentifier"]
                ]
                ends = ends[
                    : next(
                        (
                            k + 1
                            for k, j in enumerate(ends)
                            if k and seq[j]["WFWorkflowActionParameters"]["WFControlFlowMode"] == 2
                        ),
                        len(ends),
                    )
                ]
                if len(ends) == 1:
                    i += 1
                    continue
                if labels is not None:
                    labels[i] = total + 1
                total += max(measure(seq[a + 1 : b], None) for a, b in zip(ends, ends[1:], strict=False))
                i = ends[-1] + 1
                continue
            if ident not in (P + "comment", P + "alert"):
                total += 1
                if labels is not None:
                    labels[i] = total
            i += 1
        return total

    labels = {}
    return measure(actions, labels), labels


BLOCKS = {P + n for n in ("conditional", "choosefrommenu", "repeat.count", "repeat.each")}


def test_mixtral_log_secondary_metrics_are_upstreams(data_dir, run_shortcuts, tmp_path):
    """evaluate_experiment's secondary outputs, recomputed here from the log: hallucination =
    wrong actions whose pick (None for json_error) is not offered / all wrong actions; mean relative
    position = sum of index/len(api_names) over offered wrong picks / all wrong actions; positions
    by level = top-level longest-branch positions (nested actions carry none)."""
    log = data_dir / "shortcutsbench" / "experiment_res_open-mixtral-8x7b.jsonl"
    wrong = hallucinated = 0
    rel = 0.0
    by_level: dict = {}
    for rec in read_log(log):
        length, labels = _reference_positions(rec["aseqs"])
        level = (
            "(1,5]"
            if 1 < length <= 5
            else "(5,15]"
            if 5 < length <= 15
            else "(15,30]"
            if 15 < length <= 30
            else None
        )
        for i, (gold, b) in enumerate(zip(rec["aseqs"], rec["bseqs"], strict=False)):
            if gold["WFWorkflowActionIdentifier"] in SKIP:
                continue
            pick = None if b["state"] == "json_error" else b["aseq"].get("WFWorkflowActionIdentifier")
            ok = pick == gold["WFWorkflowActionIdentifier"]
            if level and i in labels:
                cell = by_level.setdefault(level, {}).setdefault(labels[i], [0, 0])
                cell[0] += ok
                cell[1] += 1
            if ok:
                continue
            wrong += 1
            if pick in rec["api_names"]:
                rel += rec["api_names"].index(pick) / len(rec["api_names"])
            else:
                hallucinated += 1
    assert (hallucinated, wrong) == (16, 47)
    summary, _ = run_shortcuts("replay", source=log)
    m = summary["metrics"]
    assert m["api_hallucination_rate"] == pytest.approx(
        hallucinated / wrong, abs=1e-6
    )  # summary rounds to 6 places
    assert m["api_wrong_pick_mean_rel_position"] == pytest.approx(rel / wrong, abs=1e-6)
    assert round(m["api_wrong_pick_mean_rel_position"], 3) == 0.335  # the upstream figure
    assert m["api_wrong_pick_mean_rel_position_among_offered"] == pytest.approx(
        rel / (wrong - hallucinated), abs=1e-6
    )
    per_level = position_counts(load_scores(tmp_path / "run0")[1])
    assert {
        level: {k: list(v) for k, v in per.items()} for level, per in per_level.items() if per
    } == by_level
    # hand count: records of length 7 (positions 5, 7) and 15 (2, 3, 4, 5) are in (5,15]; the one of
    # length 24 has no top-level scored action; 12 of the 56 scored actions carry a position
    assert by_level["(5,15]"] == {2: [0, 1], 3: [1, 1], 4: [0, 1], 5: [0, 2], 7: [1, 1]}
    assert sum(n for per in by_level.values() for _, n in per.values()) == 12
