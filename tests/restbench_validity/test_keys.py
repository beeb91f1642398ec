"""The answer keys: readable data, one per query, consistent with the sandbox the reference
answers are recomputed from (so a fixture change that moves a fact shows up here)."""

from __future__ import annotations

import pytest
import yaml

from restgraph.evals.scorers.answer_keys import KEYS_DIR, AnswerKey, Requirement, judge, load_keys, verdict
from restgraph.evals.scorers.spotify_predicates import READ_ONLY


def test_one_key_per_tmdb_query_and_per_answer_read_spotify_query():
    assert sorted(load_keys("tmdb")) == list(range(1, 101))
    assert sorted(load_keys("spotify")) == sorted(READ_ONLY)


def test_every_key_states_what_is_asked_and_its_type():
    for scenario in ("tmdb", "spotify"):
        for qid, key in load_keys(scenario).items():
            assert key.asks and key.describe().startswith(key.asks), (scenario, qid)


def test_a_requirement_states_exactly_one_thing():
    with pytest.raises(ValueError, match="exactly one"):
        Requirement(one_of=["A"], number=3)
    with pytest.raises(ValueError, match="loser"):
        Requirement(winner="A")
    with pytest.raises(ValueError):
        Requirement(one_of=["A"], colour="red")  # extra fields are refused


def test_the_catalogue_is_literal_so_later_padding_names_are_not_distractors():
    raw = yaml.safe_load((KEYS_DIR / "tmdb.yaml").read_text(encoding="utf-8"))
    assert {"movies", "shows", "people"} <= set(raw["catalogue"])
    key = AnswerKey(asks="the director", require=[Requirement(one_of=["Jane Roe"], kind="person")])
    assert judge(key, "Jane Roe, Padding Person 4711, Padding Person 4712")[0], (
        "an unknown name next to the answer is not a known candidate"
    )


def test_every_tmdb_reference_answer_meets_its_key(data_dir):
    from restgraph.tools.sandbox.tmdb.solutions import reference_gold

    failed = {q: verdict("tmdb", q, reference_gold(q)["reference_answer"]) for q in range(1, 101)}
    assert not {q: r for q, r in failed.items() if not r[0]}


@pytest.mark.parametrize("shift", [1, 2, 3, 7, 50])
def test_another_querys_reference_answer_fails(data_dir, shift):
    from restgraph.tools.sandbox.tmdb.solutions import reference_gold

    answers = {q: reference_gold(q)["reference_answer"] for q in range(1, 101)}
    passed = [q for q in range(1, 101) if verdict("tmdb", q, answers[(q - 1 + shift) % 100 + 1])[0]]
    assert len(passed) <= 3, passed  # a few queries share a fact (47/48, 56/62, 50/73)
