"""tools/derived_cache: a cache hit is decoded with the garbage collector paused, and what it made
is frozen before the collector resumes.

Why it matters: decoding the padded TMDB world allocates ~10^6 long-lived objects; collections set
off on the way, and the first ones after, walked them for nothing (0.48 s -> 0.20 s of CPU,
bench/startup_time.py). The collector must come back on afterwards, or every later cycle in the
process would leak.
"""

from __future__ import annotations

import gc
from typing import Any

import pytest

from restgraph.tools.derived_cache import cached_pickle, collector_paused


class Probe:
    """Records whether the collector was on while it was unpickled."""

    seen: list[bool] = []

    def __setstate__(self, state: dict[str, Any]) -> None:
        Probe.seen.append(gc.isenabled())
        self.__dict__.update(state)


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("RESTGRAPH_CACHE_DIR", str(tmp_path))
    Probe.seen.clear()


def test_a_hit_is_decoded_with_the_collector_paused_and_restored_after():
    built = []

    def build() -> Probe:
        built.append(gc.isenabled())
        probe = Probe()
        probe.value = 7  # type: ignore[attr-defined]
        return probe

    first = cached_pickle("probe", "k1", build, Probe)
    assert built == [True] and Probe.seen == []  # a miss builds with the collector on
    frozen = gc.get_freeze_count()
    second = cached_pickle("probe", "k1", build, Probe)
    assert built == [True] and Probe.seen == [False]  # the hit was decoded, collector off
    assert gc.get_freeze_count() > frozen  # ... and what it made is in the permanent generation
    assert second.value == first.value == 7  # type: ignore[attr-defined]
    assert gc.isenabled()


def test_an_unreadable_file_is_rebuilt_and_the_collector_comes_back(tmp_path):
    (tmp_path / "probe").mkdir()
    (tmp_path / "probe" / "k2.pickle.z").write_bytes(b"not zlib")
    value = cached_pickle("probe", "k2", lambda: {"rebuilt": True}, dict)
    assert value == {"rebuilt": True} and gc.isenabled()


def test_an_uncompressed_cache_is_read_back_and_a_foreign_file_rebuilt(tmp_path):
    builds = []
    value = cached_pickle("plain", "k3", lambda: builds.append(1) or {"x": [1, 2]}, dict, compress=False)
    assert (tmp_path / "plain" / "k3.pickle").exists() and not (tmp_path / "plain" / "k3.pickle.z").exists()
    assert cached_pickle("plain", "k3", lambda: builds.append(1) or {}, dict, compress=False) == value
    assert builds == [1]  # the second call was a hit
    for junk in (b"not a pickle", b"", b"\x80\x05K", b"\x80\x05}q\x00(X"):
        (tmp_path / "plain" / "k3.pickle").write_bytes(junk)
        assert cached_pickle("plain", "k3", lambda: {"rebuilt": 1}, dict, compress=False) == {"rebuilt": 1}
        assert gc.isenabled()


def test_a_collector_already_off_stays_off():
    gc.disable()
    try:
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()
