"""Playback semantics of the sandbox: play/pause/skip, the queue, devices, volume and repeat.

Model: the current item, the rest of the playing context (``context_queue``) and the tracks the
user queued (``user_queue``, played first). Skipping moves the current item to ``history`` and
records the new item as recently played, so "recently played item 0" stays the current track.
Pausing a paused player (or resuming a playing one) fails with 403 like the real API.
"""

from __future__ import annotations

from typing import Any

from restgraph.tools.sandbox.spotify.catalogue import Catalogue, parse_uri
from restgraph.tools.sandbox.spotify.library import find_playlist, tick
from restgraph.tools.sandbox.spotify.models import PlayHistory, SpotifyState


class SpotifyError(Exception):
    """Answered as ``{"error": {"status": N, "message": ...}}`` (plus ``reason`` for player errors)."""

    def __init__(self, status: int, message: str, reason: str | None = None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.reason = reason

    def body(self) -> dict[str, Any]:
        error: dict[str, Any] = {"status": self.status, "message": self.message}
        if self.reason:
            error["reason"] = self.reason
        return {"error": error}


def no_active_device() -> SpotifyError:
    return SpotifyError(404, "Player command failed: No active device found", "NO_ACTIVE_DEVICE")


def restriction() -> SpotifyError:
    return SpotifyError(403, "Player command failed: Restriction violated", "UNKNOWN")


def context_tracks(state: SpotifyState, cat: Catalogue, context_uri: str) -> list[str]:
    parsed = parse_uri(context_uri)
    if parsed is None or parsed[0] not in ("album", "playlist", "artist"):
        raise SpotifyError(400, "Invalid context uri")
    kind, item_id = parsed
    if kind == "album" and item_id in cat.albums:
        return list(cat.albums[item_id].track_ids)
    if kind == "artist" and item_id in cat.artists:
        return list(cat.artists[item_id].top_track_ids)
    if kind == "playlist":
        own = find_playlist(state, item_id)
        if own is not None:
            return [i.id for i in own.items]
        if item_id in cat.public_playlists:
            return list(cat.public_playlists[item_id].track_ids)
    raise SpotifyError(404, "Not found.")


def active_device(state: SpotifyState, device_id: str | None = None) -> str:
    """The device a command targets: the active one, or ``device_id`` if that is the active one.

    Only ``play`` may move playback to another device (``transfer``); other commands aimed at an
    inactive device fail like Spotify's, without changing anything.
    """
    if device_id:
        if not any(d.id == device_id for d in state.devices):
            raise SpotifyError(404, "Device not found")
        if device_id != state.player.device_id:
            raise no_active_device()
        return device_id
    if state.player.device_id is None:
        raise no_active_device()
    return state.player.device_id


def transfer(state: SpotifyState, device_id: str) -> None:
    if not any(d.id == device_id for d in state.devices):
        raise SpotifyError(404, "Device not found")
    for dev in state.devices:
        dev.is_active = dev.id == device_id
    state.player.device_id = device_id


def _set_item(state: SpotifyState, cat: Catalogue, track_id: str) -> None:
    if state.player.item_id:
        state.history.append(state.player.item_id)
    state.player.item_id = track_id
    state.player.progress_ms = 0
    state.recently_played.insert(
        0,
        PlayHistory(
            track_id=track_id, played_at=cat.timestamp(state.clock), context_uri=state.player.context_uri
        ),
    )


def play(state: SpotifyState, cat: Catalogue, body: dict[str, Any], device_id: str | None) -> None:
    """Start a context or a list of uris, or resume; with ``device_id`` also transfer playback there.

    Everything is validated before anything changes, so a failed request leaves no trace in state.
    """
    context_uri, uris, offset = body.get("context_uri"), body.get("uris"), body.get("offset")
    if device_id:
        if not any(d.id == device_id for d in state.devices):
            raise SpotifyError(404, "Device not found")
    elif state.player.device_id is None:
        raise no_active_device()
    moving = bool(device_id) and device_id != state.player.device_id
    start_with: tuple[str | None, list[str], int] | None = None
    if context_uri:
        tracks = context_tracks(state, cat, str(context_uri))
        start_with = (str(context_uri), tracks, _offset_index(tracks, offset))
    elif uris:
        if not isinstance(uris, list) or not all(isinstance(u, str) for u in uris):
            raise SpotifyError(400, "uris must be a list of track uris")
        ids = [_track_id(cat, u) for u in uris]
        start_with = (None, ids, _offset_index(ids, offset))
    elif state.player.item_id is None or (state.player.is_playing and not moving):
        raise restriction()
    position = _position_ms(body.get("position_ms"))
    tick(state)
    if device_id:
        transfer(state, device_id)
    if start_with is not None:
        context, tracks, start = start_with
        state.player.context_uri = context
        _set_item(state, cat, tracks[start])
        state.context_queue = tracks[start + 1 :]
    if position is not None:
        state.player.progress_ms = position
    state.player.is_playing = True


def _position_ms(value: Any) -> int | None:
    """``position_ms`` as an int; numeric strings pass (the spec's own example sends ``"0"``)."""
    if value is None:
        return None
    try:
        position = int(value)
    except (TypeError, ValueError) as exc:
        raise SpotifyError(400, "Invalid position_ms") from exc
    if isinstance(value, bool) or position < 0:
        raise SpotifyError(400, "Invalid position_ms")
    return position


def _offset_index(tracks: list[str], offset: Any) -> int:
    if not tracks:
        raise SpotifyError(404, "Context is empty")
    if offset is None:
        return 0
    if not isinstance(offset, dict):
        raise SpotifyError(400, "offset must be an object with position or uri")
    if "position" in offset:
        try:
            index = int(offset["position"])
        except (TypeError, ValueError) as exc:
            raise SpotifyError(400, "Invalid offset position") from exc
        if not 0 <= index < len(tracks):
            raise SpotifyError(404, "Offset position out of range")
        return index
    if "uri" in offset:
        parsed = parse_uri(str(offset["uri"]))
        if parsed and parsed[1] in tracks:
            return tracks.index(parsed[1])
        raise SpotifyError(404, "Offset uri not in context")
    raise SpotifyError(400, "offset must have position or uri")


def _track_id(cat: Catalogue, track_uri: str) -> str:
    parsed = parse_uri(track_uri)
    if parsed is None or parsed[0] != "track":
        raise SpotifyError(400, f"Unsupported uri kind: {track_uri}")
    if parsed[1] not in cat.tracks:
        raise SpotifyError(404, f"Non existing id: '{track_uri}'")
    return parsed[1]


def pause(state: SpotifyState, device_id: str | None) -> None:
    active_device(state, device_id)
    if not state.player.is_playing:
        raise restriction()
    tick(state)
    state.player.is_playing = False


def skip_next(state: SpotifyState, cat: Catalogue, device_id: str | None) -> None:
    active_device(state, device_id)
    tick(state)
    if state.user_queue:
        _set_item(state, cat, state.user_queue.pop(0))
    elif state.context_queue:
        _set_item(state, cat, state.context_queue.pop(0))
    elif state.player.repeat_state == "context" and state.player.context_uri:
        tracks = context_tracks(state, cat, state.player.context_uri)
        _set_item(state, cat, tracks[0])
        state.context_queue = tracks[1:]
    else:
        state.player.is_playing = False
        return
    state.player.is_playing = True


def skip_previous(state: SpotifyState, cat: Catalogue, device_id: str | None) -> None:
    active_device(state, device_id)
    tick(state)
    if state.history:
        current = state.player.item_id
        previous = state.history.pop()
        if current:
            state.context_queue.insert(0, current)
        state.player.item_id = previous
        state.recently_played.insert(
            0,
            PlayHistory(
                track_id=previous, played_at=cat.timestamp(state.clock), context_uri=state.player.context_uri
            ),
        )
    state.player.progress_ms = 0
    state.player.is_playing = True


def add_to_queue(state: SpotifyState, cat: Catalogue, item_uri: str, device_id: str | None) -> None:
    active_device(state, device_id)
    track_id = _track_id(cat, item_uri)
    tick(state)
    state.user_queue.append(track_id)


def set_volume(state: SpotifyState, volume: int, device_id: str | None) -> None:
    target = active_device(state, device_id)
    if not 0 <= volume <= 100:
        raise SpotifyError(400, "Invalid volume_percent: must be between 0 and 100")
    tick(state)
    next(d for d in state.devices if d.id == target).volume_percent = volume


def set_repeat(state: SpotifyState, mode: str, device_id: str | None) -> None:
    active_device(state, device_id)
    if mode not in ("track", "context", "off"):
        raise SpotifyError(400, "Invalid state: must be track, context or off")
    tick(state)
    state.player.repeat_state = mode


def queue_ids(state: SpotifyState) -> list[str]:
    """What ``GET /me/player/queue`` lists after the current item: user queue, then the context."""
    return state.user_queue + state.context_queue
