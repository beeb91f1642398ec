"""The offline world of ``assistantbench-local``: what it holds and what it costs to start.

Serves the world (``restgraph.tools.browser.sites.world``: the fixture sites and Loopback Search) as a run
does, then prints: the tasks by gold type, number of sites and difficulty; plan lengths (browser
actions an oracle needs); the pages the search index holds; how long serving plus crawling took;
and search latency percentiles over every query the task plans make, through the engine's
results page (HTTP, as the browser sees it) and through the backend directly.

    python bench/offline_world.py [--repeat 20]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections import Counter

import httpx

from restgraph.tools.browser.sites.tasks import TASKS
from restgraph.tools.browser.sites.world import serve_world


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


async def main(repeat: int) -> None:
    print(f"tasks: {len(TASKS)}")
    print("  gold types:", dict(Counter(t.answer_type for t in TASKS)))
    print("  sites per task:", dict(sorted(Counter(len(t.sites) for t in TASKS).items())))
    print("  difficulty:", dict(Counter(t.difficulty for t in TASKS)))
    actions = [sum(1 for s in t.plan if s[0] != "answer") for t in TASKS]
    print(
        f"  oracle plan length (browser actions): mean {statistics.mean(actions):.1f}, max {max(actions)}, total {sum(actions)}"
    )
    queries = [s[1] for t in TASKS for s in t.plan if s[0] == "search"]
    started = time.perf_counter()
    async with serve_world() as world, httpx.AsyncClient() as client:
        ready = time.perf_counter() - started
        size = getattr(world.backend, "size", None)
        print(
            f"world: sites {world.sites_url}, engine {world.engine_url}; index {size} pages; served + crawled + indexed in {ready:.2f} s"
        )
        page_s, backend_s = [], []
        for _ in range(repeat):
            for query in queries:
                t0 = time.perf_counter()
                response = await client.get(world.engine_url + "/search", params={"q": query})
                page_s.append(time.perf_counter() - t0)
                response.raise_for_status()
                t0 = time.perf_counter()
                world.backend.search(query, 10)
                backend_s.append(time.perf_counter() - t0)
        for name, values in (("results page (HTTP)", page_s), ("backend.search", backend_s)):
            print(
                f"{name}: n={len(values)} p50 {1000 * pct(values, 0.5):.2f} ms, p95 "
                f"{1000 * pct(values, 0.95):.2f} ms, max {1000 * max(values):.2f} ms"
            )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=20, help="passes over the plans' queries")
    asyncio.run(main(parser.parse_args().repeat))
