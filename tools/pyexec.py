"""Sandboxed Python execution for model-written code (the RestGPT response parser, notebooks).

Model-written code never runs in the host process. ``run_python`` starts a fresh interpreter in
the operating-system sandbox of ``restgraph.tools.codebox`` (bubblewrap namespaces, an unprivileged uid, a
read-only view of only the interpreter, a private tmpfs, kernel rlimits; one process, no threads)
through the bootstrap ``tools/pyexec_child.py``. Safe from any thread or event loop.

The sandbox returns only data: stdout and stderr (bounded) and the exit status. ``ok`` is decided
here from that status (exit 0, no timeout), so nothing the code prints can forge it and megabytes
of stderr cannot flip it. The error text of a failed run is read from the end of stderr.

Every execution emits a ``restgraph.tools.events.ProgramRun`` (the harness records it in the episode
trace as a ``ToolCall(kind="python")``) with the code and output bounded.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import json
import math
import secrets
import signal
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from restgraph.tools import codebox, forkserver
from restgraph.tools.events import ProgramRun, emit
from restgraph.tools.trace_schema import bounded

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


def _decode(data: bytes, truncated: bool) -> str:
    return data.decode("utf-8", errors="replace") + ("\n...[output truncated]" if truncated else "")


def _error_text(tail: bytes, nonce: str) -> str | None:
    text = tail.decode("utf-8", errors="replace")
    at = text.rfind(f"\n{nonce} ")
    if at < 0:
        return None
    try:
        error = json.loads(text[at + len(nonce) + 2 :].split("\n", 1)[0])
    except json.JSONDecodeError:
        return None
    return error if isinstance(error, str) else None


def _last_line(tail: bytes) -> str:
    lines = tail.decode("utf-8", errors="replace").strip().splitlines()
    return f" ({lines[-1][:300]})" if lines else ""


def _strip_status(stderr: str, nonce: str) -> str:
    at = stderr.rfind(f"\n{nonce} ")
    return stderr if at < 0 else stderr[:at]


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

    ``allowed_modules`` (top-level names) restricts what the code may import itself (a policy, not
    the security boundary); ``None`` allows any standard-library module. ``idle_timeout_s`` kills a child that
    prints nothing for that long (batch runners stream one line per item)."""
    if timeout_s <= 0 or memory_mb <= 0:
        raise ValueError(f"timeout_s and memory_mb must be positive, got {timeout_s}, {memory_mb}")
    nonce = "RGSTATUS-" + secrets.token_hex(16)
    try:
        payload = json.dumps(
            {
                "code": code,
                "inputs": inputs or {},
                "nonce": nonce,
                "allowed_modules": sorted(allowed_modules) if allowed_modules is not None else None,
            }
        )
    except (TypeError, ValueError) as exc:
        raise ValueError(f"run_python inputs must be JSON-serialisable: {exc}") from exc
    limits = codebox.Limits(memory_mb=memory_mb, cpu_s=math.ceil(timeout_s) + 1)
    raw = await forkserver.run_program(
        CHILD,
        payload.encode("utf-8"),
        limits=limits,
        timeout_s=timeout_s,
        idle_timeout_s=idle_timeout_s,
        max_output_bytes=max_output_bytes,
    )
    stdout = _decode(raw.stdout, raw.stdout_truncated)
    stderr = _strip_status(_decode(raw.stderr, len(raw.stderr) >= max_output_bytes), nonce)
    timed_out, duration = raw.timed_out, raw.duration_s
    ok = not timed_out and raw.returncode == 0
    if ok:
        error = None
    elif timed_out:
        error = (
            f"TimeoutError: no output for {idle_timeout_s:g}s"
            if raw.idle_out
            else f"TimeoutError: no result within {timeout_s:g}s"
        )
    elif raw.returncode == 1:
        error = _error_text(raw.stderr_tail, nonce) or "the code failed (exit status 1)"
    elif raw.returncode is not None and raw.returncode < 0:
        error = f"Killed: signal {-raw.returncode} ({signal.Signals(-raw.returncode).name}); likely a resource limit"
    elif raw.returncode is None:
        error = "ProcessError: the sandbox ended before the program did" + _last_line(raw.stderr_tail)
    else:
        error = f"ProcessError: interpreter exited with code {raw.returncode}"
    result = PyExecResult(
        ok=ok,
        stdout=stdout,
        stderr=stderr,
        error=None if ok else error,
        timed_out=timed_out,
        duration_s=duration,
    )
    if record:
        emit(
            ProgramRun(
                name=name,
                code=bounded(code, TRACE_CHARS),
                output=bounded(stdout, TRACE_CHARS),
                error=result.error,
                latency_s=duration,
                details={
                    "timed_out": timed_out,
                    "stderr": bounded(stderr, TRACE_CHARS),
                    "inputs": sorted((inputs or {}).keys()),
                },
            )
        )
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
