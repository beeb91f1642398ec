"""The user's library: profile, saved tracks and albums, follows, top items, and playlists."""

from __future__ import annotations

from typing import Any

from restgraph.tools.sandbox.spotify import library
from restgraph.tools.sandbox.spotify.catalogue import API_BASE, is_base62_id, parse_uri
from restgraph.tools.sandbox.spotify.context import Ctx, Reply
from restgraph.tools.sandbox.spotify.models import Playlist, PublicPlaylist
from restgraph.tools.sandbox.spotify.player import SpotifyError
from restgraph.tools.sandbox.spotify.render import page, snapshot_id


def get_me(ctx: Ctx) -> Reply:
    return Reply(body=ctx.render.private_user(ctx.state))


def _check_known(ctx: Ctx, ids: list[str], table: dict[str, Any], kind: str) -> None:
    for item_id in ids:
        ctx.known(item_id, table, kind)


def get_saved_tracks(ctx: Ctx) -> Reply:
    limit, offset = ctx.limit_offset()
    return Reply(
        body=page(
            ctx.state.saved_tracks,
            f"{API_BASE}/me/tracks",
            limit,
            offset,
            render=lambda s: {"added_at": s.added_at, "track": ctx.render.track_by_id(s.id)},
        )
    )


def put_saved_tracks(ctx: Ctx) -> Reply:
    ids = ctx.id_list()
    _check_known(ctx, ids, ctx.cat.tracks, "track")
    library.save_tracks(ctx.state, ctx.cat, ids)
    return Reply(200)


def delete_saved_tracks(ctx: Ctx) -> Reply:
    ids = ctx.id_list()
    library.remove_tracks(ctx.state, ids)
    return Reply(200)


def get_saved_albums(ctx: Ctx) -> Reply:
    limit, offset = ctx.limit_offset()
    return Reply(
        body=page(
            ctx.state.saved_albums,
            f"{API_BASE}/me/albums",
            limit,
            offset,
            render=lambda s: {"added_at": s.added_at, "album": ctx.render.album(ctx.cat.albums[s.id])},
        )
    )


def put_saved_albums(ctx: Ctx) -> Reply:
    ids = ctx.id_list(maximum=20)
    _check_known(ctx, ids, ctx.cat.albums, "album")
    library.save_albums(ctx.state, ctx.cat, ids)
    return Reply(200)


def delete_saved_albums(ctx: Ctx) -> Reply:
    library.remove_albums(ctx.state, ctx.id_list(maximum=20))
    return Reply(200)


def _follow_type(ctx: Ctx, allowed: tuple[str, ...]) -> str:
    kind = ctx.required("type")
    if kind not in allowed:
        raise SpotifyError(400, f"Invalid type: must be {' or '.join(allowed)}")
    return kind


def get_following(ctx: Ctx) -> Reply:
    _follow_type(ctx, ("artist",))
    limit = ctx.int_param("limit", 20, 1, 50)
    ids = list(ctx.state.followed_artists)
    after = ctx.params.get("after")
    if after:
        ids = ids[ids.index(after) + 1 :] if after in ids else []
    chunk = ids[:limit]
    body: dict[str, Any] = {
        "href": f"{API_BASE}/me/following?type=artist&limit={limit}",
        "limit": limit,
        "total": len(ctx.state.followed_artists),
        "cursors": {},
        "items": [ctx.render.artist(ctx.cat.artists[a]) for a in chunk],
    }
    if len(ids) > limit:
        body["cursors"] = {"after": chunk[-1]}
        body["next"] = f"{API_BASE}/me/following?type=artist&after={chunk[-1]}&limit={limit}"
    return Reply(body={"artists": body})


def put_following(ctx: Ctx) -> Reply:
    kind = _follow_type(ctx, ("artist", "user"))
    ids = ctx.id_list() if kind == "artist" else [i for i in ctx.params.get("ids", "").split(",") if i]
    if kind == "artist":
        _check_known(ctx, ids, ctx.cat.artists, "artist")
        library.follow(ctx.state, ids)
    return Reply(204)


