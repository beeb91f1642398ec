"""The padded catalogue, generated once per machine and source version, then read from a cache file.

Generating takes a few seconds of CPU (32k tracks, and the protection pass builds search indexes);
unpickling takes a fraction of that. The key hashes the authored catalogue and every source file
the padding depends on, so editing either regenerates it (generation is deterministic: a cache hit
equals a fresh build, ``tests/restbench_spotify/test_padding.py`` checks it).
``RESTGRAPH_SPOTIFY_PADDING_CACHE=0`` disables the cache.
"""

from __future__ import annotations

import os
from pathlib import Path

from restgraph.tools.derived_cache import cached_pickle, files_key
from restgraph.tools.sandbox.spotify.models import CatalogueData
from restgraph.tools.sandbox.spotify.padding.build import pad

_HERE = Path(__file__).parent
_SOURCES = [_HERE / n for n in ("build.py", "generate.py", "neighbours.py", "pools.py", "protect.py")] + [
    _HERE.parent / n for n in ("models.py", "search.py")
]


def cache_key(authored: Path) -> str:
    return files_key([authored, *_SOURCES])


def padded_catalogue(facts: CatalogueData, authored: Path) -> CatalogueData:
    return cached_pickle(
        "spotify-padding",
        cache_key(authored),
        lambda: pad(facts),
        CatalogueData,
        enabled=os.environ.get("RESTGRAPH_SPOTIFY_PADDING_CACHE", "1") != "0",
    )
