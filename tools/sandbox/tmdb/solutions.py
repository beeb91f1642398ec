"""All 100 reference solutions, keyed by 1-based RestBench TMDB query index, and the task gold."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from restgraph.tools.derived_cache import cached_json, files_key
from restgraph.tools.sandbox.tmdb.db import FixtureDB, get_db
from restgraph.tools.sandbox.tmdb.reference import Solution, replay
from restgraph.tools.sandbox.tmdb.solutions_a import S as _A
from restgraph.tools.sandbox.tmdb.solutions_b import S as _B
from restgraph.tools.sandbox.tmdb.template import templated

SOLUTIONS: dict[int, Solution] = {**_A, **_B}


def all_reference_golds() -> dict[int, dict[str, Any]]:
    """``reference_gold`` of every query, computed once per machine and sandbox version.

    Replaying all 100 reference solutions against the padded world cost ~0.5 s of CPU before the
    first episode of every TMDB run (a 14-cell Table 4 sweep paid it 14 times). The results are JSON
    (equal after a round trip) and cached under the user cache, keyed by the bytes of every source and
    fixture file of the TMDB sandbox, so any edit there recomputes them.
    ``RESTGRAPH_TMDB_GOLD_CACHE=0`` disables the cache.
    """
    golds = cached_json(
        "tmdb-reference-gold",
        _sandbox_key(),
        lambda: {str(index): reference_gold(index) for index in sorted(SOLUTIONS)},
        enabled=os.environ.get("RESTGRAPH_TMDB_GOLD_CACHE", "1") != "0",
    )
    return {int(index): gold for index, gold in golds.items()}


def _sandbox_key() -> str:
    root = Path(__file__).parent
    return files_key(
        sorted([*root.rglob("*.py"), *root.rglob("*.json")]), label=lambda p: str(p.relative_to(root))
    )


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
