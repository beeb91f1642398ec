"""All 100 reference solutions, keyed by 1-based RestBench TMDB query index, and the task gold."""

from __future__ import annotations

from typing import Any

from tools.sandbox.tmdb.db import FixtureDB, get_db
from tools.sandbox.tmdb.reference import Solution, replay
from tools.sandbox.tmdb.solutions_a import S as _A
from tools.sandbox.tmdb.solutions_b import S as _B

SOLUTIONS: dict[int, Solution] = {**_A, **_B}


def reference_gold(index: int, db: FixtureDB | None = None) -> dict[str, Any]:
    """``reference_calls``, ``reference_answer`` (recomputed from the sandbox) and ``criterion`` of one query."""
    db = db or get_db()
    sol = SOLUTIONS[index]
    return {"reference_calls": sol.calls, "reference_answer": sol.answer(replay(db, sol.calls)), "criterion": sol.criterion(db)}
