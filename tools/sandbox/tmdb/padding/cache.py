"""The padded world, generated once per machine and source version and then read from a cache file.

Generating the padding takes a few seconds of CPU; unpickling it about a quarter of that. The cache
key hashes the authored fixture files and every source file the padding depends on, so an edit to
either regenerates it (the generator is deterministic: a cache hit and a fresh build are equal, which
``tests/restbench_tmdb/test_padding.py`` checks). ``RESTGRAPH_TMDB_PADDING_CACHE=0`` disables the cache.
"""

from __future__ import annotations

import os
from pathlib import Path

from restgraph.tools.derived_cache import cached_pickle, files_key
from restgraph.tools.sandbox.tmdb.padding.generate import World, pad

_SOURCES = [
    Path(__file__).parent / name
    for name in (
        "generate.py",
        "entities.py",
        "extend.py",
        "pools.py",
        "authored.py",
        "families.py",
        "franchises.py",
        "arms.py",
    )
]
_SOURCES += [
    Path(__file__).parents[1] / name for name in ("models.py", "search.py", "derive.py", "realtotals.py")
]


def cache_key(fixtures: Path) -> str:
    return files_key(sorted(fixtures.glob("*.json")) + _SOURCES)


def padded_world(facts: World, fixtures: Path) -> World:
    return cached_pickle(
        "tmdb-padding",
        cache_key(fixtures),
        lambda: pad(facts),
        World,
        enabled=os.environ.get("RESTGRAPH_TMDB_PADDING_CACHE", "1") != "0",
        compress=False,  # read by every TMDB run: inflating 12 MB cost 0.03 s of its start-up
    )
