"""Speed of the Spotify sandbox: per-request latency in process, and whole oracle runs.

Prints, for a fixed request mix, the median and p95 latency per endpoint through httpx's ASGI
transport (no socket), the size of one token's state (what every trace stores), and the wall time
of ``restgraph``'s oracle over the 57 queries at a few concurrency levels, in process and on
loopback. Numbers, not assertions: compare them across commits.

    RESTGRAPH_DATA_DIR=../shared/data python bench/spotify_sandbox.py [--repeat 50] [--concurrency 1 16]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time

import httpx

from restgraph.evals.benchmark import RunOptions
from restgraph.evals.runner import run_sync
from restgraph.tools.sandbox.spotify.app import create_app
from restgraph.tools.sandbox.spotify.state import initial_state

MIX = [
    ("GET", "/v1/me", None, None),
    ("GET", "/v1/search", {"q": "The Beatle's", "type": "artist,album,track,playlist"}, None),
    ("GET", "/v1/me/albums", None, None),
    ("GET", "/v1/me/player/queue", None, None),
    ("PUT", "/v1/me/player/volume", {"volume_percent": 40}, None),
    ("PUT", "/v1/me/player/play", None, {"context_uri": "spotify:album:4LH4d3cOWNNsVw41Gqt2kv"}),
]


#: searches sent once each: the sandbox caches the ranking of a repeated query, so the MIX's search
#: measures a cache hit; these measure the ranking itself (after the index is built)
DISTINCT = [
    f"{word}"
    for word in ("love", "night", "heart", "summer", "dance", "blue", "rain", "fire", "moon", "home")
] + ["Taylor Swift", "Mariah Carey", "Lana Del Rey", "Jay Chou", "Pink Floyd", "Coldplay", "BIGBANG"]


async def distinct_searches() -> list[float]:
    transport = httpx.ASGITransport(app=create_app())
    out = []
    async with httpx.AsyncClient(
        transport=transport, base_url="http://bench", headers={"Authorization": "Bearer bench"}
    ) as client:
        await client.get("/v1/search", params={"q": "warm up", "type": "artist,album,track,playlist"})
        for q in DISTINCT:
            start = time.perf_counter()
            response = await client.get("/v1/search", params={"q": q, "type": "artist,album,track,playlist"})
            out.append(time.perf_counter() - start)
            assert response.status_code == 200, response.text
    return out


async def request_latencies(repeat: int) -> dict[str, list[float]]:
    transport = httpx.ASGITransport(app=create_app())
    out: dict[str, list[float]] = {}
    async with httpx.AsyncClient(
        transport=transport, base_url="http://bench", headers={"Authorization": "Bearer bench"}
    ) as client:
        for _ in range(repeat):
            for method, path, params, body in MIX:
                start = time.perf_counter()
                response = await client.request(method, path, params=params, json=body)
                out.setdefault(f"{method} {path[3:]}", []).append(time.perf_counter() - start)
                assert response.status_code < 300, response.text
    return out


def oracle_wall(concurrency: int, server: str) -> float:
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        summary = run_sync(
            RunOptions(
                benchmark="restbench-spotify",
                agent="oracle",
                concurrency=concurrency,
                bench_options={"server": server},
            ),
            out,
            progress=False,
        )
        wall = time.perf_counter() - start
    assert summary["metrics"]["success_rate"] == 1.0, summary
    return wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 16])
    args = parser.parse_args()
    print(f"load average: {os.getloadavg()}")
    for name, times in asyncio.run(request_latencies(args.repeat)).items():
        ms = sorted(t * 1000 for t in times)
        print(
            f"{name:<28} median {statistics.median(ms):6.2f} ms   p95 {ms[int(0.95 * (len(ms) - 1))]:6.2f} ms"
        )
    ms = sorted(t * 1000 for t in asyncio.run(distinct_searches()))
    print(
        f"{'GET /search, distinct queries':<28} median {statistics.median(ms):6.2f} ms   max {ms[-1]:6.2f} ms"
    )
    print(f"state per token: {len(json.dumps(initial_state().model_dump(mode='json')))} bytes of JSON")
    for server in ("inprocess", "loopback"):
        for c in args.concurrency:
            print(f"oracle, 57 queries, {server:<9} concurrency {c:>2}: {oracle_wall(c, server):6.2f} s")


if __name__ == "__main__":
    main()
