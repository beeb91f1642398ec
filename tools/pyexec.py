"""Sandboxed Python execution for model-written code (Synthetic API checker, RestGPT parser).

Model-written code never runs in the host process. ``run_python`` starts a fresh interpreter
(``python -I -S``, asyncio subprocess, so it is safe from any thread or event loop) with layered
containment:

- **limits** (set by the child before user code runs): RLIMIT_AS (``memory_mb``), RLIMIT_CPU,
  RLIMIT_NPROC, RLIMIT_FSIZE=0, RLIMIT_NOFILE, no core dumps. Note: the kernel does not apply
  RLIMIT_NPROC to uid 0, so on a root host the audit hook below is the fork guard;
- **audit hook** (``tools/pyexec_child.py``): refuses sockets, process creation (fork, exec,
  spawn, ``os.system``, subprocess), signals to other processes, ctypes/FFI, threads, every
  file-system mutation and any ``open`` for writing; reads of ``/proc``, ``/sys`` and home
  directories are refused too (other processes' environments hold secrets);
- **network namespace**: ``unshare --net`` (or ``-rn`` when not root) when it works here, so even
  a hook bypass has no network;
- **process**: own session (the whole group is killed on timeout), scrubbed environment (PATH,
  LANG, HOME only: no API keys), cwd in a fresh temp dir removed afterwards, stdout/stderr
  bounded, wall-clock ``timeout_s`` and optional ``idle_timeout_s`` (no output for that long).

Every execution emits a ``tools.events.ProgramRun`` (the harness records it in the episode
trace as a ``ToolCall(kind="python")``) with the code and output bounded.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import contextvars
import functools
import json
import math
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from tools.events import ProgramRun, emit
from tools.trace_schema import bounded

T = TypeVar("T")
CHILD = Path(__file__).with_name("pyexec_child.py")
#: how much of each stream is kept; the rest is drained and dropped
MAX_OUTPUT_BYTES = 1_000_000
#: how much code/output goes into a trace record
TRACE_CHARS = 4_000


class PyExecResult(BaseModel):
    """Outcome of one sandboxed run. ``ok`` means exit 0, no uncaught exception, no timeout."""

    ok: bool
    stdout: str
    stderr: str
    error: str | None = None
    timed_out: bool = False
    duration_s: float = 0.0


@functools.cache
def net_isolation_prefix() -> tuple[str, ...]:
    """The ``unshare`` prefix that gives the child an empty network namespace, or () if unavailable.

    Checked once per process by actually running it (containers often forbid namespaces)."""
    exe = shutil.which("unshare")
    if exe is None:
        return ()
    for prefix in ((exe, "--net", "--"), (exe, "--map-root-user", "--net", "--")):
        try:
            done = subprocess.run([*prefix, sys.executable, "-I", "-S", "-c", "pass"], capture_output=True, timeout=10)
        except (OSError, subprocess.SubprocessError):
            continue
        if done.returncode == 0:
            return prefix
    return ()


def _child_env(home: str) -> dict[str, str]:
    return {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "HOME": home, "PYTHONIOENCODING": "utf-8"}


async def _drain(stream: asyncio.StreamReader, keep: bytearray, limit: int, activity: list[float]) -> None:
    while True:
        chunk = await stream.read(65536)
        if not chunk:
            return
        activity[0] = time.monotonic()
        room = limit - len(keep)
        if room > 0:
            keep.extend(chunk[:room])


def _kill_group(proc: asyncio.subprocess.Process) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        with contextlib.suppress(ProcessLookupError):
            proc.kill()


def _decode(data: bytearray, limit: int) -> str:
    text = bytes(data).decode("utf-8", errors="replace")
    return text + ("\n...[output truncated]" if len(data) >= limit else "")


def _split_status(stderr: str, nonce: str) -> tuple[str, dict[str, Any] | None]:
    marker = f"\n{nonce} "
    at = stderr.rfind(marker)
    if at < 0:
        return stderr, None
    line = stderr[at + len(marker):].split("\n", 1)[0]
    try:
        status = json.loads(line)
    except json.JSONDecodeError:
        return stderr, None
    return stderr[:at], status if isinstance(status, dict) else None


async def run_python(
    code: str,
    *,
    inputs: dict | None = None,
    timeout_s: float = 5.0,
    memory_mb: int = 512,
    allowed_modules: set[str] | None = None,
    idle_timeout_s: float | None = None,
    max_output_bytes: int = MAX_OUTPUT_BYTES,
    name: str = "python",
    record: bool = True,
) -> PyExecResult:
    """Run ``code`` in a sandboxed interpreter; ``inputs`` (JSON values) are bound as globals.

    ``allowed_modules`` (top-level names) restricts what the code may import itself; ``None``
    allows any module not on the sandbox's deny list. ``idle_timeout_s`` kills a child that
    prints nothing for that long (batch runners stream one line per item)."""
    if timeout_s <= 0 or memory_mb <= 0:
        raise ValueError(f"timeout_s and memory_mb must be positive, got {timeout_s}, {memory_mb}")
    nonce = "RGSTATUS-" + secrets.token_hex(16)
    try:
        payload = json.dumps({
            "code": code, "inputs": inputs or {}, "nonce": nonce, "memory_mb": memory_mb,
            "cpu_s": math.ceil(timeout_s) + 1, "allowed_modules": sorted(allowed_modules) if allowed_modules is not None else None,
        })
    except (TypeError, ValueError) as exc:
        raise ValueError(f"run_python inputs must be JSON-serialisable: {exc}") from exc
    started = time.monotonic()
    workdir = tempfile.mkdtemp(prefix="rg-pyexec-")
    timed_out = False
    out, err = bytearray(), bytearray()
    try:
        proc = await asyncio.create_subprocess_exec(
            *net_isolation_prefix(), sys.executable, "-I", "-S", "-X", "utf8", str(CHILD),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            cwd=workdir, env=_child_env(workdir), start_new_session=True,
        )
        activity = [time.monotonic()]
        readers = [asyncio.ensure_future(_drain(proc.stdout, out, max_output_bytes, activity)),
                   asyncio.ensure_future(_drain(proc.stderr, err, max_output_bytes, [0.0]))]
        try:
            proc.stdin.write(payload.encode("utf-8"))
            await proc.stdin.drain()
            proc.stdin.close()
        except (BrokenPipeError, ConnectionResetError):
            pass
        deadline = started + timeout_s
        while True:
            now = time.monotonic()
            wait = deadline - now
            if idle_timeout_s is not None:
                wait = min(wait, activity[0] + idle_timeout_s - now)
            if wait <= 0:
                timed_out = True
                _kill_group(proc)
                break
            try:
                await asyncio.wait_for(asyncio.shield(proc.wait()), timeout=min(wait, 0.5))
                break
            except TimeoutError:
                continue
        await proc.wait()
        _kill_group(proc)  # strays left in the group (there should be none: fork is refused)
        await asyncio.wait_for(asyncio.gather(*readers, return_exceptions=True), timeout=5)
    except asyncio.CancelledError:
        if "proc" in locals():
            _kill_group(proc)
        raise
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    stderr, status = _split_status(_decode(err, max_output_bytes), nonce)
    stdout = _decode(out, max_output_bytes)
    duration = round(time.monotonic() - started, 6)
    if timed_out:
        error = f"TimeoutError: no result within {timeout_s:g}s" if duration >= timeout_s - 0.01 else f"TimeoutError: no output for {idle_timeout_s:g}s"
    elif status is not None:
        error = status.get("error")
    elif proc.returncode is not None and proc.returncode < 0:
        error = f"Killed: signal {-proc.returncode} ({signal.Signals(-proc.returncode).name}); likely a resource limit"
    else:
        error = f"ProcessError: interpreter exited with code {proc.returncode} before reporting"
    ok = not timed_out and status is not None and bool(status.get("ok")) and proc.returncode == 0
    result = PyExecResult(ok=ok, stdout=stdout, stderr=stderr, error=None if ok else error, timed_out=timed_out, duration_s=duration)
    if record:
        emit(ProgramRun(
            name=name, code=bounded(code, TRACE_CHARS), output=bounded(stdout, TRACE_CHARS),
            error=result.error, latency_s=duration,
            details={"timed_out": timed_out, "stderr": bounded(stderr, TRACE_CHARS), "inputs": sorted((inputs or {}).keys())},
        ))
    return result


_POOL = concurrent.futures.ThreadPoolExecutor(max_workers=4, thread_name_prefix="pyexec-sync")


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to completion from sync code, even when this thread already runs a loop
    (a notebook, a LangGraph node): then it runs on a helper thread with its own loop, in a copy
    of this context so the events it emits still reach this episode's listeners."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    return _POOL.submit(contextvars.copy_context().run, asyncio.run, coro).result()


def run_python_sync(code: str, **kwargs: Any) -> PyExecResult:
    """Blocking ``run_python`` (same arguments)."""
    return run_sync(run_python(code, **kwargs))
