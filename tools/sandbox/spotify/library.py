"""Library, follow and playlist mutations on a ``SpotifyState`` (no HTTP here).

Both the API routes and the initial-state builder use these, so the fixture's ordering rules
(newest first, a batch keeps its order; follow order for artists) hold by construction.
"""

from __future__ import annotations

import hashlib

from restgraph.tools.sandbox.spotify.catalogue import Catalogue
from restgraph.tools.sandbox.spotify.models import Playlist, PlaylistItem, SavedItem, SpotifyState

_B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def tick(state: SpotifyState) -> None:
    state.clock += 1


def _save(items: list[SavedItem], ids: list[str], now: str) -> list[SavedItem]:
    """Prepend the not-yet-saved ids (deduplicated, in given order); already saved ids stay put."""
    have = {i.id for i in items}
    new: list[SavedItem] = []
    for item_id in ids:
        if item_id not in have:
            have.add(item_id)
            new.append(SavedItem(id=item_id, added_at=now))
    return new + items


def save_tracks(state: SpotifyState, cat: Catalogue, ids: list[str]) -> None:
    tick(state)
    state.saved_tracks = _save(state.saved_tracks, ids, cat.timestamp(state.clock))


def remove_tracks(state: SpotifyState, ids: list[str]) -> None:
    tick(state)
    drop = set(ids)
    state.saved_tracks = [i for i in state.saved_tracks if i.id not in drop]


def save_albums(state: SpotifyState, cat: Catalogue, ids: list[str]) -> None:
    tick(state)
    state.saved_albums = _save(state.saved_albums, ids, cat.timestamp(state.clock))


def remove_albums(state: SpotifyState, ids: list[str]) -> None:
    tick(state)
    drop = set(ids)
    state.saved_albums = [i for i in state.saved_albums if i.id not in drop]


def follow(state: SpotifyState, ids: list[str]) -> None:
    tick(state)
    for artist_id in ids:
        if artist_id not in state.followed_artists:
            state.followed_artists.append(artist_id)


def unfollow(state: SpotifyState, ids: list[str]) -> None:
    tick(state)
    drop = set(ids)
    state.followed_artists = [a for a in state.followed_artists if a not in drop]


def new_playlist_id(state: SpotifyState, name: str) -> str:
    n = int(hashlib.sha256(f"{state.user.id}|{state.created}|{name}".encode()).hexdigest(), 16)
    out = ""
    for _ in range(22):
        n, r = divmod(n, 62)
        out += _B62[r]
    return out


def create_playlist(
    state: SpotifyState,
    name: str,
    description: str | None = None,
    public: bool = True,
    collaborative: bool = False,
) -> Playlist:
    tick(state)
    state.created += 1
    pl = Playlist(
        id=new_playlist_id(state, name),
        name=name,
        description=description,
        public=public,
        collaborative=collaborative,
        owner_id=state.user.id,
        owner_name=state.user.display_name,
    )
    state.playlists.insert(0, pl)
    return pl


def add_to_playlist(
    state: SpotifyState, cat: Catalogue, pl: Playlist, track_ids: list[str], position: int | None = None
) -> None:
    tick(state)
    rows = [
        PlaylistItem(id=t, added_at=cat.timestamp(state.clock), added_by=state.user.id) for t in track_ids
    ]
    at = len(pl.items) if position is None else min(position, len(pl.items))
    pl.items[at:at] = rows
    pl.snapshot += 1


def remove_from_playlist(
    state: SpotifyState, pl: Playlist, removals: list[tuple[str, list[int] | None]]
) -> None:
    """``removals``: (track id, positions or None). Without positions every occurrence goes (Spotify)."""
    tick(state)
    drop_positions: set[int] = set()
    for track_id, positions in removals:
        for index, item in enumerate(pl.items):
            if item.id == track_id and (positions is None or index in positions):
                drop_positions.add(index)
    pl.items = [item for index, item in enumerate(pl.items) if index not in drop_positions]
    pl.snapshot += 1


def update_playlist(state: SpotifyState, pl: Playlist, changes: dict[str, object]) -> None:
    tick(state)
    for key in ("name", "description", "public", "collaborative"):
        if key in changes:
            setattr(pl, key, changes[key])
    pl.snapshot += 1


def find_playlist(state: SpotifyState, playlist_id: str) -> Playlist | None:
    return next((p for p in state.playlists if p.id == playlist_id), None)
