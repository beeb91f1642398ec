"""How long ``restgraph view`` takes to list a 10,000-episode run (goal: under 2 s on 2 cores).

Writes N synthetic ``smoke`` traces shaped like real ones (3 steps, 3 model calls with ~1.5 KB
prompts, 2 HTTP calls with ~1 KB bodies; one in five fails, one in ten has a parse error), scores
them once as ``restgraph run`` would (``summary.json`` + ``scores.jsonl``, not timed), then times:

- index, cold: the viewer's streaming pass over ``traces.jsonl`` (``Viewer(...)``, first view);
- index, warm: the same once the index is cached (``restgraph.evals.viewer.cache``, every later view);
- list: GET ``data/runs.json`` + ``data/0/episodes.json`` from the live server (real HTTP);
- page: Debian chromium opening the page until the first 100 rows are in the table;
- end to end: ``restgraph view RUN --no-open`` started as a process (Python start-up, imports,
  index, server) until chromium shows the first 100 rows, cold and warm cache: what a user waits.

    python bench/viewer_scale.py [--n 10000]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

from restgraph.evals.summary import write_summary
from restgraph.evals.viewer.server import Viewer, make_app

PROMPT = ("You are a planner. Decompose the user query into API calls. " * 25).strip()


def synthetic_trace(i: int, rng: random.Random) -> dict:
    a, b = rng.randint(2, 60), rng.randint(2, 40)
    ok = rng.random() > 0.2
    parse_error = "json_error: no JSON value in the reply" if rng.random() < 0.1 else None
    calls = [
        {
            "role": "planner",
            "model": "scripted:x",
            "prompt_hash": f"{i:016x}",
            "messages": [
                {"type": "system", "content": PROMPT},
                {"type": "human", "content": f"What is {a} + {b}?"},
            ],
            "raw_output": "{oops" if parse_error and k == 0 else str(a + b),
            "parse_error": parse_error if k == 0 else None,
            "input_tokens": 300,
            "output_tokens": 20,
            "latency_s": 0.5,
            "started_at": "2026-01-01T00:00:00.000+00:00",
            "tool_calls": [],
            "retried_errors": [],
            "attempts": 1,
        }
        for k in range(3)
    ]
    http = [
        {
            "kind": "http",
            "name": "GET /search",
            "method": "GET",
            "url": "http://127.0.0.1/search",
            "path": "/search",
            "params": {"q": "x"},
            "status": 200,
            "response": json.dumps({"results": [{"id": n, "name": "y" * 40} for n in range(20)]}),
            "latency_s": 0.01,
            "started_at": "2026-01-01T00:00:00.000+00:00",
            "extra": {},
        }
    ] * 2
    steps = [
        {
            "index": s,
            "node": node,
            "model_calls": calls[s : s + 1],
            "tool_calls": http if s == 1 else [],
            "latency_s": 0.6,
            "ended_at": "2026-01-01T00:00:01.000+00:00",
        }
        for s, node in enumerate(("planner", "caller", "answer"))
    ]
    return {
        "schema_version": 1,
        "run_id": "bench",
        "task_id": f"smoke/{i}",
        "benchmark": "smoke",
        "agent": "chat",
        "model": "scripted:x",
        "task": {
            "id": f"smoke/{i}",
            "benchmark": "smoke",
            "instruction": f"What is {a} + {b}? Reply with the number only.",
            "gold": {"answer": a + b},
            "metadata": {},
        },
        "steps": steps,
        "final_answer": str(a + b if ok else a + b + 1),
        "status": "finished" if rng.random() > 0.05 else "error:RateLimitError",
        "usage": {
            "model_calls": 3,
            "input_tokens": 900,
            "output_tokens": 60,
            "tool_calls": 2,
            "model_latency_s": 1.5,
        },
        "wall_s": 2.0,
        "extra": {},
    }


def page_time(page, url: str) -> float:
    started = time.perf_counter()
    page.goto(url)
    page.wait_for_function("document.querySelectorAll('#episodes tbody tr').length >= 100")
    return time.perf_counter() - started


def end_to_end(page, run: Path) -> tuple[float, float]:
    """``restgraph view`` as a user starts it, until the first 100 rows show in the browser: wall
    seconds, and the CPU seconds the viewer process used (start-up, index, serving; it idles after),
    which a loaded machine does not inflate."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "restgraph.evals.cli", "view", str(run), "--no-open"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stdout.readline()  # "restgraph view: http://127.0.0.1:PORT/  (...)"
        url = line.split()[2]
        page.goto(url)
        page.wait_for_function("document.querySelectorAll('#episodes tbody tr').length >= 100")
        wall = time.perf_counter() - started
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3, help="end-to-end measurements per cache state")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["RESTGRAPH_CACHE_DIR"] = str(
            Path(tmp) / "cache"
        )  # a cold cache of our own (the child inherits it)
        run = Path(tmp) / "run"
        run.mkdir()
        rng = random.Random(0)
        with open(run / "traces.jsonl", "w") as fh:
            for i in range(args.n):
                fh.write(json.dumps(synthetic_trace(i, rng), separators=(",", ":")) + "\n")
        size_mb = (run / "traces.jsonl").stat().st_size / 1e6
        started = time.perf_counter()
        write_summary(run)
        print(
            f"{args.n} traces, {size_mb:.1f} MB; summary.json + scores.jsonl written in "
            f"{time.perf_counter() - started:.2f} s (not part of the list time)"
        )

        started, cpu = time.perf_counter(), time.process_time()
        Viewer([run])
        cold_s, cold_cpu = time.perf_counter() - started, time.process_time() - cpu
        started, cpu = time.perf_counter(), time.process_time()
        viewer = Viewer([run])
        warm_s, warm_cpu = time.perf_counter() - started, time.process_time() - cpu

        import uvicorn

        server = uvicorn.Server(
            uvicorn.Config(make_app(viewer), host="127.0.0.1", port=0, log_level="warning")
        )
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.01)
        port = server.servers[0].sockets[0].getsockname()[1]
        url = f"http://127.0.0.1:{port}/"
        started = time.perf_counter()
        with httpx.Client() as client:
            client.get(url + "data/runs.json").raise_for_status()
            response = client.get(url + "data/0/episodes.json")
            rows = response.json()["rows"]
        list_s = time.perf_counter() - started
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            page = browser.new_page()
            page_s = page_time(page, url)
            server.should_exit = True
            thread.join(timeout=10)
            cold_e2e, warm_e2e = [], []
            for _ in range(args.repeat):
                shutil.rmtree(Path(tmp) / "cache", ignore_errors=True)
                cold_e2e.append(end_to_end(page, run))
                warm_e2e.append(end_to_end(page, run))
            browser.close()
    load = os.getloadavg()[0]
    print(f"machine: {os.cpu_count()} cores, load average {load:.1f} while measuring")
    print(f"index, first view (streaming pass over traces.jsonl): {cold_s:.2f} s wall, {cold_cpu:.2f} s CPU")
    print(f"index, later views (cached index): {warm_s:.3f} s wall, {warm_cpu:.3f} s CPU")
    print(
        f"list over HTTP (runs.json + episodes.json, {len(rows)} rows, {len(response.content) / 1e6:.1f} MB): {list_s:.2f} s"
    )
    print(f"chromium: page open until the first 100 rows show (server already up): {page_s:.2f} s")
    print("end to end, `restgraph view RUN` started until chromium shows the first 100 rows (goal < 2 s):")
    print(
        f"  first view (no cached index): {', '.join(f'{w:.2f}' for w, _ in cold_e2e)} s wall; "
        f"viewer process CPU {', '.join(f'{c:.2f}' for _, c in cold_e2e)} s"
    )
    print(
        f"  later views (cached index):   {', '.join(f'{w:.2f}' for w, _ in warm_e2e)} s wall; "
        f"viewer process CPU {', '.join(f'{c:.2f}' for _, c in warm_e2e)} s"
    )


if __name__ == "__main__":
    main()
