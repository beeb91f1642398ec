"""How close the Spotify sandbox's responses come to the real API's: sizes on the oracle's path.

``spotify_oas.json`` embeds no captured responses (only per-field ``example`` values), so the
reference for each call is **reconstructed from the spec's response schema**: every property the
schema declares (Spotify returns them all), strings from the field's ``example`` where the spec has
one and otherwise a value of the real API's length (22-character ids, ``spotify:`` URIs, API and CDN
URLs), and these cardinalities, those of the real API in 2023:

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

For every endpoint on RestBench's Spotify gold paths it prints the sandbox's median wire size over
the oracle run (the 57 reference solutions replayed in process), the reference's median over the
same calls, and the ratio; then the median oracle-path GET body, the share of oracle-path responses
longer than 1,000 and 2,500 tokens (bytes/4; 1,000 tokens is the reading cut of RestGPT's
w/o-parser ablation), the searches of issue 32 (page sizes and totals per type), and the fewest
``available_markets`` on any album or track object served without ``market``.

Usage: ``python bench/spotify_realism.py``. Needs ``$RESTGRAPH_DATA_DIR``. Prints numbers; asserts nothing.
"""

from __future__ import annotations

import json
import os
import re
import statistics
from collections import defaultdict
from fnmatch import fnmatch
from typing import Any

from fastapi.testclient import TestClient

from restgraph.evals.datasets.restbench import load_queries, load_spec
from restgraph.tools.openapi import operations
from restgraph.tools.placeholders import substitute
from restgraph.tools.sandbox.spotify.app import ROUTES, create_app
from restgraph.tools.sandbox.spotify.solutions import reference_solutions

CARD = {"available_markets": 180, "images": 3, "genres": 2, "copyrights": 2, "artists": 1, "items": 13}
#: where each endpoint's main collection sits in its body (a glob over the dotted path)
MAIN = {
    "/search": "*.items",
    "/me/player/queue": "queue",
    "/artists/{id}/related-artists": "artists",
    "/artists/{id}/top-tracks": "tracks",
    "/recommendations": "tracks",
    "/me/player/devices": "devices",
    "/browse/new-releases": "albums.items",
    "/me/following": "artists.items",
    "/albums/{id}": "tracks.items",
    "/playlists/{playlist_id}": "tracks.items",
    "/users/{user_id}/playlists": "tracks.items",  # a new playlist: as many entries as it has (none)
}
#: main-collection sizes that do not come from ``limit`` or the user's state
FIXED = {"/artists/{id}/top-tracks": 10, "/artists/{id}/related-artists": 20}
FILLS_LIMIT = (
    "/search",
    "/artists/{id}/albums",
    "/me/top/{type}",
    "/recommendations",
    "/browse/new-releases",
)
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
_ROUTES = [(re.compile("^" + re.sub(r"\{(\w+)\}", "[^/]+", path) + "$"), path) for _, path, _ in ROUTES]


def _template(path: str) -> str:
    return next(t for pattern, t in _ROUTES if pattern.match(path))


def _properties(schema: dict[str, Any]) -> dict[str, Any]:
    """The properties of a schema, through nested ``allOf`` (later parts override earlier ones)."""
    out: dict[str, Any] = {}
    for part in schema.get("allOf", []):
        out.update(_properties(part))
    out.update(schema.get("properties", {}))
    return out


def build(schema: dict[str, Any], path: str, main: str, count: int) -> Any:
    """A value of ``schema`` at dotted ``path`` with the cardinalities above (``count`` for ``main``)."""
    for key in ("oneOf", "anyOf"):
        if key in schema:
            return build(schema[key][0], path, main, count)
    if "allOf" in schema:
        schema = {"type": "object", "properties": _properties(schema)}
    kind = schema.get("type") or ("object" if "properties" in schema else None)
    name = path.rsplit(".", 1)[-1]
    if kind == "object":
        props = schema.get("properties", {})
        return {k: build(v, f"{path}.{k}" if path else k, main, count) for k, v in props.items()}
    if kind == "array":
        n = count if fnmatch(path, main) else CARD.get(name, 1)
        return [build(schema.get("items", {}), path, main, count) for _ in range(n)]
    example = schema.get("example")
    if kind == "string":
        return STRINGS.get(name, example if isinstance(example, str) else "x" * 12)
    if kind in ("integer", "number"):
        return example if isinstance(example, (int, float)) else 123456
    if kind == "boolean":
        return example if isinstance(example, bool) else True
    return None


def _main_count(template: str, params: dict[str, Any], body: Any, main: str) -> int:
    if template in FIXED:
        return FIXED[template]
    if template in FILLS_LIMIT:
        return int(params.get("limit", 20))
    node = body  # the user's library and album track lists: as many as the sandbox holds
    for part in main.split("."):
        if not isinstance(node, dict):
            return 0
        node = next(iter(node.values())) if part == "*" else node.get(part)
    return len(node) if isinstance(node, list) else 0


