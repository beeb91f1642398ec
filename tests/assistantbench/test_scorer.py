"""The AssistantBench scorer against hand-computed cases: every answer type and every quirk in the spec.

Expected values are worked out by hand from docs/assistantbench.md §2 (the arithmetic is in the
comments), never produced by running the scorer.
"""

from __future__ import annotations

import math

import pytest

from restgraph.evals.scorers.assistantbench import (
    aggregate,
    exact_match,
    exact_match_raw,
    independent_has_answer,
    score,
    score_answer,
)
from restgraph.evals.scorers.assistantbench_official import (
    fix_ans,
    fix_number,
    normalize_span,
    parse_gold,
    question_scorer,
)

LN2 = math.log(2)
CROSSFIT = "CrossFit East River\nAvea Pilates"

# (prediction, gold, score, has_ans) — the quirk table of spec §4, non-crashing rows
QUIRKS = [
    ("1,010,000", "1010000", 0.0, 1.0),  # commas -> dots, float("1.010.000") fails
    ("14,2", "14.20%", 1.0, 1.0),  # 14,2 -> 14.2; 14.20% -> 14.2
    ("55 dollars", "$55", 0.0, 1.0),
    ("The answer is 45", "45", 0.0, 1.0),
    ("27.2", "10", 0.0, 1.0),  # ln(2.72) > 1
    ("-5", "5", 0.0, 1.0),  # log of a negative ratio is NaN; max(0, NaN) == 0
    ("4.5e1", "45", 1.0, 1.0),
    # raw text is one span: bag {crossfit,east,river,avea,pilates}; vs row 1: P=3/5 R=1 F1=.75;
    # only one prediction column, so the vector [0.75, 0] has mean 0.375
    (CROSSFIT, CROSSFIT, (2 * 0.6 / 1.6) / 2, 1.0),
    ('["CrossFit East River","Avea Pilates"]', CROSSFIT, 1.0, 1.0),
    ('["CrossFit East River"]', CROSSFIT, 0.5, 1.0),
    # gold bag {glass,onion,knives,out,mystery}; pred {knives,out}: P=1 R=2/5 F1=0.8/1.4
    ("Knives Out", "Glass Onion: A Knives Out Mystery", 0.8 / 1.4, 1.0),
    # gold "a" normalises to the empty bag; pred bags {} and {b}: F1 1 and 0, mean over max(1,2)
    ('["a","b"]', "a", 0.5, 1.0),
    ("[1,2]", "a\nb", 0.0, 1.0),  # a non-string span raises inside the string scorer -> 0
    ('{"price": "$41.75"}', '{"price": 41.75}', 1.0, 1.0),
    ("{'a': 'b'}", '{"a": "b"}', 0.0, 1.0),  # single quotes: not JSON, not a dict
    ("1\n2", "1\n2", 0.0, 1.0),  # all-numeric gold lines are "json"; numbers are not dicts
    ("[1, 2]", "1\n2", 0.0, 1.0),
    ("", "anything", 0.0, 0.0),
    ("nan", "5", 0.0, 0.0),
]

CRASHES = [
    ("[45]", "45", TypeError),  # the tuple bug
    ('["45"]', "45", TypeError),
    ('["45.5"]', "45.5", TypeError),  # float(list)
    ("[45.5]", "45.5", TypeError),
    (None, "x", TypeError),  # len(None)
    ("null", "x", TypeError),
    ("true", "x", TypeError),  # len(bool)
    ("false", "x", TypeError),
    ("{}", '{"a": 1}', ValueError),  # NaN in the assignment matrix
]


@pytest.mark.parametrize(("prediction", "gold", "expected", "has_ans"), QUIRKS)
def test_quirk_table(prediction, gold, expected, has_ans):
    value, answered = question_scorer(prediction, gold)
    assert value == pytest.approx(expected, abs=1e-12)
    assert answered == has_ans
    # the wrapper and the fixed mode leave every non-crashing score untouched
    assert score(prediction, gold) == (value, answered)
    assert score(prediction, gold, fixed=True) == (value, answered)


