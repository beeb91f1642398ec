"""One embedded-model call by thread count, idle and beside busy processes.

llama.cpp's threads meet at a barrier after every op, so a thread whose core another process holds
stalls the rest; this prints, for each thread count and number of CPU-bound competitors, the wall
time of one ~880-token prompt with a 64-token reply (a fresh server per setting, a fresh prompt per
call so the prompt cache never answers). The default (``threads=0``) takes the idle cores at start.

    python bench/local_model_threads.py [--threads 1 2 0] [--busy 0 1]

Prints numbers only, with the load average.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time

import httpx

from restgraph.agents.local_model import LocalServer, ensure_default_gguf
from restgraph.agents.local_settings import ServerSettings
from restgraph.tools.datafiles import data_dir


def one_call(threads: int, busy: int) -> tuple[float, int, int]:
    competitors = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(busy)]
    try:
        time.sleep(0.5)  # let the competitors take their cores before the server samples idle ones
        settings = ServerSettings(threads=threads)
        server = LocalServer(ensure_default_gguf(), settings)
        server.start()
        used = settings.cpu_threads()
        spec = data_dir("restbench")
        text = (spec / "tmdb_oas.json").read_text() if spec else "word " * 4000
        prompt = f"{random.random()} " + text[:4000]
        t0 = time.perf_counter()
        reply = httpx.post(
            f"{server.base_url}/v1/chat/completions",
            json={"messages": [{"role": "user", "content": prompt}], "max_tokens": 64, "temperature": 0},
            timeout=900,
        ).json()
        return time.perf_counter() - t0, reply["usage"]["prompt_tokens"], used
    finally:
        for proc in competitors:
            proc.kill()
            proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2, 0])
    parser.add_argument("--busy", type=int, nargs="+", default=[0, 1])
    args = parser.parse_args()
    for busy in args.busy:
        for threads in args.threads:
            # each setting in its own process: the embedded server lives for its process
            code = f"import runpy; m = runpy.run_path({__file__!r}); print(*m['one_call']({threads}, {busy}))"
            out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=1200)
            wall, tokens, used = (out.stdout.split() or ["nan", "0", "?"])[-3:]
            one, five, _ = os.getloadavg()
            print(
                f"threads={threads} (used {used}) beside {busy} busy: {float(wall):.1f} s for a {tokens}-token"
                f" prompt + 64 tokens  (load {one:.2f} {five:.2f})"
            )


if __name__ == "__main__":
    main()