def reference(op: Any, template: str, params: dict[str, Any], body: Any) -> Any:
    schema = next((op.response_schema(s) for s in (200, 201) if op.response_schema(s)), None)
    if schema is None:
        return None
    main = MAIN.get(template, "items")
    value = build(schema, "", main, _main_count(template, params, body, main))
    if "market" in params:  # with a market, objects carry is_playable instead of available_markets
        value = _drop_markets(value)
    if template == "/search":  # the real API answers only the requested types
        wanted = {f"{t.strip()}s" for t in str(params["type"]).split(",")}
        value = {k: v for k, v in value.items() if k in wanted}
    return value


def _drop_markets(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _drop_markets(v) for k, v in node.items() if k != "available_markets"}
    if isinstance(node, list):
        return [_drop_markets(v) for v in node]
    return node


def _size(body: Any) -> int:
    return 0 if body is None else len(json.dumps(body, separators=(",", ":"), ensure_ascii=False))


def oracle_calls() -> list[tuple[str, str, dict[str, Any], Any, int]]:
    """(method, template, params, body, wire bytes) of every call of the 57 reference solutions."""
    out = []
    for qid, solution in sorted(reference_solutions().items()):
        client = TestClient(create_app(), base_url="https://api.spotify.com")
        client.headers["Authorization"] = f"Bearer realism-{qid}"
        responses: list[Any] = []
        for call in solution["calls"]:
            resolved = substitute(call, responses)
            response = client.request(
                resolved["method"], "/v1" + resolved["path"], params=resolved["params"], json=resolved["body"]
            )
            body = response.json() if response.content else None
            responses.append(body)
            out.append(
                (
                    resolved["method"],
                    _template(resolved["path"]),
                    resolved["params"] or {},
                    body,
                    len(response.content),
                )
            )
    return out


def _markets_floor(calls: list[tuple[str, str, dict[str, Any], Any, int]]) -> int:
    floor = 10**9

    def walk(node: Any) -> None:
        nonlocal floor
        if isinstance(node, dict):
            if node.get("type") in ("album", "track") and "available_markets" in node:
                floor = min(floor, len(node["available_markets"]))
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    for _, _, params, body, _ in calls:
        if "market" not in params:
            walk(body)
    return floor


def main() -> None:
    print(f"load average before: {os.getloadavg()}")
    spec = load_spec("spotify")
    ops = {op.key: op for op in operations(spec)}
    gold = sorted({item for q in load_queries("spotify") for item in q.solution})
    calls = oracle_calls()
    sizes: dict[str, list[int]] = defaultdict(list)
    refs: dict[str, list[int]] = defaultdict(list)
    for method, template, params, body, wire in calls:
        key = f"{method} {template}"
        sizes[key].append(wire)
        refs[key].append(_size(reference(ops[key], template, params, body)))
    print(f"\n{'endpoint':44} {'sandbox':>8} {'reference':>9} {'ratio':>6}  calls")
    at_half = with_body = half_with_body = 0
    for key in gold:
        med = int(statistics.median(sizes[key])) if sizes[key] else 0
        ref = int(statistics.median(refs[key])) if refs[key] else 0
        ratio = med / ref if ref else (1.0 if med == 0 else float("inf"))
        at_half += ratio >= 0.5
        if ref:
            with_body += 1
            half_with_body += ratio >= 0.5
        print(f"{key:44} {med:8d} {ref:9d} {ratio:6.2f}  {len(sizes[key])}")
    print(
        f"\ngold-path endpoints: {len(gold)}; sandbox median >= half the reference: {at_half} "
        f"({at_half / len(gold):.0%}); of the {with_body} with a response body: {half_with_body}"
    )
    gets = [wire for method, _, _, _, wire in calls if method == "GET"]
    every = [wire for *_, wire in calls]
    print(f"oracle-path GET responses: {len(gets)}; median body {statistics.median(gets) / 1000:.1f} KB")
    for tokens in (1000, 2500):
        share = sum(s > tokens * 4 for s in every) / len(every)
        print(f"share of oracle-path responses longer than {tokens:,} tokens (bytes/4): {share:.1%}")
    print(f"fewest available_markets on an album or track object without `market`: {_markets_floor(calls)}")
    client = TestClient(create_app(), base_url="https://api.spotify.com")
    client.headers["Authorization"] = "Bearer realism-search"
    for q, kinds in (("Taylor Swift", "artist,album,track,playlist"), ("love", "track")):
        body = client.get("/v1/search", params={"q": q, "type": kinds}).json()
        pages = ", ".join(f"{k} {len(v['items'])}/{v['total']}" for k, v in body.items())
        print(f"search q={q!r} type={kinds}: page/total {pages}")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