@pytest.mark.parametrize(("prediction", "gold", "error"), CRASHES)
def test_official_crashes_are_reproduced(prediction, gold, error):
    with pytest.raises(error):
        question_scorer(prediction, gold)


@pytest.mark.parametrize(("prediction", "gold", "_error"), CRASHES)
def test_wrapper_turns_crashes_into_recorded_zeros(prediction, gold, _error):
    if prediction is None:  # the wrapper turns None into "" before scoring (spec §4): no crash at all
        assert score_answer(None, gold).model_dump() == {"score": 0.0, "has_ans": 0.0, "error": None}
        return
    result = score_answer(prediction, gold)
    assert result.score == 0.0
    assert result.error and result.error.startswith(_error.__name__)
    assert score_answer(prediction, gold, hal_compat=True).has_ans == 0.0


def test_wrapper_has_ans_is_independent_on_crash():
    assert score("[45]", "45") == (0.0, 1.0)
    assert score(None, "x") == (0.0, 0.0)
    assert score("null", "x") == (0.0, 0.0)
    assert score("true", "x") == (0.0, 1.0)
    assert score("{}", '{"a": 1}') == (0.0, 0.0)
    assert score("[45]", "45", hal_compat=True) == (0.0, 0.0)


def test_fixed_mode_repairs_crashes():
    assert score_answer("[45]", "45", fixed=True).model_dump() == {
        "score": 1.0,
        "has_ans": 1.0,
        "error": None,
    }
    assert score("[45.5]", "45.5", fixed=True) == (1.0, 1.0)
    assert score('["45"]', "50", fixed=True) == pytest.approx((1 - math.log(50 / 45), 1.0))
    assert score("true", "true story", fixed=True) == (
        pytest.approx(2 * 0.5 / 1.5),
        1.0,
    )  # {true} vs {true,story}
    assert score("null", "x", fixed=True) == (0.0, 0.0)
    assert score_answer("{}", '{"a": 1}', fixed=True).error is None


# -- numbers ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("prediction", "gold", "expected"),
    [
        ("20", "10", 1 - LN2),  # natural log, not log10
        ("10", "20", 1 - LN2),
        ("5", "$5.00", 1.0),
        ("0", "0", 1.0),
        ("0", "5", 0.0),  # 0 -> 1e-4, ln(5e4) > 1
        ("12", "12 square kilometers", 1.0),
        ("1500", "1,500 sqft", 0.0),  # gold becomes 1.5: comma quirk on the gold side too
        ("1_000", "1000", 1.0),  # float() accepts digit underscores
        ("45", "44", 1 - math.log(45 / 44)),
    ],
)
def test_numbers(prediction, gold, expected):
    assert question_scorer(prediction, gold) == (pytest.approx(expected, abs=1e-12), 1.0)


# -- strings and string lists -------------------------------------------------------------------------
def test_span_normalisation():
    assert normalize_span("The Eiffel-Tower, Paris") == "eiffel tower paris"
    assert normalize_span("Route 45") == "route 45.0"
    assert normalize_span("$41.75") == "4175.0"  # "$41.75" is not a float: punctuation goes, then "4175" is
    # newlines do not split: one token "a\nb"; \ba\b still matches the article -> " \nb" -> "b"
    assert normalize_span("a\nb") == "b"


@pytest.mark.parametrize(
    ("prediction", "gold", "expected"),
    [
        ("the Eiffel Tower", "Eiffel Tower", 1.0),
        ("Route 7", "Route 9", 0.0),  # numeric gate: gold number 9.0 absent from the prediction
        ("Route 9 bus", "Route 9", 2 * (2 / 3) / (1 + 2 / 3)),  # P=2/3 R=1
        ("route 45.0", "Route 45", 1.0),  # numbers normalise to str(float)
        ('["a b", "c", "d"]', "a b\nc", 2 / 3),  # an extra item lowers the mean: (1 + 1 + 0) / 3
        ('["c", "a b"]', "a b\nc", 1.0),  # one-to-one alignment ignores order
        ('["", ""]', "a b\nc", 0.0),
    ],
)
def test_strings(prediction, gold, expected):
    assert question_scorer(prediction, gold)[0] == pytest.approx(expected, abs=1e-12)


