"""The Synthetic API checker: run a sample against its test with recording ``Dummy`` objects.

Upstream (spec section 3) ``exec``-ed the program in-process under a 10 s ``SIGALRM`` (B13): no
sandbox, main thread only. Here every program runs in ``tools.pyexec``'s sandboxed subprocess;
many samples share one subprocess (one result line each, so a hang or crash costs only the
sample that caused it: the batch restarts after it). Faithful semantics are kept exactly: the
program layout with its ``global`` lines, ``exec`` with separate empty globals and locals,
keyword arguments dropped and positional arguments compared by ``str()`` (B12). The
``kwargs_aware`` variant maps keywords to API positions and compares numbers by value.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass

from tools.events import ProgramRun, emit
from tools.pyexec import run_python, run_sync
from tools.trace_schema import bounded

#: upstream's per-program timeout
TIMEOUT_S = 10.0

DUMMY_SOURCE = '''class Dummy:
    def __init__(self, s="main"):
        self.s = s

    def __getattr__(self, name):
        def call(*args, **kwargs):
            return Dummy(self.s + "." + name + "(" + ",".join(str(a) for a in args) + ")")
        return call

    def __eq__(self, other):
        return self.s == other.s

    def __str__(self):
        return "D<" + self.s + ">"
'''

KWARGS_DUMMY_SOURCE = '''class Dummy:
    API_ARGS = __API_ARGS__

    def __init__(self, s="main"):
        self.s = s

    @staticmethod
    def _show(value):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return str(value)

    def __getattr__(self, name):
        def call(*args, **kwargs):
            names = Dummy.API_ARGS.get(name, [])
            slots = list(args) + [Dummy] * max(len(names) - len(args), 0)
            extra = []
            for key, value in kwargs.items():
                pos = names.index(key) if key in names else -1
                if pos >= len(args) and slots[pos] is Dummy:
                    slots[pos] = value
                else:
                    extra.append(key + "=" + Dummy._show(value))
            while slots and slots[-1] is Dummy:
                slots.pop()
            shown = ["<missing>" if v is Dummy else Dummy._show(v) for v in slots] + sorted(extra)
            return Dummy(self.s + "." + name + "(" + ",".join(shown) + ")")
        return call

    def __eq__(self, other):
        return self.s == other.s

    def __str__(self):
        return "D<" + self.s + ">"
'''

#: runs inside the sandbox: exec each program with fresh globals/locals, one result line each
HARNESS = '''
import os
import sys

# results go to a private copy of stdout; fd 1 itself now points at stderr, so a sample writing
# to fd 1 directly cannot bury or fake them (the host ignores stderr here)
_out = os.fdopen(os.dup(1), "w")
os.dup2(2, 1)

class _Sink:
    def write(self, text):
        return len(text)

    def flush(self):
        pass

for _i, _program in enumerate(programs):
    sys.stdout = sys.stderr = _Sink()
    try:
        exec(compile(_program, "<sample>", "exec"), {}, {})
        _result = [True, None]
    except BaseException as _exc:
        _text = type(_exc).__name__ + ": " + str(_exc)
        _result = [False, _text.replace("AssertionError: ", "")[:2000]]
    sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    _out.write("\\n" + nonce + " " + str(_i) + " " + repr(_result[0]) + " " + (_result[1] or "").replace("\\n", "\\\\n") + "\\n")
    _out.flush()
'''


@dataclass(frozen=True)
class ParsedTest:
    header: str
    indent: str
    root_line: str
    root: str
    import_style: bool
    tail: list[str]


def parse_test(test: str) -> ParsedTest:
    """Split a generated test into the pieces the program is assembled from (spec section 3)."""
    lines = test.split("\n")
    if len(lines) < 7 or not lines[0].startswith("# signature =") or not lines[1].startswith("# indent ="):
        raise ValueError(f"not a Synthetic API test (expected 7 lines starting '# signature =', '# indent ='): {test[:200]!r}")
    header = lines[0].split("=")[1].strip()  # B15: split at every '=', as upstream did
    indent = lines[1].split("=", 1)[1].strip()[1:-1]
    root = lines[2].split("=", 1)[0].strip()
    return ParsedTest(header, indent, lines[2], root, "import_style" in lines[3], lines[3:7])


def build_program(sample: str, test: str, *, api_args: dict[str, list[str]] | None = None, kwargs_aware: bool = False) -> str:
    """Dummy source, root object, def header, ``global`` lines, the sample, then the test lines."""
    parsed = parse_test(test)
    dummy = KWARGS_DUMMY_SOURCE.replace("__API_ARGS__", repr(api_args or {})) if kwargs_aware else DUMMY_SOURCE
    lines = [dummy, parsed.root_line, parsed.header, f"{parsed.indent}global Dummy"]
    if parsed.import_style:
        lines.append(f"{parsed.indent}global {parsed.root}")
    lines.append(parsed.indent + sample)
    return "\n".join(lines) + "\n\n\n" + "\n".join(parsed.tail)


def _parse_results(stdout: str, nonce: str, n: int) -> dict[int, tuple[bool, str | None]]:
    results: dict[int, tuple[bool, str | None]] = {}
    for line in stdout.split("\n"):
        at = line.find(nonce + " ")
        if at < 0:
            continue
        parts = line[at + len(nonce) + 1:].split(" ", 2)
        if len(parts) < 2 or not parts[0].isdigit() or int(parts[0]) >= n:
            continue
        error = parts[2].replace("\\n", "\n") if len(parts) > 2 and parts[2] else None
        results[int(parts[0])] = (parts[1] == "True", None if parts[1] == "True" else error)
    return results


#: program sha256 -> result. Programs are deterministic, so a body checked during an episode is
#: not re-run when the same process scores it. Bounded (oldest entries go first).
_CACHE: dict[str, tuple[bool, str | None]] = {}
CACHE_SIZE = 50_000
_UNCACHEABLE = ("TimeoutError: exceeded", "Killed", "ProcessError", "no result")


def _key(program: str, timeout_s: float, memory_mb: int) -> str:
    return hashlib.sha256(f"{timeout_s}|{memory_mb}|{program}".encode()).hexdigest()


async def run_programs(programs: Sequence[str], *, timeout_s: float = TIMEOUT_S, memory_mb: int = 512) -> list[tuple[bool, str | None]]:
    """Execute programs (those not already checked in this process) in sandboxed subprocesses."""
    keys = [_key(p, timeout_s, memory_mb) for p in programs]
    todo = sorted({k: i for i, k in enumerate(keys) if k not in _CACHE}.values())
    fresh = await _run_uncached([programs[i] for i in todo], timeout_s=timeout_s, memory_mb=memory_mb)
    for i, result in zip(todo, fresh, strict=True):
        if not (result[1] or "").startswith(_UNCACHEABLE):  # load-dependent outcomes are re-tried
            _CACHE[keys[i]] = result
    while len(_CACHE) > CACHE_SIZE:
        del _CACHE[next(iter(_CACHE))]
    known = {keys[i]: r for i, r in zip(todo, fresh, strict=True)}
    return [known.get(k) or _CACHE[k] for k in keys]


async def _run_uncached(programs: Sequence[str], *, timeout_s: float, memory_mb: int) -> list[tuple[bool, str | None]]:
    """One sandboxed subprocess for all programs; a program that hangs or kills the process fails
    alone (the rest are re-run in a fresh subprocess). At most ``len(programs)`` restarts."""
    results: list[tuple[bool, str | None] | None] = [None] * len(programs)
    start = 0
    while start < len(programs):
        nonce = "RGRESULT-" + secrets.token_hex(12)
        chunk = list(programs[start:])
        run = await run_python(
            HARNESS, inputs={"programs": chunk, "nonce": nonce}, timeout_s=timeout_s * len(chunk) + 5,
            memory_mb=memory_mb, idle_timeout_s=timeout_s, record=False, name="api_use.checker",
        )
        got = _parse_results(run.stdout, nonce, len(chunk))
        done = 0
        while done in got:
            results[start + done] = got[done]
            done += 1
        if done < len(chunk):  # the subprocess died or hung on this program
            reason = run.error or "the checker process ended without a result"
            results[start + done] = (False, f"TimeoutError: exceeded {timeout_s:g}s" if run.timed_out else reason)
            done += 1
        start += done
    return [r if r is not None else (False, "no result") for r in results]


async def execute_async(sample: str | list[str], test: str, *, api_args: dict[str, list[str]] | None = None, kwargs_aware: bool = False, timeout_s: float = TIMEOUT_S) -> tuple[bool, str | None] | list[tuple[bool, str | None]]:
    """``execute`` for event loops; records one ``python`` tool call in the current episode."""
    samples = sample if isinstance(sample, list) else [sample]
    programs = [build_program(s, test, api_args=api_args, kwargs_aware=kwargs_aware) for s in samples]
    started = time.monotonic()
    results = await run_programs(programs, timeout_s=timeout_s)
    emit(ProgramRun(latency_s=round(time.monotonic() - started, 6),
        name="api_use.execute", code=bounded(programs[0] if len(programs) == 1 else json.dumps(samples), 4000),
        output=json.dumps(results), error=None if all(ok for ok, _ in results) else next(e for ok, e in results if not ok),
        details={"samples": len(samples), "kwargs_aware": kwargs_aware},
    ))
    return results if isinstance(sample, list) else results[0]


def execute(sample: str | list[str], test: str, *, api_args: dict[str, list[str]] | None = None, kwargs_aware: bool = False, timeout_s: float = TIMEOUT_S) -> tuple[bool, str | None] | list[tuple[bool, str | None]]:
    """Upstream's ``execute(sample, test) -> (passed, error)``; a list of samples gives a list."""
    return run_sync(execute_async(sample, test, api_args=api_args, kwargs_aware=kwargs_aware, timeout_s=timeout_s))


async def execute_batch_async(items: Sequence[tuple[str, str]], *, kwargs_aware: bool = False, api_args: Sequence[dict[str, list[str]] | None] | None = None, timeout_s: float = TIMEOUT_S, workers: int = 2, chunk_size: int = 400) -> list[tuple[bool, str | None]]:
    """Check many (sample, test) pairs, ``chunk_size`` programs per subprocess, ``workers`` at a time."""
    programs = [build_program(s, t, api_args=(api_args[i] if api_args else None), kwargs_aware=kwargs_aware) for i, (s, t) in enumerate(items)]
    chunks = [programs[i:i + chunk_size] for i in range(0, len(programs), chunk_size)]
    gate = asyncio.Semaphore(max(1, workers))

    async def one(chunk: list[str]) -> list[tuple[bool, str | None]]:
        async with gate:
            return await run_programs(chunk, timeout_s=timeout_s)

    parts = await asyncio.gather(*(one(c) for c in chunks))
    return [r for part in parts for r in part]


def execute_batch(items: Sequence[tuple[str, str]], **kwargs) -> list[tuple[bool, str | None]]:
    return run_sync(execute_batch_async(items, **kwargs))


