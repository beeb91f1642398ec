"""The garbage collector's settings while a run is in progress.

Why: a run's process holds a large heap that lives as long as it does (LangChain, LangGraph and
pydantic build ~10^5 objects at import), and every episode allocates container objects at a high
rate. With the default thresholds the collector ran ~400 young and a few full collections per
1,000 one-call episodes, 10-15% of the run's CPU time: full ones walk the imported heap, young ones
the many objects of the episodes in flight. During a run (``tuned_collector``):

- what exists when the run starts is frozen (``gc.freeze``): collections no longer walk it;
- young collections start at ``YOUNG_THRESHOLD`` allocations instead of 700 (cycles are still
  found, a little later; an episode's garbage is mostly freed by reference counting anyway).

Both are undone when the last run in the process ends (a notebook gets its settings back).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

YOUNG_THRESHOLD = 10_000

_active = 0
_saved: tuple[int, int, int] = gc.get_threshold()


@contextmanager
def tuned_collector() -> Iterator[None]:
    """Freeze the pre-run heap and collect young objects less often, for the duration of a run
    (nested or concurrent runs share one setting; the last to end restores the old one)."""
    global _active, _saved
    if _active == 0:
        _saved = gc.get_threshold()
        gc.freeze()
        gc.set_threshold(max(_saved[0], YOUNG_THRESHOLD), _saved[1], _saved[2])
    _active += 1
    try:
        yield
    finally:
        _active -= 1
        if _active == 0:
            gc.set_threshold(*_saved)
            gc.unfreeze()