def test_all_blank_list_has_no_answer():
    assert question_scorer('["", ""]', "a b\nc") == (0.0, 0.0)


# -- dicts ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("prediction", "gold", "expected"),
    [
        ('{"price": 10, "sqft": 1000}', '{"price": 10, "sqft": 2000}', (1 + 1 - LN2) / 2),  # P == R
        ('{"a": "x", "b": "y"}', '{"a": "x"}', 2 * 0.5 / 1.5),  # R=1, P=(1+0)/2
        ('{"a": "b"}', "{'a': 'b'}", 1.0),  # fix_ans rewrites single-quoted gold
        ('{"n": "abc"}', '{"n": 5}', 0.0),  # str vs float: type mismatch
        ('[{"n": "y"}]', '{"n": "x"}\n{"n": "y"}', 0.5),  # one of two gold dicts
        ('{"n": "y"}\n{"n": "x"}', '{"n": "x"}\n{"n": "y"}', 1.0),  # one JSON object per line
        ('{"ok": true}', '{"ok": true}', 1.0),  # bool values use the string scorer
        ('"just text"', '{"n": 1}', 0.0),
    ],
)
def test_dicts(prediction, gold, expected):
    assert question_scorer(prediction, gold) == (pytest.approx(expected, abs=1e-12), 1.0)


def test_dict_gold_with_unsupported_value_type_crashes_then_is_caught():
    with pytest.raises(KeyError):
        question_scorer('{"a": {"b": 1}}', '{"a": {"b": 1}}')
    assert score_answer('{"a": {"b": 1}}', '{"a": {"b": 1}}').error.startswith("KeyError")


# -- parsing helpers --------------------------------------------------------------------------------
def test_gold_classification():
    assert parse_gold("$55") == (55.0, "number")
    assert parse_gold("Paris") == ("Paris", "string")
    assert parse_gold("a\n\n  \nb") == (["a", "b"], "string list")
    assert parse_gold('{"a": 1}') == ([{"a": 1}], "json")
    assert parse_gold("1\n2") == ([1, 2], "json")
    assert fix_number("1,5") == (1.5, True)
    assert fix_number(3) == (3.0, True)
    assert fix_number(True) == (True, True)
    assert fix_number("abc") == ("abc", False)
    assert fix_ans("{'a': 'b', 'c': 1}") == '{"a": "b", "c": 1}'


def test_independent_has_answer():
    assert [
        independent_has_answer(x) for x in (None, "", "  ", "null", "[]", '["", " "]', "NaN", "0", "x")
    ] == [0, 0, 0, 0, 0, 0, 0, 1, 1]


# -- aggregation ------------------------------------------------------------------------------------
def test_aggregate_over_all_tasks():
    rows = [
        {"score": 1.0, "has_ans": 1.0, "exact_match": True},
        {"score": 0.5, "has_ans": 1.0, "exact_match": False},
        {"score": 0.0, "has_ans": 0.0, "exact_match": False, "scorer_error": "TypeError: x"},
    ]
    metrics = aggregate(rows, n_tasks=4)  # the fourth task has no trace: it counts 0
    assert metrics["accuracy"] == 1.5 / 4
    assert metrics["answer_rate"] == 2 / 4
    assert metrics["precision"] == 1.5 / 2
    assert metrics["exact_match"] == 1 / 4
    assert metrics["full_score_rate"] == 1 / 4
    assert metrics["scorer_errors"] == 1
    assert aggregate([{"score": 0.0, "has_ans": 0.0}])["precision"] == 0.0


def test_hal_exact_match_is_raw_equality():
    assert exact_match_raw("45", "45")
    assert not exact_match_raw("45.0", "45")
    assert exact_match("45.0", "45")  # the paper's EM reads the number, as the scorer does
    assert not exact_match_raw(None, "45")
