"""The §8.4 initial state and the per-token session store.

``initial_state()`` replays upstream ``init_spotify`` (save Lana's then Whitney's top-3 tracks,
follow three artists, create My R&B then My Rock, save and play Born To Die, save reputation)
with the library operations, then applies the fixture decisions of ``fixture.json``. Each bearer
token gets its own deep copy on first use, so concurrent episodes never see each other.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from restgraph.tools.sandbox.spotify import library
from restgraph.tools.sandbox.spotify.catalogue import Catalogue, load_catalogue, uri
from restgraph.tools.sandbox.spotify.models import Device, LogEntry, Player, PlayHistory, SpotifyState, User


def build_initial_state(cat: Catalogue) -> SpotifyState:
    fx = cat.fixture
    seq = fx["upstream_sequence"]
    state = SpotifyState(user=User(**fx["user"]))
    for name in seq["save_top3_tracks_of"]:
        library.save_tracks(state, cat, cat.artist_named(name).top_track_ids[:3])
    library.follow(state, [cat.artist_named(n).id for n in seq["follow"]])
    for spec in seq["playlists"]:
        pl = library.create_playlist(state, spec["name"])
        library.add_to_playlist(state, cat, pl, cat.artist_named(spec["top3_of"]).top_track_ids[:3])
    playing = cat.album_named(seq["save_album_and_play"])
    library.save_albums(state, cat, [playing.id])
    state.devices = [Device(**d) for d in fx["devices"]]
    active = next(d for d in state.devices if d.is_active)
    state.player = Player(
        device_id=active.id,
        item_id=playing.track_ids[0],
        context_uri=uri("album", playing.id),
        **fx["player"],
    )
    state.context_queue = list(playing.track_ids[1:])
    library.save_albums(state, cat, [cat.album_named(seq["save_album"]).id])
    older = [cat.track_named(a, t).id for a, t in fx["recently_played_older"]]
    state.recently_played = [
        PlayHistory(
            track_id=playing.track_ids[0],
            played_at=cat.timestamp(state.clock),
            context_uri=state.player.context_uri,
        )
    ] + [PlayHistory(track_id=t, played_at=cat.timestamp(-600 * (i + 1))) for i, t in enumerate(older)]
    state.top_artists = [cat.artist_named(n).id for n in fx["top_artists"]]
    state.top_tracks = [cat.track_named(a, t).id for a, t in fx["top_tracks"]]
    if cat.padded:
        _fill_top_items(state, cat)
    return state


TOP_ITEMS = 20


def _fill_top_items(state: SpotifyState, cat: Catalogue) -> None:
    """Fill top artists and tracks to a full page (the real API's default 20) after the fixture's:
    the related artists of the top artists, then the top tracks of the top artists, in turn."""
    artists = list(state.top_artists)
    for artist_id in state.top_artists:
        artists += cat.artists[artist_id].related_artist_ids
    state.top_artists = list(dict.fromkeys(artists))[:TOP_ITEMS]
    tracks = list(state.top_tracks)
    for rank in range(10):
        tracks += [top[rank] for a in state.top_artists if len(top := cat.artists[a].top_track_ids) > rank]
    state.top_tracks = list(dict.fromkeys(tracks))[:TOP_ITEMS]


@lru_cache(maxsize=1)
def _initial_json() -> str:
    return build_initial_state(load_catalogue()).model_dump_json()


def initial_state_json() -> str:
    """The initial state as JSON (cached; also fingerprinted into traces)."""
    return _initial_json()


def initial_state() -> SpotifyState:
    """A fresh deep copy of the §8.4 initial state."""
    return SpotifyState.model_validate_json(_initial_json())


@dataclass
class Session:
    state: SpotifyState
    log: list[LogEntry] = field(default_factory=list)


class SessionStore:
    """Sessions keyed by bearer token, created lazily from the initial state (of the served
    catalogue, or of ``cat``: tests replay the reference solutions on the authored facts alone)."""

    def __init__(self, cat: Catalogue | None = None) -> None:
        self._sessions: dict[str, Session] = {}
        self._lock = threading.Lock()
        self.cat = cat or load_catalogue()
        self._start = None if cat is None else build_initial_state(cat).model_dump_json()

    def _fresh(self) -> Session:
        if self._start is None:
            return Session(initial_state())
        return Session(SpotifyState.model_validate_json(self._start))

    def get(self, token: str) -> Session:
        with self._lock:
            session = self._sessions.get(token)
            if session is None:
                session = self._sessions[token] = self._fresh()
            return session

    def reset(self, token: str) -> None:
        with self._lock:
            self._sessions.pop(token, None)

    def tokens(self) -> list[str]:
        with self._lock:
            return list(self._sessions)

    def snapshot(self, token: str, *, drop: bool = False) -> dict[str, Any]:
        """The token's final state and request log as JSON (what a trace's ``env_state`` holds)."""
        with self._lock:
            session = self._sessions.pop(token, None) if drop else self._sessions.get(token)
        if session is None:
            session = self._fresh()
        return {
            "final_state": session.state.model_dump(mode="json"),
            "request_log": [e.model_dump(mode="json") for e in session.log],
        }
