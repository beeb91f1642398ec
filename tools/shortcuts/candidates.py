"""Candidate APIs for one query (spec §2.2), seeded and reproducible.

Upstream draws ``m = randint(3, 5)`` and ``n_extra = max(min(k*m, 20-k), 0)`` extras from the
set of all APIs minus the gold ones, with an unseeded generator over a set (so the draw also
depends on ``PYTHONHASHSEED``). Here every query gets its own ``random.Random`` seeded from
``sha256(f"{run_seed}:{URL}")`` and draws from the *sorted* pool, so a candidate set depends
only on the run seed and the query, never on query order or the interpreter.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from restgraph.tools.shortcuts.protocol import (
    FILTER_IDS,
    IGNORE_IDS,
    MAX_CANDIDATES,
    MISSING_DESCRIPTION,
    action_id,
)


def gold_api_set(actions: Iterable[Any]) -> list[str]:
    """G: the sorted set of gold identifiers outside the filter and ignore lists."""
    ids = {action_id(a) for a in actions}
    return sorted(i for i in ids if i is not None and i not in FILTER_IDS and i not in IGNORE_IDS)


def query_seed(run_seed: int, url: str) -> int:
    return int(hashlib.sha256(f"{run_seed}:{url}".encode()).hexdigest(), 16)


def n_extra(k: int, m: int, limit: int = MAX_CANDIDATES) -> int:
    return max(min(k * m, limit - k), 0)


def sample_candidates(gold: Sequence[str], all_ids: Iterable[str], *, run_seed: int, url: str) -> list[str]:
    """``sorted(G) + extras`` in the logged order (gold first); the prompt shows them sorted by id."""
    rng = random.Random(query_seed(run_seed, url))
    gold_sorted = sorted(set(gold))
    m = rng.randint(3, 5)
    pool = sorted(set(all_ids) - set(gold_sorted))
    extras = rng.sample(pool, min(n_extra(len(gold_sorted), m), len(pool)))
    return gold_sorted + extras


def candidate_table(api_names: Iterable[str], api2info: Mapping[str, str]) -> dict[str, str]:
    """``{id: text}`` sorted by id, as shown to the model; unknown ids get the upstream placeholder."""
    return {api: api2info.get(api, MISSING_DESCRIPTION) for api in sorted(set(api_names))}


def candidate_lines(table: Mapping[str, str]) -> str:
    """The numbered listing of the system prompt: ``"{i}. {id}. {text}"``, 1-based, newline-joined."""
    return "\n".join(f"{i}. {api}. {text}" for i, (api, text) in enumerate(table.items(), start=1))
