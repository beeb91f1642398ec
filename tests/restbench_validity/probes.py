"""How the probe tables become test cases: rows of ``(scenario, query, answer)`` grouped by family,
each asked of the answer checker.

Why: the trap, format, focus and per-round probe files each hold tables of answers written for no
suite, one family a key; they share how a family becomes cases (ids ``family-i``, so a failure names
its family) and what a failure says (the query, the checker's reason, the answer)."""

from __future__ import annotations

from typing import Any

import pytest

from restgraph.evals.scorers.answer_keys import verdict

#: the argument names every probe test takes
ARGS = ("scenario", "query", "answer")


def cases(families: dict[str, list[tuple[str, int, str]]]) -> list[Any]:
    """Every row of every family as a ``pytest.param`` named ``family-i``."""
    return [
        pytest.param(*row, id=f"{family}-{i}")
        for family, rows in families.items()
        for i, row in enumerate(rows)
    ]


def assert_fails(scenario: str, query: int, answer: str) -> None:
    ok, reason = verdict(scenario, query, answer)
    assert not ok, f"{scenario}/{query} passed ({reason}): {answer!r}"


def assert_passes(scenario: str, query: int, answer: str) -> None:
    ok, reason = verdict(scenario, query, answer)
    assert ok, f"{scenario}/{query} failed ({reason}): {answer!r}"
