"""The RestBench data is fetched from one commit of the original repository, pinned by sha256.

A branch URL (``.../main/...``) could serve other bytes tomorrow; the pin names the commit whose
code the recorded upstream vectors come from, and the shared data folder holds those exact bytes.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from restgraph.agents.restgpt.upstream.source import COMMIT
from restgraph.evals.datasets import restbench, sha256_of


def test_urls_name_the_commit_not_a_branch() -> None:
    assert re.fullmatch(r"[0-9a-f]{40}", COMMIT)
    for key, pinned in restbench.FILES.items():
        folder = "datasets" if key in ("tmdb", "spotify") else "specs"
        assert (
            pinned.url
            == f"https://raw.githubusercontent.com/Yifan-Song793/RestGPT/{COMMIT}/{folder}/{pinned.name}"
        ), key
        assert pinned.sha256 and re.fullmatch(r"[0-9a-f]{64}", pinned.sha256), key


def test_shared_files_match_the_pins() -> None:
    root = os.environ.get("RESTGRAPH_DATA_DIR")
    if not root or not (Path(root) / "restbench" / "tmdb.json").is_file():
        pytest.skip("RESTGRAPH_DATA_DIR with restbench/ is needed")
    for pinned in restbench.FILES.values():
        assert sha256_of(Path(root) / pinned.bench / pinned.name) == pinned.sha256, pinned.name