def delete_following(ctx: Ctx) -> Reply:
    kind = _follow_type(ctx, ("artist", "user"))
    if kind == "artist":
        library.unfollow(ctx.state, ctx.id_list())
    return Reply(200)


def get_top(ctx: Ctx) -> Reply:
    kind = ctx.path_params["type"]
    if kind not in ("artists", "tracks"):
        raise SpotifyError(400, "Invalid type: must be artists or tracks")
    if ctx.params.get("time_range", "medium_term") not in ("long_term", "medium_term", "short_term"):
        raise SpotifyError(400, "Invalid time_range")
    limit, offset = ctx.limit_offset()
    if kind == "artists":
        body = page(
            ctx.state.top_artists,
            f"{API_BASE}/me/top/{kind}",
            limit,
            offset,
            render=lambda a: ctx.render.artist(ctx.cat.artists[a]),
        )
    else:
        body = page(
            ctx.state.top_tracks, f"{API_BASE}/me/top/{kind}", limit, offset, render=ctx.render.track_by_id
        )
    return Reply(body=body)


def get_my_playlists(ctx: Ctx) -> Reply:
    limit, offset = ctx.limit_offset()
    rows = [ctx.render.simple_playlist(p) for p in ctx.state.playlists]
    return Reply(body=page(rows, f"{API_BASE}/me/playlists", limit, offset))


def create_playlist(ctx: Ctx) -> Reply:
    user_id = ctx.path_params["user_id"]
    body = ctx.body_dict()
    if user_id != ctx.state.user.id:
        raise SpotifyError(403, "You cannot create a playlist for another user")
    name = body.get("name")
    if not isinstance(name, str) or not name.strip():
        raise SpotifyError(400, "Missing required field: name")
    public = _as_bool(body.get("public", True), "public")
    collaborative = _as_bool(body.get("collaborative", False), "collaborative")
    description = body.get("description")
    pl = library.create_playlist(
        ctx.state, name, description if isinstance(description, str) else None, public, collaborative
    )
    return Reply(201, ctx.render.playlist(pl))


def _as_bool(value: Any, name: str) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    raise SpotifyError(400, f"Invalid {name}: must be a boolean")


def _playlist(ctx: Ctx, *, editable: bool = False) -> Playlist | PublicPlaylist:
    playlist_id = ctx.path_params["playlist_id"]
    own = library.find_playlist(ctx.state, playlist_id)
    if own is not None:
        if editable and own.owner_id != ctx.state.user.id:
            raise SpotifyError(403, "You cannot modify a playlist you do not own")
        return own
    if not is_base62_id(playlist_id):
        raise SpotifyError(400, "Invalid base62 id")
    if playlist_id in ctx.cat.public_playlists:
        if editable:
            raise SpotifyError(403, "You cannot modify a playlist you do not own")
        return ctx.cat.public_playlists[playlist_id]
    raise SpotifyError(404, "Not found.")


def get_playlist(ctx: Ctx) -> Reply:
    return Reply(body=ctx.render.playlist(_playlist(ctx)))


def put_playlist(ctx: Ctx) -> Reply:
    pl = _playlist(ctx, editable=True)
    body = ctx.body_dict()
    changes: dict[str, Any] = {}
    if "name" in body:
        if not isinstance(body["name"], str) or not body["name"].strip():
            raise SpotifyError(400, "Invalid name")
        changes["name"] = body["name"]
    if "description" in body:
        changes["description"] = None if body["description"] is None else str(body["description"])
    for key in ("public", "collaborative"):
        if key in body:
            changes[key] = _as_bool(body[key], key)
    assert isinstance(pl, Playlist)
    library.update_playlist(ctx.state, pl, changes)
    return Reply(200)


