"""Scoring as published: the official scorer gets the raw final answer; answer rewriting is the
``normalize_answers`` benchmark option; exact match as the paper defines it; a split without gold
answers says so instead of reporting 0.0."""

from __future__ import annotations

import pytest

from restgraph.evals.benchmark import get_benchmark
from restgraph.evals.scorers import assistantbench as ab_scorer
from restgraph.evals.scorers.assistantbench import aggregate, exact_match, exact_match_raw, score
from restgraph.evals.scorers.assistantbench_normalize import format_answer
from restgraph.evals.trace import Task, Trace
from restgraph.tools.options import OptionError


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Final answer: 1,010,000", "1010000"),  # would score 0 raw (comma quirk)
        ("55 dollars", "55"),  # would score 0 raw
        ("$72.50", "72.50"),
        ("The answer is 45", "45"),
        ("[45]", "45"),  # would crash the official scorer (tuple bug)
        ("CrossFit East River\nAvea Pilates", '["CrossFit East River", "Avea Pilates"]'),  # 0.375 raw
        ("- a\n- b", '["a", "b"]'),
        ("{'price': 41.75}", '{"price": 41.75}'),  # single quotes would score 0
        ('{"a": 1}\n{"a": 2}', '[{"a": 1}, {"a": 2}]'),
        ("null", ""),  # would crash
        ("I don't know.", ""),
        (None, ""),
        ('"Clara Voss"', "Clara Voss"),
        ("3 Idiots", "3 Idiots"),  # a title that starts with a number stays a string
        ("22:40", "22:40"),
        ("```json\n[1, 2]\n```", '["1", "2"]'),  # number spans would crash the string scorer
    ],
)
def test_format_answer(raw, expected):
    assert format_answer(raw) == expected


def test_formatting_turns_quirky_answers_into_full_scores():
    assert score("1,010,000", "1010000")[0] == 0.0
    assert score(format_answer("1,010,000"), "1010000")[0] == 1.0
    assert (
        score(format_answer("CrossFit East River\nAvea Pilates"), "CrossFit East River\nAvea Pilates")[0]
        == 1.0
    )


# (raw answer, gold): answers a model plausibly writes, in every gold kind
CASES = [
    ("1,010,000", "1010000"),
    ("1010000", "1010000"),
    ("$72.50", "72.50"),
    ("55 dollars", "$55"),
    ("The answer is 45", "45"),
    ("CrossFit East River\nAvea Pilates", "CrossFit East River\nAvea Pilates"),
    ('["Avea Pilates", "Core & Reformer"]', "Avea Pilates\nCore & Reformer"),
    ("- Route 7\n- Route 15", "Route 7\nRoute 15\nRoute 22"),
    ("unknown", "Clara Voss"),
    ("N/A", "45"),
    ("Clara Voss", "Clara Voss"),
    ("{'price': 41.75}", '{"price": 41.75}'),
    ('{"price": 612000, "sqft": 2850}', '{"price": 612000, "sqft": 2850}'),
    ("", "45"),
]


def _trace(answer: str | None, gold: str | None, **bench_options) -> Trace:
    task = Task(id="t", benchmark="assistantbench-local", instruction="q", gold={"answer": gold})
    return Trace(
        task_id="t",
        task=task,
        benchmark="assistantbench-local",
        agent="browser",
        model="m",
        final_answer=answer,
        config={"bench_options": bench_options},
    )


def test_the_official_scorer_receives_the_raw_answer_by_default(monkeypatch):
    seen: list[object] = []
    real = ab_scorer.score_answer

    def spy(prediction, gold, **kwargs):
        seen.append(prediction)
        return real(prediction, gold, **kwargs)

    monkeypatch.setattr("restgraph.evals.benchmarks.assistantbench.score_answer", spy)
    bench = get_benchmark("assistantbench-local")
    assert (
        bench.score_episode(_trace("1,010,000", "1010000"))["score"] == 0.0
    )  # the comma quirk, as published
    assert bench.score_episode(_trace("1,010,000", "1010000", normalize_answers=True))["score"] == 1.0
    assert seen == ["1,010,000", "1010000"]


