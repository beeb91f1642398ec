"""The viewer's episode index, built once per run and cached on disk.

Why: indexing a run means one parse of every line of ``traces.jsonl`` (about 100 MB for 10,000
episodes); with the machine loaded that pass alone takes seconds. The index it yields (one small row
and one byte offset per episode) is about a hundredth of that and loads in milliseconds, so it is
kept under ``<cache>/viewer/`` keyed by the run folder's real path, and reused while the files it was
built from are unchanged (size and modification time of ``traces.jsonl``, ``scores.jsonl``,
``summary.json`` and ``config.json``). Run folders stay as the run wrote them: the cache lives
outside them, and a cache that cannot be read or written is simply rebuilt.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

import orjson

from restgraph.tools.datafiles import cache_root

#: bump when the row layout changes: older cached indexes are then rebuilt
VERSION = 1
#: the files an index is derived from
SOURCES = ("traces.jsonl", "scores.jsonl", "summary.json", "config.json")
#: keep the newest this many indexes (benchmarks and tests make many throwaway runs)
KEEP = 64


def cache_dir() -> Path:
    return cache_root() / "viewer"


def fingerprint(run_dir: Path, columns: tuple[str, ...]) -> list[Any]:
    """What must be equal for a cached index to still describe ``run_dir``."""
    stamps: list[Any] = [VERSION, list(columns)]
    for name in SOURCES:
        try:
            st = (run_dir / name).stat()
            stamps.append([name, st.st_size, st.st_mtime_ns])
        except OSError:
            stamps.append([name, None])
    return stamps


def _path(run_dir: Path) -> Path:
    return cache_dir() / (hashlib.sha256(str(run_dir.resolve()).encode()).hexdigest()[:32] + ".json")


def load(run_dir: Path, columns: tuple[str, ...]) -> dict[str, Any] | None:
    """The cached index of ``run_dir`` if it was built from the files as they are now."""
    try:
        doc = orjson.loads(_path(run_dir).read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return None
    if not isinstance(doc, dict) or doc.get("fingerprint") != fingerprint(run_dir, columns):
        return None
    return doc


def save(run_dir: Path, columns: tuple[str, ...], stamp: list[Any], doc: dict[str, Any]) -> None:
    """Store ``doc`` under the fingerprint taken *before* the run's files were read (a line
    appended while indexing then changes the fingerprint, and the next view rebuilds)."""
    path = _path(run_dir)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(orjson.dumps({**doc, "fingerprint": stamp}))
        os.replace(tmp, path)
        _prune(path.parent)
    except OSError:
        pass  # a read-only cache only costs the next view its indexing time


def _prune(folder: Path) -> None:
    try:
        files = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in files[KEEP:]:
            old.unlink(missing_ok=True)
    except OSError:
        pass
