"""What a real Spotify response to a call would hold: the reference ``spotify_realism.py`` sizes against.

``spotify_oas.json`` embeds no captured responses (only per-field ``example`` values), so a reference
is **reconstructed from the spec's response schema**: strings from the field's ``example`` where the
spec has one and otherwise a value of the real API's length (22-character ids, ``spotify:`` URIs, API
and CDN URLs), and these cardinalities, those of the real API in 2023:

- ``available_markets``: 180 (every album and track object, no ``market`` parameter); ``images``: 3
  sizes; ``genres``: 2; ``copyrights``: 2; ``artists`` of a track or album: 1;
- the main collection of a call: a search page, a discography page (``/artists/{id}/albums``), top
  items and recommendations fill the request's ``limit`` (default 20: the real totals run to the
  hundreds); ``top-tracks`` 10; ``related-artists`` 20; an album's tracks as many as the album
  holds (a single 1; the sandbox's albums run 10-16 tracks, as real studio albums do), and 13 (a
  typical album) for albums nested in other objects;
- the user's library (saved tracks and albums, playlists and their entries, follows, the queue):
  as many entries as the sandbox's user holds (restbench.md §8.4 fixes that state: a wiped
  account, then upstream's ``init_spotify``), so those calls compare object shapes, not counts.

Two shapes. **schema**: every property the schema declares. That overstates a real response,
because the spec (Spotify's reference of 2023) declares more than the API sends; **real** leaves out
what the real API leaves out, each for a reason in ``REAL_API`` below: what the spec's own field
descriptions say is conditional or null, and the nested objects Spotify's responses (and its later
reference) give in simplified form: a track's artists, an album's artists, the album inside a track,
a playlist's owner and ``added_by``. ``absent(...)`` compares either shape's property paths with a
sandbox body (``spotify_realism.py --diff``): a path the real shape has and the sandbox lacks is a
gap to fill; one only the schema shape has is the spec overstating the API.
"""

from __future__ import annotations

from fnmatch import fnmatch
from typing import Any

from restgraph.tools.sandbox.spotify import wire

CARD = {"available_markets": 180, "images": 3, "genres": 2, "copyrights": 2, "artists": 1, "items": 13}
ID = "4iV5W9uYEdYUVa79Axb7Rh"
STRINGS = {
    "id": ID,
    "uri": f"spotify:track:{ID}",
    "href": f"https://api.spotify.com/v1/tracks/{ID}",
    "spotify": f"https://open.spotify.com/track/{ID}",
    "url": "https://i.scdn.co/image/ab67616d0000b2731234567890abcdef12345678",
    "preview_url": "https://p.scdn.co/mp3-preview/3eb16018c2a700240e9dfb8817b6f2d041f15eb1?cid=774b29d4f13844c495f206cafdad9c86",
    "available_markets": "US",
    "name": "A Song Title of Length",
    "release_date": "2017-11-10",
}
_NESTING = ("TrackObject", "SimplifiedTrackObject", "AlbumObject", "SimplifiedAlbumObject")
#: (object, property, the objects it sits in or "*", why the real API sends no such property there)
REAL_API: tuple[tuple[str, str, tuple[str, ...] | str, str], ...] = (
    ("*", "restrictions", "*", "the spec: 'Included in the response when a content restriction is applied'"),
    ("*", "linked_from", "*", "the spec: 'Part of the response when Track Relinking is applied' (market)"),
    *(
        ("ArtistObject", key, _NESTING, "a track's or album's artists are SimplifiedArtistObjects")
        for key in ("followers", "genres", "images", "popularity")
    ),
    *(
        ("SimplifiedAlbumObject", key, "*", "only the full AlbumObject carries it")
        for key in ("copyrights", "external_ids", "genres", "label", "popularity")
    ),
    ("ExternalIdObject", "ean", "*", "tracks carry an isrc, albums a upc"),
    ("ExternalIdObject", "upc", ("TrackObject",), "tracks carry an isrc, albums a upc"),
    ("ExternalIdObject", "isrc", ("AlbumObject",), "tracks carry an isrc, albums a upc"),
    *(
        (obj, "followers", "*", "a playlist's owner and added_by carry no followers")
        for obj in ("PlaylistOwnerObject", "PlaylistUserObject")
    ),
)
#: cardinalities of the real shape that differ from ``CARD``: (object, array) -> length
REAL_CARD = {("PrivateUserObject", "images"): 2}  # profile pictures: 64 and 300 pixels
#: what ``/me/player/currently-playing`` leaves out of the spec's CurrentlyPlayingContextObject
_CURRENTLY_PLAYING = ("device", "repeat_state", "shuffle_state")


