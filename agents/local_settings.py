"""The embedded llama.cpp server's settings, apart from the server itself.

Why a module of its own: the connection limiter (``restgraph.agents.connection_limit``, used by the
retry layer) and the context-window check read the server's slot count and context size, while
``restgraph.agents.local_model`` builds its model with the retry layer; keeping the settings here
keeps those imports one-way (no import cycle) and cheap (no llama.cpp, no langchain_openai).
"""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class ServerSettings:
    """What the embedded server is started with; kept modest so it fits beside the runner."""

    #: KV cells, split evenly between the slots: 8,192 each, SmolLM2's trained context. A shared
    #: (unified) cache let four 8k-token prompts start together and thrash until llama.cpp gave
    #: up with "Context size has been exceeded" after ten minutes; per-slot cells cannot run out.
    n_ctx: int = 16384
    parallel: int = 2  # concurrent request slots; further requests queue in the server
    threads: int = 0  # 0 = the CPUs this process may use
    #: llama.cpp's busy-wait level for idle worker threads (0-100; its own default is 50). Spinning
    #: threads wait on each other at every op's barrier: when another process holds one of the cores,
    #: a spinning thread burns the slice the descheduled one needs (a 1,079-token planner call took
    #: 434 s beside a busy core). 0 lets them sleep; bench/quickstart_time.py --busy 1 measures it.
    poll: int = 0
    #: host-memory prompt cache (about 45k SmolLM2 tokens at 23 KB of f16 K/V each, computed from
    #: the model shape; llama.cpp's default is 8 GiB). Agents resend long shared prefixes, so a
    #: slot that switches between episodes restores a prefix instead of recomputing it (a 7,300-token
    #: prompt: 0.6 s from cache, 55 s computed on 2 cores)
    cache_ram_mib: int = 1024
    startup_timeout_s: float = 120.0

    def cpu_threads(self) -> int:
        """``threads``, else the CPUs this process may use that are idle right now.

        llama.cpp's threads meet at a barrier after every op, so one thread whose core is taken by
        another process holds up all the others: an 877-token prompt took 4.5 s on 2 threads on 2 idle
        cores, 62.6 s on 2 threads beside one busy process, and 8.0 s on 1 thread beside it (8.3 s idle);
        a second measurement gave 10.1 s against 7.2 s (``bench/local_model_threads.py``).
        So the server starts with as many threads as there are idle cores (sampled over 0.2 s,
        ``idle_cpus``), at least one; ``-M threads=N`` fixes the count.
        """
        if self.threads > 0:
            return self.threads
        try:
            usable = max(1, len(os.sched_getaffinity(0)))
        except AttributeError:  # pragma: no cover - non-Linux
            usable = max(1, os.cpu_count() or 1)
        idle = idle_cpus()
        return usable if idle is None else max(1, min(usable, round(idle)))


def idle_cpus(window_s: float = 0.2) -> float | None:
    """How many CPUs were idle over ``window_s`` (from /proc/stat), or None where it cannot be read."""
    import time

    def sample() -> tuple[int, int]:
        with open("/proc/stat", encoding="ascii") as fh:
            fields = [int(x) for x in fh.readline().split()[1:]]
        return sum(fields), fields[3] + (fields[4] if len(fields) > 4 else 0)  # total, idle + iowait

    try:
        total0, idle0 = sample()
        time.sleep(window_s)
        total1, idle1 = sample()
    except (OSError, ValueError, IndexError):
        return None
    if total1 <= total0:
        return None
    return (idle1 - idle0) / (total1 - total0) * (os.cpu_count() or 1)
