"""The frozen Spotify catalogue (``catalogue.json``) and the fixture (``fixture.json``), indexed.

The authored catalogue covers every entity the 57 RestBench queries and RestGPT's prompt examples
name (restbench.md §8.1, §8.3). Ids marked ``real_id`` are Spotify's real ids (so model priors
agree with the sandbox); the others are deterministic synthetic base62 ids. The sandbox serves it
padded to the real API's scale (``padding/``: generated entities marked ``generated``, appended
after the authored ones); ``load_catalogue()`` is the served world, ``load_facts_catalogue()`` the
authored facts alone.
"""

from __future__ import annotations

import gc
import json
import re
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from pathlib import Path
from typing import Any

from restgraph.tools.sandbox.spotify.models import Album, Artist, CatalogueData, PublicPlaylist, Track
from restgraph.tools.sandbox.spotify.padding.cache import padded_catalogue
from restgraph.tools.sandbox.spotify.padding.pools import MARKETS
from restgraph.tools.sandbox.spotify.search import Index, build_index

HERE = Path(__file__).parent
API_BASE = "https://api.spotify.com/v1"
__all__ = ["MARKETS", "Catalogue", "load_catalogue", "load_facts_catalogue"]
_BASE62 = re.compile(r"^[0-9A-Za-z]{22}$")
_URI = re.compile(r"^spotify:(track|album|artist|playlist|episode|show|user):([0-9A-Za-z._-]+)$")


class Catalogue:
    def __init__(self, data: CatalogueData, fixture: dict[str, Any], *, padded: bool = False):
        self.data = data
        #: True for the served world (authored facts plus generated padding)
        self.padded = padded
        self.fixture = fixture
        self.artists: dict[str, Artist] = {a.id: a for a in data.artists}
        self.albums: dict[str, Album] = {a.id: a for a in data.albums}
        self.tracks: dict[str, Track] = {t.id: t for t in data.tracks}
        self.public_playlists: dict[str, PublicPlaylist] = {p.id: p for p in data.playlists}
        self.epoch = datetime.fromisoformat(fixture["epoch"].replace("Z", "+00:00"))
        self._indexes: dict[str, Index] = {}
        self._discographies: dict[str, list[Album]] = {}
        self._appears: dict[str, list[Album]] | None = None
        self._new_releases: list[Album] | None = None

    def index(self, kind: str) -> Index:
        """The search index of one kind (``track``, ``album``, ``artist``, ``playlist``), built once."""
        if kind not in self._indexes:
            self._indexes[kind] = build_index(self.data, kind)
            _freeze()
        return self._indexes[kind]

    def new_releases(self) -> list[Album]:
        if self._new_releases is None:
            self._new_releases = sorted(self.data.albums, key=lambda a: a.release_date, reverse=True)
        return self._new_releases

    # ------------------------------------------------------------ lookups by name (fixtures, tests)
    def artist_named(self, name: str) -> Artist:
        return next(a for a in self.data.artists if a.name == name)

    def album_named(self, name: str) -> Album:
        return next(a for a in self.data.albums if a.name == name)

    def track_named(self, artist: str, name: str) -> Track:
        artist_id = self.artist_named(artist).id
        return next(t for t in self.data.tracks if t.name == name and artist_id in t.artist_ids)

    def _appearances(self) -> dict[str, list[Album]]:
        """artist id -> albums of other artists it is on (as a credited or a track artist)."""
        if self._appears is None:
            appears: dict[str, list[Album]] = {}
            for album in self.data.albums:
                on = set(album.artist_ids[1:])
                for t in album.track_ids:
                    on.update(self.tracks[t].artist_ids)
                on.discard(album.artist_ids[0])
                for artist_id in on:
                    appears.setdefault(artist_id, []).append(album)
            self._appears = appears
        return self._appears

    def artist_albums(self, artist_id: str) -> list[Album]:
        """Spotify's order: grouped album, single, compilation, appears_on; newest first in a group."""
        if artist_id not in self._discographies:
            own = [a for a in self.data.albums if a.artist_ids and a.artist_ids[0] == artist_id]
            appears = list(self._appearances().get(artist_id, []))
            rank = {"album": 0, "single": 1, "compilation": 2}
            own.sort(key=lambda a: (rank.get(a.album_type, 3), _neg_date(a.release_date)))
            appears.sort(key=lambda a: _neg_date(a.release_date))
            self._discographies[artist_id] = own + appears
        return self._discographies[artist_id]

    def newest_album(self, artist_id: str) -> Album:
        return next(
            a
            for a in self.artist_albums(artist_id)
            if a.album_type == "album" and a.artist_ids[0] == artist_id
        )

    # ------------------------------------------------------------ time
    def timestamp(self, clock: int) -> str:
        return (self.epoch + timedelta(seconds=clock)).strftime("%Y-%m-%dT%H:%M:%SZ")

    def millis(self, clock: int) -> int:
        return int((self.epoch + timedelta(seconds=clock)).replace(tzinfo=UTC).timestamp() * 1000)


def _neg_date(date: str) -> str:
    """Sort key giving newest first for ISO dates (inverting each digit)."""
    return "".join(chr(ord("9") - ord(c) + ord("0")) if c.isdigit() else c for c in date)


def is_base62_id(value: str) -> bool:
    return bool(_BASE62.match(value or ""))


def parse_uri(uri: str) -> tuple[str, str] | None:
    """``spotify:track:ID`` -> ("track", "ID"); ``None`` if malformed."""
    match = _URI.match((uri or "").strip())
    return (match.group(1), match.group(2)) if match else None


def uri(kind: str, item_id: str) -> str:
    return f"spotify:{kind}:{item_id}"


def _authored() -> CatalogueData:
    return CatalogueData.model_validate(json.loads((HERE / "catalogue.json").read_text(encoding="utf-8")))


def _fixture() -> dict[str, Any]:
    return json.loads((HERE / "fixture.json").read_text(encoding="utf-8"))


def _freeze() -> None:
    """Move what exists to the collector's permanent generation: the padded catalogue and its
    indexes are ~10^6 long-lived objects, and every full collection walking them paused a request
    for up to a second on a loaded machine (``evals/collector.py`` does the same for a run's heap)."""
    gc.freeze()


@lru_cache(maxsize=1)
def load_catalogue() -> Catalogue:
    """The served catalogue: the authored facts padded to the real API's scale (cached on disk)."""
    cat = Catalogue(padded_catalogue(_authored(), HERE / "catalogue.json"), _fixture(), padded=True)
    _freeze()
    return cat


@lru_cache(maxsize=1)
def load_facts_catalogue() -> Catalogue:
    """The authored facts alone (what the padding must not change the answers of)."""
    return Catalogue(_authored(), _fixture())
