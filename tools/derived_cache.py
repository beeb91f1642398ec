"""Data derived from the project's own files, computed once per machine and source version and then
read back from a cache file (the padded TMDB world, the padded Spotify catalogue, the TMDB reference
golds).

The key hashes the bytes of every file the derivation depends on, so an edit to any of them computes
it anew; a derivation is deterministic, so a hit equals a fresh build (each user's tests check it).
A file that cannot be read or decoded is rebuilt, never trusted; the write is atomic, so concurrent
processes never read half a file; a read-only cache only costs the rebuild.

Decoding runs with the garbage collector paused, and what it made is then frozen
(``collector_paused``): it allocates ~10^6 objects that all live on, and the collections those
allocations set off found nothing to free yet walked the growing heap each time, more than half of
the padded TMDB world's load (0.48 s -> 0.20 s of CPU, ``bench/startup_time.py``).
"""

from __future__ import annotations

import gc
import hashlib
import json
import os
import pickle
import zlib
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from restgraph.tools.datafiles import cache_root

T = TypeVar("T")

#: what a stale or foreign cache file may raise while it is decoded
_UNREADABLE = (
    *(OSError, ValueError, zlib.error, pickle.UnpicklingError, EOFError, AttributeError, ImportError),
    *(TypeError, IndexError, KeyError, OverflowError),  # what loads() may raise on bytes that are no pickle
)


@contextmanager
def collector_paused() -> Iterator[None]:
    """No garbage collection inside, and what exists at the end goes to the collector's permanent
    generation (``gc.freeze``) before it resumes: for building data that lives as long as the process.
    Without the freeze the first collections after walked all that was built (0.1 s more for the
    padded TMDB world). Frozen objects are still freed by reference counting; only cycles among them
    would stay. A collector already off stays off."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
        gc.freeze()
    finally:
        if was_enabled:
            gc.enable()


def files_key(paths: Iterable[Path], label: Callable[[Path], str] = lambda p: p.name) -> str:
    """A short hash of each file's label and bytes, in the order given."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(label(path).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:20]


def cached_pickle(
    kind: str, key: str, build: Callable[[], T], expect: type[T], enabled: bool = True, compress: bool = True
) -> T:
    """``build()``, kept as a pickle under ``<cache>/<kind>/<key>.pickle.z`` (zlib-compressed) or, with
    ``compress=False``, ``<key>.pickle``: for data read at every run's start, where inflating cost more
    than the disk saved (the padded TMDB world: 12 MB, 0.03 s of each TMDB run)."""

    def decode(raw: bytes) -> T:
        value = pickle.loads(zlib.decompress(raw) if compress else raw)
        if not isinstance(value, expect):
            raise ValueError(f"{kind} cache holds a {type(value).__name__}")
        return value

    def encode(value: T) -> bytes:
        raw = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        return zlib.compress(raw, 6) if compress else raw

    suffix = ".pickle.z" if compress else ".pickle"
    return _load_or_build(cache_root() / kind / f"{key}{suffix}", build, encode, decode, enabled)


def cached_json(kind: str, key: str, build: Callable[[], Any], enabled: bool = True) -> Any:
    """``build()`` (JSON-able, equal after a round trip), kept under ``<cache>/<kind>/<key>.json``."""
    return _load_or_build(
        cache_root() / kind / f"{key}.json",
        build,
        lambda value: json.dumps(value).encode(),
        lambda raw: json.loads(raw.decode()),
        enabled,
    )


def _load_or_build(
    path: Path,
    build: Callable[[], T],
    encode: Callable[[T], bytes],
    decode: Callable[[bytes], T],
    enabled: bool,
) -> T:
    if not enabled:
        return build()
    try:
        with collector_paused():
            return decode(path.read_bytes())
    except _UNREADABLE:
        pass  # no cache yet, or one written by other code: rebuild it
    value = build()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(encode(value))
        os.replace(tmp, path)
    except OSError:
        pass
    return value
