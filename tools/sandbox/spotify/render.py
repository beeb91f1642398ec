"""Render catalogue and state objects into the JSON shapes of ``spotify_oas.json``.

Every shape here is checked against the spec's response schemas by the tests (oracle responses
and the property-based fuzz), so agents that read the spec find what it promises.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any
from urllib.parse import urlencode

from restgraph.tools.sandbox.spotify.catalogue import API_BASE, MARKETS, Catalogue, uri
from restgraph.tools.sandbox.spotify.models import (
    Album,
    Artist,
    Playlist,
    PublicPlaylist,
    SpotifyState,
    Track,
)

#: the three sizes Spotify serves cover art and artist pictures in (URL prefix, edge in pixels)
_SIZES = {
    "album": (("ab67616d0000b273", 640), ("ab67616d00001e02", 300), ("ab67616d00004851", 64)),
    "artist": (("ab6761610000e5eb", 640), ("ab67616100005174", 320), ("ab6761610000f178", 160)),
    "playlist": (("ab67706c0000da84", 640), ("ab67706c0000bebb", 300), ("ab67706c000048fb", 60)),
    # profile pictures come in two sizes, the small one first
    "user": (("ab67757000003b82", 64), ("ab6775700000ee85", 300)),
}
#: the ``cid`` (the calling app's client id) the real API appends to every 30-second preview URL
_PREVIEW_CID = hashlib.sha1(b"restgraph-spotify-sandbox").hexdigest()[:32]


@lru_cache(maxsize=65536)
def _image_set(kind: str, seed: str) -> tuple[tuple[str, int], ...]:
    digest = hashlib.sha1(seed.encode()).hexdigest()[:24]
    return tuple((f"https://i.scdn.co/image/{prefix}{digest}", edge) for prefix, edge in _SIZES[kind])


def _images(seed: str, kind: str = "album") -> list[dict[str, Any]]:
    return [{"height": edge, "url": url, "width": edge} for url, edge in _image_set(kind, seed)]


@lru_cache(maxsize=65536)
def _preview_url(track_id: str) -> str:
    return f"https://p.scdn.co/mp3-preview/{hashlib.sha1(track_id.encode()).hexdigest()}?cid={_PREVIEW_CID}"


def _sorted(obj: dict[str, Any]) -> dict[str, Any]:
    """Keys in the real API's order (alphabetical): long lists such as ``available_markets`` come
    before ``id`` and ``name``, as a reader of the raw body meets them."""
    return dict(sorted(obj.items()))


def _links(kind: str, item_id: str) -> dict[str, Any]:
    return {
        "external_urls": {"spotify": f"https://open.spotify.com/{kind}/{item_id}"},
        "href": f"{API_BASE}/{kind}s/{item_id}",
        "id": item_id,
        "type": kind,
        "uri": uri(kind, item_id),
    }


class Renderer:
    def __init__(self, cat: Catalogue, market: str | None = None):
        self.cat = cat
        self.market = market

    def _markets(self) -> dict[str, Any]:
        # with a market, Spotify drops available_markets and says whether the item plays there
        return {"is_playable": True} if self.market else {"available_markets": list(MARKETS)}

    def simple_artist(self, artist_id: str) -> dict[str, Any]:
        return {**_links("artist", artist_id), "name": self.cat.artists[artist_id].name}

    def artist(self, artist: Artist) -> dict[str, Any]:
        return _sorted(
            {
                **_links("artist", artist.id),
                "name": artist.name,
                "followers": {"href": None, "total": artist.followers},
                "genres": list(artist.genres),
                "images": _images(artist.id, "artist"),
                "popularity": artist.popularity,
            }
        )

    def _album_base(self, album: Album) -> dict[str, Any]:
        base = {
            **_links("album", album.id),
            "album_type": album.album_type,
            "total_tracks": len(album.track_ids),
            "images": _images(album.id),
            "name": album.name,
            "release_date": album.release_date,
            "release_date_precision": album.release_date_precision,
        }
        markets = self._markets()
        base["available_markets"] = markets.get(
            "available_markets", [self.market] if self.market else list(MARKETS)
        )
        return base

    def simple_album(self, album: Album, group: str | None = None) -> dict[str, Any]:
        out = {**self._album_base(album), "artists": [self.simple_artist(a) for a in album.artist_ids]}
        if group:
            out["album_group"] = group
        return _sorted(out)

    def album(self, album: Album, limit: int = 50) -> dict[str, Any]:
        tracks = [self.cat.tracks[t] for t in album.track_ids]
        return _sorted(
            {
                **self._album_base(album),
                "artists": [self.simple_artist(a) for a in album.artist_ids],
                "tracks": page(
                    tracks, f"{API_BASE}/albums/{album.id}/tracks", limit, 0, render=self.simple_track
                ),
                "copyrights": [
                    {"text": f"(C) {album.release_date[:4]} {album.label}", "type": "C"},
                    {"text": f"(P) {album.release_date[:4]} {album.label}", "type": "P"},
                ],
                "external_ids": {"upc": str(int(hashlib.sha1(album.id.encode()).hexdigest(), 16))[:12]},
                "genres": [],
                "label": album.label,
                "popularity": max((self.cat.tracks[t].popularity for t in album.track_ids), default=0),
            }
        )

    def simple_track(self, track: Track) -> dict[str, Any]:
        return _sorted(
            {
                **_links("track", track.id),
                "artists": [self.simple_artist(a) for a in track.artist_ids],
                **self._markets(),
                "disc_number": 1,
                "duration_ms": track.duration_ms,
                "explicit": track.explicit,
                "is_local": False,
                "name": track.name,
                "preview_url": _preview_url(track.id),
                "track_number": track.track_number,
            }
        )

    def track(self, track: Track) -> dict[str, Any]:
        album = self.cat.albums[track.album_id]
        return _sorted(
            {
                **self.simple_track(track),
                "album": self.simple_album(album),
                "external_ids": {"isrc": "US" + hashlib.sha1(track.id.encode()).hexdigest()[:10].upper()},
                "popularity": track.popularity,
            }
        )

    def track_by_id(self, track_id: str) -> dict[str, Any]:
        return self.track(self.cat.tracks[track_id])

    # ------------------------------------------------------------ users and playlists
    def owner(self, user_id: str, display_name: str | None) -> dict[str, Any]:
        return {
            "external_urls": {"spotify": f"https://open.spotify.com/user/{user_id}"},
            "href": f"{API_BASE}/users/{user_id}",
            "id": user_id,
            "type": "user",
            "uri": uri("user", user_id),
            "display_name": display_name,
        }

    def private_user(self, state: SpotifyState) -> dict[str, Any]:
        user = state.user
        return {
            **self.owner(user.id, user.display_name),
            "country": user.country,
            "email": user.email,
            "explicit_content": {"filter_enabled": False, "filter_locked": False},
            "followers": {"href": None, "total": user.followers},
            "images": _images(user.id, "user"),
            "product": user.product,
        }

    def _playlist_common(self, pl: Playlist | PublicPlaylist) -> dict[str, Any]:
        if isinstance(pl, PublicPlaylist):
            owner, snapshot, collaborative = (
                self.owner(pl.owner["id"], pl.owner.get("display_name")),
                "MQ==",
                False,
            )
        else:
            owner, snapshot, collaborative = (
                self.owner(pl.owner_id, pl.owner_name),
                snapshot_id(pl),
                pl.collaborative,
            )
        return {
            **_links("playlist", pl.id),
            "collaborative": collaborative,
            "images": _images(pl.id, "playlist"),
            "name": pl.name,
            "owner": owner,
            "public": pl.public,
            "snapshot_id": snapshot,
        }

    def simple_playlist(self, pl: Playlist | PublicPlaylist) -> dict[str, Any]:
        total = len(pl.track_ids) if isinstance(pl, PublicPlaylist) else len(pl.items)
        return _sorted(
            {
                **self._playlist_common(pl),
                "description": pl.description or "",
                "tracks": {"href": f"{API_BASE}/playlists/{pl.id}/tracks", "total": total},
            }
        )

    def playlist_rows(self, pl: Playlist | PublicPlaylist) -> list[tuple[str, str, str]]:
        """(track id, added_at, added_by) of a playlist's entries, in order."""
        if isinstance(pl, PublicPlaylist):
            return [(t, "2023-01-01T00:00:00Z", pl.owner["id"]) for t in pl.track_ids]
        return [(i.id, i.added_at, i.added_by) for i in pl.items]

    def playlist_item(self, row: tuple[str, str, str]) -> dict[str, Any]:
        t, at, by = row
        return {
            "added_at": at,
            "added_by": {k: v for k, v in self.owner(by, None).items() if k != "display_name"},
            "is_local": False,
            "track": self.track_by_id(t),
        }

    def playlist(self, pl: Playlist | PublicPlaylist) -> dict[str, Any]:
        followers = pl.followers if isinstance(pl, PublicPlaylist) else 0
        return _sorted(
            {
                **self._playlist_common(pl),
                "description": pl.description,
                "followers": {"href": None, "total": followers},
                "tracks": page(
                    self.playlist_rows(pl),
                    f"{API_BASE}/playlists/{pl.id}/tracks",
                    100,
                    0,
                    render=self.playlist_item,
                ),
            }
        )

    # ------------------------------------------------------------ player
    def device(self, state: SpotifyState, device_id: str) -> dict[str, Any]:
        dev = next(d for d in state.devices if d.id == device_id)
        return {
            "id": dev.id,
            "is_active": dev.is_active,
            "is_private_session": dev.is_private_session,
            "is_restricted": dev.is_restricted,
            "name": dev.name,
            "type": dev.type,
            "volume_percent": dev.volume_percent,
        }

    def context(self, context_uri: str | None) -> dict[str, Any] | None:
        if not context_uri:
            return None
        kind, item_id = context_uri.split(":")[1:3]
        return {
            "external_urls": {"spotify": f"https://open.spotify.com/{kind}/{item_id}"},
            "href": f"{API_BASE}/{kind}s/{item_id}",
            "type": kind,
            "uri": context_uri,
        }

    def playback(self, state: SpotifyState, with_device: bool = True) -> dict[str, Any]:
        """The player in the real API's key order (not alphabetical: the device and its modes, then
        the context, the item, and the actions after the item), so a reader of the raw body meets
        the playing track's album with its long market list before the track's artists."""
        player = state.player
        out: dict[str, Any] = {}
        if with_device and player.device_id:
            out["device"] = self.device(state, player.device_id)
            out["shuffle_state"] = player.shuffle_state
            out["repeat_state"] = player.repeat_state
        out["timestamp"] = self.cat.millis(state.clock)
        ctx = self.context(player.context_uri)
        if ctx:
            out["context"] = ctx
        out["progress_ms"] = player.progress_ms
        if player.item_id:
            out["item"] = self.track_by_id(player.item_id)
        out["currently_playing_type"] = "track"
        # the spec's DisallowsObject in full (true: the action is not possible now); the sandbox
        # refuses only these three, so the other seven are always allowed
        out["actions"] = {
            "interrupting_playback": False,
            "pausing": not player.is_playing,
            "resuming": player.is_playing,
            "seeking": player.item_id is None,
            "skipping_next": False,
            "skipping_prev": not state.history,
            "toggling_repeat_context": False,
            "toggling_repeat_track": False,
            "toggling_shuffle": False,
            "transferring_playback": False,
        }
        out["is_playing"] = player.is_playing
        return out


def snapshot_id(pl: Playlist) -> str:
    return hashlib.sha1(f"{pl.id}:{pl.snapshot}".encode()).hexdigest()[:32]


def page(
    items: Sequence[Any],
    href: str,
    limit: int,
    offset: int,
    extra: dict[str, Any] | None = None,
    render: Callable[[Any], Any] | None = None,
) -> dict[str, Any]:
    """A ``PagingObject`` over ``items`` with working ``next``/``previous`` links; ``render`` (if
    given) turns only the items of the page into JSON, so a long list costs one page."""

    def link(off: int) -> str:
        return f"{href}?{urlencode({**(extra or {}), 'offset': off, 'limit': limit})}"

    total = len(items)
    chunk = list(items[offset : offset + limit])
    if render is not None:
        chunk = [render(i) for i in chunk]
    return {
        "href": link(offset),
        "items": chunk,
        "limit": limit,
        "next": link(offset + limit) if limit and offset + limit < total else None,
        "offset": offset,
        "previous": link(max(offset - limit, 0)) if offset > 0 else None,
        "total": total,
    }
