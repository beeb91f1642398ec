"""``answer_keys.verdict`` judges an answer once per key: a run scores each episode at its end and
again in its summary, and epochs of a deterministic model repeat answers."""

from __future__ import annotations

import pytest

from restgraph.evals.scorers import answer_keys


def test_a_repeated_answer_is_judged_once_and_gets_the_same_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str | None] = []
    judge = answer_keys.judge

    def counting(key: answer_keys.AnswerKey, answer: str | None) -> tuple[bool, str]:
        calls.append(answer)
        return judge(key, answer)

    monkeypatch.setattr(answer_keys, "judge", counting)
    right = "The lead actor of The Dark Knight is Christian Bale. (memo test)"
    wrong = "The lead actor of The Dark Knight is Heath Ledger. (memo test)"
    first = [answer_keys.verdict("tmdb", 2, a) for a in (right, wrong, right, wrong)]
    assert [ok for ok, _ in first] == [True, False, True, False]
    assert calls == [right, wrong]
    # another key judges the same text itself: the memo is per key
    answer_keys.verdict("tmdb", 15, right)
    assert calls == [right, wrong, right]


def test_the_memo_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(answer_keys, "VERDICTS_PER_KEY", 3)
    key = answer_keys.load_keys("tmdb")[15]
    key._verdicts.clear()
    for i in range(10):
        answer_keys.verdict("tmdb", 15, f"Catherine Hardwicke directed Twilight ({i}).")
    assert len(key._verdicts) == 3
