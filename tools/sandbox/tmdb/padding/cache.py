"""The padded world, generated once per machine and source version and then read from a cache file.

Generating the padding takes a few seconds of CPU; unpickling it about a quarter of that. The cache
key hashes the authored fixture files and every source file the padding depends on, so an edit to
either regenerates it (the generator is deterministic: a cache hit and a fresh build are equal, which
``tests/restbench_tmdb/test_padding.py`` checks). ``RESTGRAPH_TMDB_PADDING_CACHE=0`` disables the cache.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import zlib
from pathlib import Path

from restgraph.tools.datafiles import cache_root
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
    digest = hashlib.sha256()
    for path in sorted(fixtures.glob("*.json")) + _SOURCES:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:20]


def padded_world(facts: World, fixtures: Path) -> World:
    if os.environ.get("RESTGRAPH_TMDB_PADDING_CACHE", "1") == "0":
        return pad(facts)
    path = cache_root() / "tmdb-padding" / f"{cache_key(fixtures)}.pickle.z"
    try:
        world = pickle.loads(zlib.decompress(path.read_bytes()))
        if isinstance(world, World):
            return world
    except (OSError, zlib.error, pickle.UnpicklingError, EOFError, AttributeError, ImportError, ValueError):
        pass  # no cache yet, or one written by other code: rebuild it
    world = pad(facts)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(zlib.compress(pickle.dumps(world, protocol=pickle.HIGHEST_PROTOCOL), 6))
        os.replace(tmp, path)  # atomic: concurrent processes never read half a file
    except OSError:
        pass  # a read-only cache directory only costs the rebuild
    return world