@pytest.mark.parametrize(("answer", "gold"), CASES)
def test_the_option_changes_scores_only_when_enabled(answer, gold):
    bench = get_benchmark("assistantbench-local")
    default = bench.score_episode(_trace(answer, gold))
    assert (default["score"], default["has_ans"]) == score(
        answer, gold
    )  # exactly the official scorer on the raw text
    assert bench.score_episode(_trace(answer, gold, normalize_answers=False)) == default
    normalized = bench.score_episode(_trace(answer, gold, normalize_answers=True))
    assert (normalized["score"], normalized["has_ans"]) == score(format_answer(answer), gold)


def test_the_option_does_change_scores_on_this_sample():
    bench = get_benchmark("assistantbench-local")
    changed = [
        (a, g)
        for a, g in CASES
        if bench.score_episode(_trace(a, g)) != bench.score_episode(_trace(a, g, normalize_answers=True))
    ]
    assert len(changed) >= 5  # commas, units, bullet lists, abstentions, Python dicts


def test_the_option_is_typed_and_recorded():
    bench = get_benchmark("assistantbench-local")
    assert bench.options_model.model_validate({"normalize_answers": "1"}).normalize_answers is True
    assert bench.options_model.model_validate({}).normalize_answers is False
    with pytest.raises((OptionError, ValueError)):
        bench.options_model.model_validate({"normalize_answers": "perhaps"})
    assert bench.recorded_opts(_trace("x", "x", normalize_answers=True)).normalize_answers is True


@pytest.mark.parametrize(
    ("answer", "gold", "expected"),
    [
        ("72.5", "72.50", True),  # the gold's trailing zero: HAL's raw equality never matches it
        ("14.2", "14.20%", True),
        ("1,010,000", "1010000", False),  # the scorer cannot read it as the number
        ("72.6", "72.50", False),
        ('["Route 15", "Route 7"]', "Route 7\nRoute 15", True),  # a list gold, any order
        ('["Route 7"]', "Route 7\nRoute 15", False),
        ("Route 7\nRoute 15", "Route 7\nRoute 15", True),  # raw equality counts too
        ("clara voss", "Clara Voss", False),  # no word-level leniency (its F1 score is 1.0)
        (" Clara Voss ", "Clara Voss", True),
        ('{"price": "$41.75", "sqft": 900}', '{"price": 41.75, "sqft": 900}', True),
        ('[{"t": "b", "p": 2}, {"t": "a", "p": 1}]', '{"t": "a", "p": 1}\n{"t": "b", "p": 2}', True),
        ('{"t": "a", "p": 1}', '{"t": "a", "p": 1}\n{"t": "b", "p": 2}', False),
        ("", "45", False),
        (None, "45", False),
    ],
)
def test_exact_match_as_the_paper_defines_it(answer, gold, expected):
    assert exact_match(answer, gold) is expected
    assert not exact_match_raw(answer, gold) or exact_match(answer, gold)  # raw equality implies EM


def test_exact_match_is_recorded_beside_hal_raw_equality():
    row = get_benchmark("assistantbench-local").score_episode(_trace('["a", "b"]', "a\nb"))
    assert row["exact_match"] is True and row["exact_match_raw"] is False and row["score"] == 1.0


def test_a_split_without_gold_reports_gold_unavailable_never_zero():
    rows = [
        {"has_ans": 1.0, "gold_available": False},
        {"has_ans": 0.0, "gold_available": False},
        {"has_ans": 1.0, "gold_available": False},
    ]
    metrics = aggregate(rows, n_tasks=3)
    assert metrics == {"answer_rate": pytest.approx(2 / 3), "gold_available": 0.0, "gold_unavailable": 3.0}
    assert "accuracy" not in metrics and "precision" not in metrics and "exact_match" not in metrics


def test_a_mixed_split_is_scored_on_the_tasks_with_gold():
    rows = [
        {"score": 1.0, "has_ans": 1.0, "exact_match": True},
        {"score": 0.0, "has_ans": 0.0},
        {"has_ans": 1.0, "gold_available": False},
    ]
    metrics = aggregate(rows, n_tasks=3)
    assert metrics["accuracy"] == 0.5 and metrics["answer_rate"] == 0.5 and metrics["exact_match"] == 0.5
    assert (metrics["gold_available"], metrics["gold_unavailable"]) == (2.0, 1.0)
