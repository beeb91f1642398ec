"""The reference golds are computed once per sandbox version and read back equal."""

from __future__ import annotations

from pathlib import Path

import pytest

from restgraph.tools.sandbox.tmdb import solutions


def test_cached_golds_equal_a_fresh_replay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RESTGRAPH_CACHE_DIR", str(tmp_path))
    first = solutions.all_reference_golds()  # a miss: replays and writes the cache
    cached = list((tmp_path / "tmdb-reference-gold").glob("*.json"))
    assert len(cached) == 1
    again = solutions.all_reference_golds()  # a hit
    assert again == first and sorted(first) == list(range(1, 101))
    for index in (1, 37, 100):
        assert again[index] == solutions.reference_gold(index)
    cached[0].write_text("{not json")  # a damaged cache is recomputed, never trusted
    assert solutions.all_reference_golds() == first