def get_playlist_tracks(ctx: Ctx) -> Reply:
    pl = _playlist(ctx)
    limit, offset = ctx.limit_offset(default_limit=100, max_limit=100)
    return Reply(
        body=page(
            ctx.render.playlist_rows(pl),
            f"{API_BASE}/playlists/{pl.id}/tracks",
            limit,
            offset,
            render=ctx.render.playlist_item,
        )
    )


def _track_uris(ctx: Ctx, uris: list[Any]) -> list[str]:
    ids = []
    for item in uris:
        parsed = parse_uri(str(item))
        if parsed is None or parsed[0] != "track":
            raise SpotifyError(400, f"Invalid track uri: {item}")
        ids.append(ctx.known(parsed[1], ctx.cat.tracks, "track").id)
    return ids


def add_playlist_tracks(ctx: Ctx) -> Reply:
    pl = _playlist(ctx, editable=True)
    body = ctx.body_dict()
    raw = ctx.params.get("uris")
    uris: list[Any] = [u for u in raw.split(",") if u] if raw else body.get("uris") or []
    if not isinstance(uris, list) or not uris:
        raise SpotifyError(400, "Missing required parameter: uris")
    if len(uris) > 100:
        raise SpotifyError(400, "You can add a maximum of 100 tracks per request")
    position_raw = ctx.params.get("position", body.get("position"))
    position = None
    if position_raw is not None:
        try:
            position = int(position_raw)
        except (TypeError, ValueError) as exc:
            raise SpotifyError(400, "Invalid position") from exc
        if position < 0:
            raise SpotifyError(400, "Invalid position")
    assert isinstance(pl, Playlist)
    library.add_to_playlist(ctx.state, ctx.cat, pl, _track_uris(ctx, uris), position)
    return Reply(201, {"snapshot_id": snapshot_id(pl)})


def remove_playlist_tracks(ctx: Ctx) -> Reply:
    pl = _playlist(ctx, editable=True)
    body = ctx.body_dict()
    tracks = body.get("tracks")
    if not isinstance(tracks, list) or not tracks:
        raise SpotifyError(400, "Missing required field: tracks")
    removals: list[tuple[str, list[int] | None]] = []
    for entry in tracks:
        if not isinstance(entry, dict) or "uri" not in entry:
            raise SpotifyError(400, "Each entry of tracks must be an object with a uri")
        (track_id,) = _track_uris(ctx, [entry["uri"]])
        positions = entry.get("positions")
        if positions is not None and not (
            isinstance(positions, list) and all(isinstance(p, int) for p in positions)
        ):
            raise SpotifyError(400, "positions must be a list of integers")
        removals.append((track_id, positions))
    assert isinstance(pl, Playlist)
    library.remove_from_playlist(ctx.state, pl, removals)
    return Reply(200, {"snapshot_id": snapshot_id(pl)})


ROUTES = [
    ("GET", "/me", get_me),
    ("GET", "/me/tracks", get_saved_tracks),
    ("PUT", "/me/tracks", put_saved_tracks),
    ("DELETE", "/me/tracks", delete_saved_tracks),
    ("GET", "/me/albums", get_saved_albums),
    ("PUT", "/me/albums", put_saved_albums),
    ("DELETE", "/me/albums", delete_saved_albums),
    ("GET", "/me/following", get_following),
    ("PUT", "/me/following", put_following),
    ("DELETE", "/me/following", delete_following),
    ("GET", "/me/top/{type}", get_top),
    ("GET", "/me/playlists", get_my_playlists),
    ("POST", "/users/{user_id}/playlists", create_playlist),
    ("GET", "/playlists/{playlist_id}", get_playlist),
    ("PUT", "/playlists/{playlist_id}", put_playlist),
    ("GET", "/playlists/{playlist_id}/tracks", get_playlist_tracks),
    ("POST", "/playlists/{playlist_id}/tracks", add_playlist_tracks),
    ("DELETE", "/playlists/{playlist_id}/tracks", remove_playlist_tracks),
]
