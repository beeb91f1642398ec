"""Pinned data-file resolution shared by dataset loaders and upstream prompt readers.

Order: ``$RESTGRAPH_DATA_DIR/<bench>/<file>`` (what tests and CI use), then the user cache
(``~/.cache/restgraph/datasets/<bench>/``), then a download of the pinned upstream file whose
sha256 must match. Offline and uncached, the error says exactly which file is missing and the
two ways to provide it.

A local copy is checked against the pinned sha256 too: a modified file stops the run, naming the
file, unless ``allow_modified_data(True)`` (the CLI's ``--allow-modified-data``). The sha256 of
every file used is kept (``used_data()``) so the run's ``config.json`` records exactly what data
it ran on.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
from platformdirs import user_cache_dir

DATA_DIR_ENV = "RESTGRAPH_DATA_DIR"


class DatasetUnavailable(RuntimeError):
    """The file is neither local, nor cached, nor downloadable right now."""


class DataModified(DatasetUnavailable):
    """A local copy whose sha256 is not the pinned one."""


_allow_modified = [False]
_used: dict[str, str] = {}
_digests: dict[tuple[str, int, int], str] = {}


def allow_modified_data(allow: bool) -> None:
    """Use local copies whose sha256 differs from the pinned one (recorded, never silent)."""
    _allow_modified[0] = allow


def used_data() -> dict[str, str]:
    """``bench/name`` -> sha256 of every data file resolved in this process."""
    return dict(sorted(_used.items()))


def _checked(file: DataFile, path: Path) -> Path:
    stat = path.stat()
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    digest = _digests.get(key)
    if digest is None:
        digest = _digests[key] = sha256_of(path)
    if file.sha256 is not None and digest != file.sha256:
        if not _allow_modified[0]:
            raise DataModified(
                f"{path}: sha256 is {digest}, not the pinned {file.sha256} of {file.bench}/{file.name} "
                f"(a modified or different copy); restore it, or pass --allow-modified-data to use it anyway"
            )
        _used[f"{file.bench}/{file.name}"] = digest + " (modified)"
    else:
        _used[f"{file.bench}/{file.name}"] = digest
    return path


@dataclass(frozen=True)
class DataFile:
    bench: str
    name: str
    url: str | None
    sha256: str | None


class DataFormatError(ValueError):
    """A data file that does not have the expected shape; the message names the file and the record."""


@contextlib.contextmanager
def data_errors(path: Path, where: str = "") -> Iterator[None]:
    """Turn a loader's ``KeyError: 'query'`` into an error naming the file, the record and the problem."""
    try:
        yield
    except DataFormatError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        if isinstance(exc, json.JSONDecodeError):
            what = f"not valid JSON ({exc})"
        elif isinstance(exc, KeyError):
            what = f"missing field {exc.args[0]!r}"
        else:
            what = f"{type(exc).__name__}: {exc}"
        raise DataFormatError(f"{path}{': ' + where if where else ''}: {what}") from exc


def load_json(path: Path) -> object:
    with data_errors(path):
        return json.loads(path.read_text(encoding="utf-8"))


def cache_root() -> Path:
    return Path(os.environ.get("RESTGRAPH_CACHE_DIR") or user_cache_dir("restgraph"))


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def data_dir(bench: str) -> Path | None:
    root = os.environ.get(DATA_DIR_ENV)
    return Path(root) / bench if root else None


def resolve(file: DataFile, *, timeout: float = 60.0) -> Path:
    """Return a local path for ``file``, downloading and verifying it if needed."""
    local = data_dir(file.bench)
    if local is not None and (local / file.name).is_file():
        return _checked(file, local / file.name)
    cached = cache_root() / "datasets" / file.bench / file.name
    if cached.is_file() and (file.sha256 is None or sha256_of(cached) == file.sha256):
        return _checked(file, cached)
    if file.url is None:
        raise DatasetUnavailable(
            f"{file.bench}/{file.name} is not available: put it in ${DATA_DIR_ENV}/{file.bench}/ "
            f"(currently {os.environ.get(DATA_DIR_ENV) or 'unset'}); it has no public download."
        )
    try:
        with httpx.Client(follow_redirects=True, timeout=timeout) as client:
            response = client.get(file.url)
            response.raise_for_status()
    except httpx.HTTPError as exc:
        raise DatasetUnavailable(
            f"could not download {file.bench}/{file.name} from {file.url} ({type(exc).__name__}: {exc}). "
            f"If you are offline, copy the file to ${DATA_DIR_ENV}/{file.bench}/{file.name} "
            f"(set {DATA_DIR_ENV} to a folder holding a '{file.bench}' subfolder) or to {cached}."
        ) from exc
    digest = hashlib.sha256(response.content).hexdigest()
    if file.sha256 is not None and digest != file.sha256:
        raise DatasetUnavailable(
            f"downloaded {file.url} but its sha256 is {digest}, expected {file.sha256}; the upstream file changed, refusing to use it"
        )
    cached.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=cached.parent, delete=False) as tmp:
        tmp.write(response.content)
    os.replace(tmp.name, cached)
    return _checked(file, cached)
