"""TMDB sandbox speed: in-process latency per request and loopback requests/second.

The request mix is the oracle's: the 229 reference calls of the 100 RestBench TMDB queries.
- in-process: handler only (no HTTP) and through httpx's ASGI transport (what an in-process
  episode pays), median and p95 per request;
- loopback: a real ``uvicorn`` server (1 worker, a separate process) on a free 127.0.0.1 port,
  driven at several concurrencies for a fixed time by async workers with one httpx client each,
  as the runner's episodes have (one ``HttpTool`` per episode). One client shared by 32 tasks
  measured ~350 requests/s against ~1,500 for 32 clients on the same server: httpx's connection
  pool, not the sandbox, was the limit, so sharing it would under-report the server.

Usage: ``python bench/sandbox_throughput.py [--seconds 5] [--concurrency 1 8 32] [--rounds 3] [--world served|facts|both]
[--no-loopback]``. ``--world facts`` serves the authored facts alone (the world before the real-scale padding,
``tools/sandbox/tmdb/padding``), ``both`` measures the two in-process back to back; the first line per
world is its load time (the padded world is read from its cache file after the first build). To compare
with another checkout, run its copy of this script with ``PYTHONPATH=<checkout>`` in the same session.
Prints numbers; asserts nothing (house rule: measure, don't assert).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time

import httpx

from restgraph.tools.openapi.serve import free_port
from restgraph.tools.sandbox.tmdb.app import create_app
from restgraph.tools.sandbox.tmdb.db import FixtureDB, get_db, get_facts_db
from restgraph.tools.sandbox.tmdb.reference import replay
from restgraph.tools.sandbox.tmdb.solutions import SOLUTIONS

CALLS = [c for i in sorted(SOLUTIONS) for c in SOLUTIONS[i].calls]
AUTH = {"Authorization": "Bearer bench"}


def _summary(samples: list[float]) -> str:
    ms = sorted(s * 1000 for s in samples)
    return (
        f"median {statistics.median(ms):.2f} ms, p95 {ms[int(0.95 * (len(ms) - 1))]:.2f} ms, mean "
        f"{statistics.fmean(ms):.2f} ms over {len(ms)} requests"
    )


def bench_handlers(rounds: int, db: FixtureDB) -> None:
    replay(db, CALLS)  # warm caches
    samples = []
    for _ in range(rounds):
        for c in CALLS:
            t = time.perf_counter()
            replay(db, [c])
            samples.append(time.perf_counter() - t)
    print(f"in-process, handler only:   {_summary(samples)}")


async def bench_asgi(rounds: int, db: FixtureDB) -> None:
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=create_app(db)), base_url="http://tmdb.sandbox/3", headers=AUTH
    ) as client:
        for c in CALLS:  # warm-up
            await client.get(c["path"], params=c["params"])
        samples = []
        for _ in range(rounds):
            for c in CALLS:
                t = time.perf_counter()
                response = await client.get(c["path"], params=c["params"])
                samples.append(time.perf_counter() - t)
                assert response.status_code == 200, (c, response.status_code)
    print(f"in-process, ASGI transport: {_summary(samples)}")


async def _drive(base: str, concurrency: int, seconds: float) -> tuple[int, int, list[float]]:
    done, errors, latencies = 0, 0, []
    deadline = time.perf_counter() + seconds

    async def worker(offset: int) -> None:
        nonlocal done, errors
        i = offset
        async with httpx.AsyncClient(
            base_url=base, headers=AUTH, timeout=30
        ) as client:  # one per worker, like one per episode
            while time.perf_counter() < deadline:
                c = CALLS[i % len(CALLS)]
                t = time.perf_counter()
                response = await client.get(c["path"], params=c["params"])
                latencies.append(time.perf_counter() - t)
                done += 1
                errors += response.status_code != 200
                i += 1

    await asyncio.gather(*(worker(k * 7) for k in range(concurrency)))
    return done, errors, latencies


def bench_loopback(concurrencies: list[int], seconds: float) -> None:
    port = free_port()
    cmd = [
        sys.executable,
        "-m",
        "uvicorn",
        "restgraph.tools.sandbox.tmdb.app:create_app",
        "--factory",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--workers",
        "1",
        "--log-level",
        "warning",
        "--no-access-log",
    ]
    server = subprocess.Popen(cmd, env={**os.environ, "PYTHONPATH": os.getcwd()})
    base = f"http://127.0.0.1:{port}/3"
    try:
        for _ in range(300):  # wait up to 30 s for the server
            try:
                if httpx.get(base + "/genre/movie/list", headers=AUTH, timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        else:
            raise RuntimeError("uvicorn did not start")
        asyncio.run(_drive(base, 4, 1.0))  # warm-up
        for n in concurrencies:
            done, errors, lat = asyncio.run(_drive(base, n, seconds))
            print(
                f"loopback uvicorn 1 worker, concurrency {n:>3}: {done / seconds:8.1f} requests/s ({errors} errors); latency {_summary(lat)}"
            )
    finally:
        server.terminate()
        server.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 8, 32])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--world", choices=["served", "facts", "both"], default="served")
    parser.add_argument("--no-loopback", action="store_true")
    args = parser.parse_args()
    print(
        f"request mix: {len(CALLS)} reference calls of {len(SOLUTIONS)} RestBench TMDB queries; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )
    for world in ["facts", "served"] if args.world == "both" else [args.world]:
        t = time.perf_counter()
        db = get_db() if world == "served" else get_facts_db()
        print(
            f"[{world}] load {time.perf_counter() - t:.2f} s ({len(db.movies)} movies, {len(db.people)} people)"
        )
        bench_handlers(args.rounds, db)
        asyncio.run(bench_asgi(args.rounds, db))
    if not args.no_loopback:
        bench_loopback(args.concurrency, args.seconds)


if __name__ == "__main__":
    main()
