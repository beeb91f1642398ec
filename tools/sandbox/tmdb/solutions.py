"""All 100 reference solutions, keyed by 1-based RestBench TMDB query index, and the task gold."""

from __future__ import annotations

from typing import Any

from restgraph.tools.sandbox.tmdb.db import FixtureDB, get_db
from restgraph.tools.sandbox.tmdb.reference import Solution, replay
from restgraph.tools.sandbox.tmdb.solutions_a import S as _A
from restgraph.tools.sandbox.tmdb.solutions_b import S as _B
from restgraph.tools.sandbox.tmdb.template import templated

SOLUTIONS: dict[int, Solution] = {**_A, **_B}


def reference_gold(index: int, db: FixtureDB | None = None) -> dict[str, Any]:
    """``reference_calls``, ``reference_answer`` (recomputed from the sandbox), ``criterion``, and ``reference_template``:
    the same calls and answer as ``${N.a.b}`` templates (``template``: where each id and quoted value comes from;
    ``restgraph.tools.placeholders.substitute`` with the responses gives the concrete ones back)."""
    db = db or get_db()
    sol = SOLUTIONS[index]
    responses = replay(db, sol.calls)
    answer = sol.answer(responses)
    calls, template = templated(sol.calls, responses, answer)
    return {
        "reference_calls": sol.calls,
        "reference_answer": answer,
        "criterion": sol.criterion(db),
        "reference_template": {"calls": calls, "answer": template},
    }
