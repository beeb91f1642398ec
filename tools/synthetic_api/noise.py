"""The random and string operations behind the prompt dials: derangement, interspersing, renaming.

Faithful variants reproduce upstream's behaviour, bugs included (B1 derangement that only checks
the first position, B2 cascading substring renames); the ``true``/``simultaneous`` variants are
what ``fixed`` mode uses. Every draw goes through the caller's private ``random.Random`` so the
global RNG is never touched.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

#: a derangement is retried at most this often (upstream looped forever, B15)
MAX_DERANGE_TRIES = 10_000


def require(condition: bool, message: str) -> None:
    """Upstream's ``assert`` checks, kept as ``AssertionError`` but immune to ``python -O``."""
    if not condition:
        raise AssertionError(message)


def derange(items: Sequence[T], rng: random.Random, *, true_derangement: bool = False) -> list[T]:
    """Shuffle until no element stays in place.

    Faithful (B1): upstream's misplaced for/else only compared the first position, so other fixed
    points survive. Upstream shuffles *one* copy in place again and again until its first item
    differs from the original's, so each retry starts from the previous shuffle, not from the
    original order; that is reproduced here because it decides which permutation a seed yields.
    Upstream looped forever when every entry equals the first (B15); here that raises
    ``ValueError`` instead. A one-element list comes back unchanged without a draw.
    """
    items = list(items)
    if len(items) == 1:
        return items
    if true_derangement and any(items.count(x) > len(items) // 2 for x in items):
        raise ValueError(f"no derangement exists: one value fills more than half of {items!r}")
    if not true_derangement and all(x == items[0] for x in items):
        raise ValueError(f"cannot derange {items!r}: every entry equals the first (upstream loops forever)")
    shuffled = list(items)
    for _ in range(MAX_DERANGE_TRIES):
        rng.shuffle(shuffled)
        if true_derangement:
            if all(a != b for a, b in zip(items, shuffled, strict=True)):
                return shuffled
        elif shuffled[0] != items[0]:
            return shuffled
    raise ValueError(f"no derangement found in {MAX_DERANGE_TRIES} shuffles of {items!r}")


def intersperse(targets: Sequence[T], distractors: Sequence[T]) -> list[T]:
    """Spread targets evenly: ``D[0:b], T[0], D[b:2b], T[1], ...``, then the rest of D."""
    if not distractors:
        return list(targets)
    n = len(targets) + 1
    block = max(len(distractors) // n, 1)
    out: list[T] = []
    for i, target in enumerate(targets):
        out.extend(distractors[i * block : (i + 1) * block])
        out.append(target)
    out.extend(distractors[(n - 1) * block :])
    return out


def rename(text: str, mapping: dict[str, str], *, simultaneous: bool = False) -> str:
    """Apply an old-name -> new-name map.

    Faithful (B2): sequential plain substring replacement, so renames cascade
    (``volume_of_cone -> surface_area_of_prism -> surface_area_of_cone``). ``simultaneous`` replaces
    whole identifiers in one pass."""
    if not mapping:
        return text
    if simultaneous:
        pattern = re.compile(
            r"\b(" + "|".join(re.escape(k) for k in sorted(mapping, key=len, reverse=True)) + r")\b"
        )
        return pattern.sub(lambda m: mapping[m.group(1)], text)
    for old, new in mapping.items():
        text = text.replace(old, new)
    return text


def apportion(total: int, weights: Sequence[int], *, largest_remainder: bool = False) -> list[int]:
    """Split ``total`` distractors over libraries by call count.

    Faithful (B8): each library gets ``total * calls // all_calls`` (floored), so the parts may not
    add up. ``largest_remainder`` hands the leftover to the largest fractional parts (ties: first)."""
    whole = sum(weights)
    if whole <= 0:
        return [0 for _ in weights]
    floors = [total * w // whole for w in weights]
    if not largest_remainder:
        return floors
    left = total - sum(floors)
    order = sorted(range(len(weights)), key=lambda i: (-((total * weights[i]) % whole), i))
    for i in order[:left]:
        floors[i] += 1
    return floors
