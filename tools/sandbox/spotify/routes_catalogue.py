"""Read-only catalogue endpoints: albums, artists, tracks, search, new releases, recommendations."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from restgraph.tools.sandbox.spotify.catalogue import API_BASE, uri
from restgraph.tools.sandbox.spotify.context import Ctx, Reply
from restgraph.tools.sandbox.spotify.player import SpotifyError
from restgraph.tools.sandbox.spotify.render import page
from restgraph.tools.sandbox.spotify.search import KINDS, search

_GROUPS = ("album", "single", "compilation", "appears_on")
_SEARCH_TYPES = ("album", "artist", "playlist", "track", "show", "episode", "audiobook")


def get_album(ctx: Ctx) -> Reply:
    album = ctx.known(ctx.path_params["id"], ctx.cat.albums, "album")
    return Reply(body=ctx.render.album(album))


def get_album_tracks(ctx: Ctx) -> Reply:
    album = ctx.known(ctx.path_params["id"], ctx.cat.albums, "album")
    limit, offset = ctx.limit_offset()
    items = [ctx.cat.tracks[t] for t in album.track_ids]
    return Reply(
        body=page(
            items, f"{API_BASE}/albums/{album.id}/tracks", limit, offset, render=ctx.render.simple_track
        )
    )


def get_artist(ctx: Ctx) -> Reply:
    return Reply(body=ctx.render.artist(ctx.known(ctx.path_params["id"], ctx.cat.artists, "artist")))


def get_artist_albums(ctx: Ctx) -> Reply:
    artist = ctx.known(ctx.path_params["id"], ctx.cat.artists, "artist")
    limit, offset = ctx.limit_offset()
    groups = [g.strip() for g in ctx.params.get("include_groups", "").split(",") if g.strip()] or list(
        _GROUPS
    )
    if any(g not in _GROUPS for g in groups):
        raise SpotifyError(400, "Invalid include_groups: use album, single, appears_on or compilation")
    rows = []
    for album in ctx.cat.artist_albums(artist.id):
        group = album.album_type if album.artist_ids[0] == artist.id else "appears_on"
        if group in groups:
            rows.append((album, group))
    extra = {"include_groups": ",".join(groups)} if "include_groups" in ctx.params else None
    return Reply(
        body=page(
            rows,
            f"{API_BASE}/artists/{artist.id}/albums",
            limit,
            offset,
            extra,
            render=lambda row: ctx.render.simple_album(*row),
        )
    )


def get_related_artists(ctx: Ctx) -> Reply:
    artist = ctx.known(ctx.path_params["id"], ctx.cat.artists, "artist")
    return Reply(body={"artists": [ctx.render.artist(ctx.cat.artists[a]) for a in artist.related_artist_ids]})


def get_top_tracks(ctx: Ctx) -> Reply:
    artist = ctx.known(ctx.path_params["id"], ctx.cat.artists, "artist")
    ctx.market()
    return Reply(body={"tracks": [ctx.render.track_by_id(t) for t in artist.top_track_ids]})


def get_track(ctx: Ctx) -> Reply:
    return Reply(body=ctx.render.track(ctx.known(ctx.path_params["id"], ctx.cat.tracks, "track")))


def get_new_releases(ctx: Ctx) -> Reply:
    limit, offset = ctx.limit_offset()
    country = ctx.params.get("country")
    if country is not None and (len(country) != 2 or not country.isalpha()):
        raise SpotifyError(400, "Invalid country code")
    return Reply(
        body={
            "albums": page(
                ctx.cat.new_releases(),
                f"{API_BASE}/browse/new-releases",
                limit,
                offset,
                render=ctx.render.simple_album,
            )
        }
    )


def get_search(ctx: Ctx) -> Reply:
    q = ctx.required("q")
    kinds = [k.strip().lower() for k in ctx.required("type").split(",") if k.strip()]
    if not kinds or any(k not in _SEARCH_TYPES for k in kinds):
        raise SpotifyError(400, "Bad search type field")
    limit, offset = ctx.limit_offset(max_limit=50)
    if offset > 1000:
        raise SpotifyError(400, "Invalid offset: must be at most 1000")
    ctx.market()
    wanted = [k for k in kinds if k in KINDS]
    found = search({k: ctx.cat.index(k) for k in wanted}, ctx.state.playlists, q, wanted)
    render: dict[str, Callable[[Any], dict[str, Any]]] = {
        "track": ctx.render.track,
        "album": ctx.render.simple_album,
        "artist": ctx.render.artist,
        "playlist": ctx.render.simple_playlist,
    }
    body = {}
    for kind in kinds:
        items = found.get(kind, [])
        chunk = items[offset : offset + limit]
        ctx.returned_uris.extend(uri(kind, item.id) for item in chunk)
        body[f"{kind}s"] = page(
            items, f"{API_BASE}/search", limit, offset, {"query": q, "type": kind}, render=render.get(kind)
        )
    return Reply(body=body)


def get_recommendations(ctx: Ctx) -> Reply:
    limit = ctx.int_param("limit", 20, 1, 100)
    seeds = {
        key: [s.strip() for s in ctx.params.get(f"seed_{key}", "").split(",") if s.strip()]
        for key in ("artists", "genres", "tracks")
    }
    if not any(seeds.values()):
        raise SpotifyError(400, "At least one seed (seed_artists, seed_genres or seed_tracks) is required")
    if sum(len(v) for v in seeds.values()) > 5:
        raise SpotifyError(400, "At most 5 seeds in total")
    artists: list[str] = []
    for artist_id in seeds["artists"]:
        artist = ctx.known(artist_id, ctx.cat.artists, "artist")
        artists += [artist.id, *artist.related_artist_ids]
    for track_id in seeds["tracks"]:
        track = ctx.known(track_id, ctx.cat.tracks, "track")
        for artist_id in track.artist_ids:
            artists += [artist_id, *ctx.cat.artists[artist_id].related_artist_ids]
    genres = {g.lower() for g in seeds["genres"]}
    artists += [a.id for a in ctx.cat.data.artists if genres & set(a.genres)]
    found: dict[str, None] = {}
    for artist_id in dict.fromkeys(artists):
        found.update((t, None) for t in ctx.cat.artists[artist_id].top_track_ids if t not in seeds["tracks"])
        if len(found) >= 250:  # the real pool's order of size; a genre seed matches hundreds of artists
            break
    pool = list(found)
    seed_objects = [
        {
            "afterFilteringSize": len(pool),
            "afterRelinkingSize": len(pool),
            "href": f"{API_BASE}/{'artists' if k == 'artists' else 'tracks'}/{s}" if k != "genres" else "",
            "id": s,
            "initialPoolSize": len(pool),
            "type": k[:-1].upper(),
        }
        for k, v in seeds.items()
        for s in v
    ]
    return Reply(body={"seeds": seed_objects, "tracks": [ctx.render.track_by_id(t) for t in pool[:limit]]})


ROUTES = [
    ("GET", "/albums/{id}", get_album),
    ("GET", "/albums/{id}/tracks", get_album_tracks),
    ("GET", "/artists/{id}", get_artist),
    ("GET", "/artists/{id}/albums", get_artist_albums),
    ("GET", "/artists/{id}/related-artists", get_related_artists),
    ("GET", "/artists/{id}/top-tracks", get_top_tracks),
    ("GET", "/browse/new-releases", get_new_releases),
    ("GET", "/recommendations", get_recommendations),
    ("GET", "/search", get_search),
    ("GET", "/tracks/{id}", get_track),
]
