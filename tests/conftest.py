"""Shared test set-up: the benchmark data folder, and skips for optional system pieces."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

_DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
if not os.environ.get("RESTGRAPH_DATA_DIR") and _DEFAULT_DATA.is_dir():
    os.environ["RESTGRAPH_DATA_DIR"] = str(_DEFAULT_DATA)
elif os.environ.get("RESTGRAPH_DATA_DIR"):
    # CI passes a relative path (../shared/data); subprocesses and notebook kernels run in other
    # folders, so pin it to the folder it names from where pytest started.
    os.environ["RESTGRAPH_DATA_DIR"] = str(Path(os.environ["RESTGRAPH_DATA_DIR"]).expanduser().resolve())

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """``$RESTGRAPH_DATA_DIR`` (CI: ../shared/data); tests needing it skip clearly without it."""
    root = os.environ.get("RESTGRAPH_DATA_DIR")
    if not root or not Path(root).is_dir():
        pytest.skip("RESTGRAPH_DATA_DIR is not set to the shared benchmark data")
    return Path(root)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if CHROMIUM:
        return
    skip = pytest.mark.skip(reason="Debian's chromium is not installed (apt-get install chromium)")
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)
