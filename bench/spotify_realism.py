"""How close the Spotify sandbox's responses come to the real API's: sizes on the oracle's path.

For every endpoint on RestBench's Spotify gold paths it prints the sandbox's median wire size over
the oracle run (the 57 reference solutions replayed in process) beside two references built from
the spec's response schema with the real API's cardinalities (``spotify_reference.py`` states the
rule): **schema**, every property the spec declares, and **real**, the properties the real API
sends (the spec declares more: conditional fields, and full objects where the API nests simplified
ones). Then the median oracle-path GET body (the sandbox's and under each reference), the share of
oracle-path responses longer than 1,000 and 2,500 tokens (bytes/4; 1,000 tokens is the reading cut
of RestGPT's w/o-parser ablation), the searches of issue 32 (page sizes and totals per type), and
the fewest ``available_markets`` on any album or track object served without ``market``.

``--diff`` adds, per GET endpoint, the property paths of each reference that the sandbox's body
lacks: under **real** they are gaps to fill; under **schema** only, the spec overstating the API.

Usage: ``python bench/spotify_realism.py [--diff]``. Needs ``$RESTGRAPH_DATA_DIR``. Prints numbers;
asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
from collections import defaultdict
from typing import Any

from fastapi.testclient import TestClient
from spotify_reference import Reference, absent, drop_markets, size

from restgraph.evals.datasets.restbench import load_queries, load_spec
from restgraph.tools.openapi import operations
from restgraph.tools.placeholders import substitute
from restgraph.tools.sandbox.spotify.app import ROUTES, create_app
from restgraph.tools.sandbox.spotify.solutions import reference_solutions

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
_ROUTES = [(re.compile("^" + re.sub(r"\{(\w+)\}", "[^/]+", path) + "$"), path) for _, path, _ in ROUTES]


def _template(path: str) -> str:
    return next(t for pattern, t in _ROUTES if pattern.match(path))


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


def reference(op: Any, template: str, params: dict[str, Any], body: Any, real: bool) -> Any:
    schema = next((op.response_schema(s) for s in (200, 201) if op.response_schema(s)), None)
    if schema is None:
        return None
    main = MAIN.get(template, "items")
    value = Reference(template, params, main, _main_count(template, params, body, main), real).build(schema)
    if "market" in params:
        value = drop_markets(value)
    if template == "/search":  # the real API answers only the requested types
        wanted = {f"{t.strip()}s" for t in str(params["type"]).split(",")}
        value = {k: v for k, v in value.items() if k in wanted}
    return value


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


def _ratio(med: int, ref: int) -> float:
    return med / ref if ref else (1.0 if med == 0 else float("inf"))


def _diff(calls: list[tuple[str, str, dict[str, Any], Any, int]], ops: dict[str, Any]) -> None:
    """Per GET endpoint (its first oracle call), the reference paths the sandbox's body lacks."""
    print("\nproperty paths the sandbox lacks (first oracle call per GET endpoint)")
    seen = set()
    for method, template, params, body, _ in calls:
        key = f"{method} {template}"
        if method != "GET" or key in seen:
            continue
        seen.add(key)
        real = absent(reference(ops[key], template, params, body, True), body)
        schema_only = sorted(
            set(absent(reference(ops[key], template, params, body, False), body)) - set(real)
        )
        print(f"{key}\n  real API sends, sandbox lacks: {', '.join(real) or '-'}")
        print(f"  schema only (the API sends none): {', '.join(schema_only) or '-'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--diff", action="store_true", help="list the reference properties the sandbox lacks")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()}")
    spec = load_spec("spotify")
    ops = {op.key: op for op in operations(spec)}
    gold = sorted({item for q in load_queries("spotify") for item in q.solution})
    calls = oracle_calls()
    sizes: dict[str, list[int]] = defaultdict(list)
    refs: dict[bool, dict[str, list[int]]] = {True: defaultdict(list), False: defaultdict(list)}
    get_refs: dict[bool, list[int]] = {True: [], False: []}
    for method, template, params, body, wire in calls:
        key = f"{method} {template}"
        sizes[key].append(wire)
        for real in (False, True):
            refs[real][key].append(size(reference(ops[key], template, params, body, real)))
            if method == "GET":
                get_refs[real].append(refs[real][key][-1])
    print(f"\n{'':44} {'':>8} {'schema reference':>16} {'real reference':>16}")
    print(f"{'endpoint':44} {'sandbox':>8} {'size':>9} {'ratio':>6} {'size':>9} {'ratio':>6}  calls")
    at_half = {False: 0, True: 0}
    for key in gold:
        med = int(statistics.median(sizes[key])) if sizes[key] else 0
        row = f"{key:44} {med:8d}"
        for real in (False, True):
            ref = int(statistics.median(refs[real][key])) if refs[real][key] else 0
            at_half[real] += _ratio(med, ref) >= 0.5
            row += f" {ref:9d} {_ratio(med, ref):6.2f}"
        print(f"{row}  {len(sizes[key])}")
    print(
        f"\ngold-path endpoints: {len(gold)} (those without a response body count as equal); sandbox median "
        f">= half the reference: {at_half[False]} ({at_half[False] / len(gold):.0%}) of the schema's, "
        f"{at_half[True]} ({at_half[True] / len(gold):.0%}) of the real API's"
    )
    gets = [wire for method, _, _, _, wire in calls if method == "GET"]
    every = [wire for *_, wire in calls]
    print(
        f"oracle-path GET responses: {len(gets)}; median body {statistics.median(gets) / 1000:.1f} KB "
        f"(the schema reference's {statistics.median(get_refs[False]) / 1000:.1f} KB, "
        f"the real reference's {statistics.median(get_refs[True]) / 1000:.1f} KB); "
        f"{sum(g >= 10_000 for g in gets)} of them >= 10 KB"
    )
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
    if args.diff:
        _diff(calls, ops)
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
