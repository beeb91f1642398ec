"""The padded catalogue, generated once per machine and source version, then read from a cache file.

Generating takes a few seconds of CPU (32k tracks, and the protection pass builds search indexes);
unpickling takes a fraction of that. The key hashes the authored catalogue and every source file
the padding depends on, so editing either regenerates it (generation is deterministic: a cache hit
equals a fresh build, ``tests/restbench_spotify/test_padding.py`` checks it).
``RESTGRAPH_SPOTIFY_PADDING_CACHE=0`` disables the cache.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import zlib
from pathlib import Path

from restgraph.tools.datafiles import cache_root
from restgraph.tools.sandbox.spotify.models import CatalogueData
from restgraph.tools.sandbox.spotify.padding.build import pad

_HERE = Path(__file__).parent
_SOURCES = [_HERE / n for n in ("build.py", "generate.py", "neighbours.py", "pools.py", "protect.py")] + [
    _HERE.parent / n for n in ("models.py", "search.py")
]


def cache_key(authored: Path) -> str:
    digest = hashlib.sha256()
    for path in [authored, *_SOURCES]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:20]


def padded_catalogue(facts: CatalogueData, authored: Path) -> CatalogueData:
    if os.environ.get("RESTGRAPH_SPOTIFY_PADDING_CACHE", "1") == "0":
        return pad(facts)
    path = cache_root() / "spotify-padding" / f"{cache_key(authored)}.pickle.z"
    try:
        data = pickle.loads(zlib.decompress(path.read_bytes()))
        if isinstance(data, CatalogueData):
            return data
    except (OSError, zlib.error, pickle.UnpicklingError, EOFError, AttributeError, ImportError, ValueError):
        pass  # no cache yet, or one written by other code: rebuild it
    data = pad(facts)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(zlib.compress(pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL), 6))
        os.replace(tmp, path)  # atomic: concurrent processes never read half a file
    except OSError:
        pass  # a read-only cache directory only costs the rebuild
    return data