def docs_type(schema: dict[str, Any]) -> str | None:
    """The spec's ``x-spotify-docs-type`` of a schema, looking through ``allOf`` wrappers."""
    if "x-spotify-docs-type" in schema:
        return str(schema["x-spotify-docs-type"])
    for part in schema.get("allOf", []):
        found = docs_type(part)
        if found:
            return found
    return None


def properties(schema: dict[str, Any]) -> dict[str, Any]:
    """The properties of a schema, through nested ``allOf`` (later parts override earlier ones)."""
    out: dict[str, Any] = {}
    for part in schema.get("allOf", []):
        out.update(properties(part))
    out.update(schema.get("properties", {}))
    return out


class Reference:
    """Builds the reference body of one call (``real``: the real API's shape, else the schema's)."""

    def __init__(self, template: str, params: dict[str, Any], main: str, count: int, real: bool):
        self.template, self.params, self.main, self.count, self.real = template, params, main, count, real

    def sends(self, obj: str | None, key: str, parent: str | None) -> bool:
        if not self.real:
            return True
        if key == "is_playable":  # the spec: part of the response when a market is given
            return "market" in self.params
        if key == "album_group":  # the spec: "present when getting an artist's albums"
            return self.template == "/artists/{id}/albums"
        if key == "before" and self.template == "/me/following":
            return False  # the followed artists page forward only: their cursor has an ``after``
        if key in _CURRENTLY_PLAYING and self.template == "/me/player/currently-playing":
            return False  # Spotify's reference: a CurrentlyPlayingObject, without the device's fields
        return not any(
            o in ("*", obj) and k == key and (where == "*" or parent in where) for o, k, where, _ in REAL_API
        )

    def build(self, schema: dict[str, Any], path: str = "", parent: str | None = None) -> Any:
        for key in ("oneOf", "anyOf"):
            if key in schema:
                return self.build(schema[key][0], path, parent)
        obj = docs_type(schema)
        if "allOf" in schema:
            schema = {"type": "object", "properties": properties(schema)}
        kind = schema.get("type") or ("object" if "properties" in schema else None)
        name = path.rsplit(".", 1)[-1]
        if kind == "object":
            return {
                k: self.build(v, f"{path}.{k}" if path else k, obj or parent)
                for k, v in schema.get("properties", {}).items()
                if self.sends(obj, k, parent)
            }
        if kind == "array":
            n = CARD.get(name, 1)
            if self.real:
                n = REAL_CARD.get((parent or "", name), n)
            n = self.count if fnmatch(path, self.main) else n
            return [self.build(schema.get("items", {}), path, parent) for _ in range(n)]
        example = schema.get("example")
        if kind == "string":
            if self.real and name == "href" and parent == "FollowersObject":
                return None  # the spec: "This will always be set to null"
            return STRINGS.get(name, example if isinstance(example, str) else "x" * 12)
        if kind in ("integer", "number"):
            return example if isinstance(example, (int, float)) else 123456
        if kind == "boolean":
            return example if isinstance(example, bool) else True
        return None


def drop_markets(node: Any) -> Any:
    """With a ``market``, objects carry ``is_playable`` instead of ``available_markets``."""
    if isinstance(node, dict):
        return {k: drop_markets(v) for k, v in node.items() if k != "available_markets"}
    if isinstance(node, list):
        return [drop_markets(v) for v in node]
    return node


def paths(node: Any, prefix: str = "", out: set[str] | None = None) -> set[str]:
    """Every property path of a JSON value (``a.b[].c``), list items merged."""
    out = set() if out is None else out
    if isinstance(node, dict):
        for key, value in node.items():
            path = f"{prefix}.{key}" if prefix else key
            out.add(path)
            paths(value, path, out)
    elif isinstance(node, list):
        for value in node:
            paths(value, prefix + "[]", out)
    return out


def absent(reference: Any, body: Any) -> list[str]:
    """The outermost property paths of ``reference`` that ``body`` lacks."""
    missing = paths(reference) - paths(body)
    return sorted(p for p in missing if not any(p.startswith((m + ".", m + "[]")) for m in missing if m != p))


def size(body: Any) -> int:
    """Bytes on the wire as the real API sent them (``wire``: Jackson's pretty printing, UTF-8), the
    format the sandbox answers in: a reference and a sandbox body are sized alike."""
    return 0 if body is None else len(wire.dumps(body))
