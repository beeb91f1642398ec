"""Player endpoints (``/me/player/...``): state, devices, queue, and playback commands (204)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from restgraph.tools.sandbox.spotify import player
from restgraph.tools.sandbox.spotify.catalogue import API_BASE, parse_uri
from restgraph.tools.sandbox.spotify.context import Ctx, Reply
from restgraph.tools.sandbox.spotify.player import SpotifyError


def _device(ctx: Ctx) -> str | None:
    return ctx.params.get("device_id") or None


def get_playback(ctx: Ctx) -> Reply:
    if ctx.state.player.device_id is None:
        return Reply(204)
    return Reply(body=ctx.render.playback(ctx.state))


def get_currently_playing(ctx: Ctx) -> Reply:
    if ctx.state.player.item_id is None:
        return Reply(204)
    return Reply(body=ctx.render.playback(ctx.state, with_device=False))


def get_devices(ctx: Ctx) -> Reply:
    return Reply(body={"devices": [ctx.render.device(ctx.state, d.id) for d in ctx.state.devices]})


def get_queue(ctx: Ctx) -> Reply:
    body: dict[str, Any] = {"queue": [ctx.render.track_by_id(t) for t in player.queue_ids(ctx.state)[:20]]}
    if ctx.state.player.item_id:
        body["currently_playing"] = ctx.render.track_by_id(ctx.state.player.item_id)
    return Reply(body=body)


def post_queue(ctx: Ctx) -> Reply:
    item_uri = ctx.required("uri")
    parsed = parse_uri(item_uri)
    if parsed is None or parsed[0] not in ("track", "episode"):
        raise SpotifyError(400, "Invalid uri: must be a track or episode uri")
    player.add_to_queue(ctx.state, ctx.cat, item_uri, _device(ctx))
    return Reply(204)


def get_recently_played(ctx: Ctx) -> Reply:
    limit = ctx.int_param("limit", 20, 1, 50)
    if ctx.params.get("after") and ctx.params.get("before"):
        raise SpotifyError(400, "Only one of after and before may be given")
    rows = list(ctx.state.recently_played)
    stamps = [(_millis(r.played_at), r) for r in rows]
    for key, keep in (("before", lambda ms, cut: ms < cut), ("after", lambda ms, cut: ms > cut)):
        if ctx.params.get(key):
            try:
                cut = int(ctx.params[key])
            except ValueError as exc:
                raise SpotifyError(400, f"Invalid {key}: a unix timestamp in milliseconds") from exc
            stamps = [(ms, r) for ms, r in stamps if keep(ms, cut)]
    chunk = stamps[:limit]
    items = [
        {
            "track": ctx.render.track_by_id(r.track_id),
            "played_at": r.played_at,
            **({"context": ctx.render.context(r.context_uri)} if r.context_uri else {}),
        }
        for _, r in chunk
    ]
    body: dict[str, Any] = {
        "href": f"{API_BASE}/me/player/recently-played?limit={limit}",
        "limit": limit,
        "total": len(stamps),
        "items": items,
        "cursors": {},
    }
    if chunk:
        body["cursors"] = {"after": str(chunk[0][0]), "before": str(chunk[-1][0])}
    if len(stamps) > limit:
        body["next"] = f"{API_BASE}/me/player/recently-played?before={chunk[-1][0]}&limit={limit}"
    return Reply(body=body)


def _millis(iso: str) -> int:
    return int(datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp() * 1000)


def put_play(ctx: Ctx) -> Reply:
    player.play(ctx.state, ctx.cat, ctx.body_dict(), _device(ctx))
    return Reply(204)


def put_pause(ctx: Ctx) -> Reply:
    player.pause(ctx.state, _device(ctx))
    return Reply(204)


def post_next(ctx: Ctx) -> Reply:
    player.skip_next(ctx.state, ctx.cat, _device(ctx))
    return Reply(204)


def post_previous(ctx: Ctx) -> Reply:
    player.skip_previous(ctx.state, ctx.cat, _device(ctx))
    return Reply(204)


def put_repeat(ctx: Ctx) -> Reply:
    player.set_repeat(ctx.state, ctx.required("state"), _device(ctx))
    return Reply(204)


def put_volume(ctx: Ctx) -> Reply:
    volume = ctx.int_param("volume_percent", -1, -(10**9), 10**9)
    if "volume_percent" not in ctx.params:
        raise SpotifyError(400, "Missing required parameter: volume_percent")
    player.set_volume(ctx.state, volume, _device(ctx))
    return Reply(204)


ROUTES = [
    ("GET", "/me/player", get_playback),
    ("GET", "/me/player/currently-playing", get_currently_playing),
    ("GET", "/me/player/devices", get_devices),
    ("POST", "/me/player/next", post_next),
    ("PUT", "/me/player/pause", put_pause),
    ("PUT", "/me/player/play", put_play),
    ("POST", "/me/player/previous", post_previous),
    ("GET", "/me/player/queue", get_queue),
    ("POST", "/me/player/queue", post_queue),
    ("GET", "/me/player/recently-played", get_recently_played),
    ("PUT", "/me/player/repeat", put_repeat),
    ("PUT", "/me/player/volume", put_volume),
]
