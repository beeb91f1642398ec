"""A sandbox that starts warm: one long-lived bubblewrap sandbox per host process and bootstrap
script, whose pristine interpreter forks a fresh child for every program.

Starting a new interpreter inside a new ``bwrap`` sandbox for each parser run costs tens of
milliseconds; forking an already started one costs about one. What each program gets is unchanged
in kind (see ``tools/forkserver_child.py`` for the child's set-up): a fresh process forked from a
server that never ran model code (so no globals, modules or builtins carried over), its own fresh
uid, ``/tmp``, IPC and network namespaces, kernel rlimits per child, and the sandbox's namespaces (no network,
a read-only view of only the interpreter, no host processes). Programs run concurrently: the
server forks as many children as jobs arrive, and uid separation keeps them from touching each
other or the server.

Transport is the same as ``codebox.run`` (bytes in, bounded bytes out, an exit status) and the
result is the same ``RawRun``: the job's stdin is a memfd and its stdout/stderr are pipes created
here and handed to the server with ``SCM_RIGHTS``; the server passes them to the child and reports
only the raw wait status, on a per-job status pipe. Timeouts stay decided here (a ``kill`` message;
the server also kills at the job's deadline as a backstop). A server that dies (or stops
answering) is discarded with its whole sandbox and the next job starts a new one; a job it held
without reporting runs once more on the new one (a program reaches nothing outside its sandbox,
so a second run is invisible), within the job's own deadline.

Thread- and loop-safe: one thread per server started bwrap (so ``--die-with-parent`` follows a
thread that lives as long as the server) and watches its control socket; each job's output and
status are read in the caller's event loop. ``shutdown()`` (also ``atexit``) ends every server.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import fcntl
import itertools
import json
import logging
import os
import signal
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from restgraph.tools import codebox

log = logging.getLogger(__name__)
SERVER = Path(__file__).with_name("forkserver_child.py")
#: how long a new server may take to say it is ready (a loaded machine, a cold page cache)
START_TIMEOUT_S = 30.0
#: after a kill, how long the server may take to report the status before it is replaced
KILL_GRACE_S = 5.0


class ServerDied(RuntimeError):
    """The fork server ended (or could not start) before it reported a job's status."""


class ForkServer:
    """One warm sandbox serving jobs of one bootstrap script."""

    def __init__(self, boot: Path, filtered: bool = True) -> None:
        self.boot = boot
        #: whether its children run under the seccomp filter (``codebox.FILTERED``)
        self.filtered = filtered
        self.dead = False
        self.reason = ""
        self.proc: subprocess.Popen[bytes] | None = None
        self._send = threading.Lock()
        self._ids = itertools.count(1)
        self._ready = threading.Event()
        self.sock, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self._thread = threading.Thread(target=self._serve, args=(theirs,), name="rg-forkserver", daemon=True)
        self._thread.start()
        if not self._ready.wait(START_TIMEOUT_S):
            self.close()
            raise ServerDied(f"the fork server did not start within {START_TIMEOUT_S:g}s")
        if self.dead:
            raise ServerDied(self.reason)

    def _serve(self, theirs: socket.socket) -> None:
        """Start the sandbox from this thread, wait for its "ready", then for its end."""
        sandbox = "bwrap" if self.filtered else "bwrap-no-seccomp"
        with tempfile.TemporaryFile() as errors:
            try:
                with (
                    codebox.filter_fd(sandbox, server=True) as own,
                    codebox.filter_fd(sandbox) as children,
                ):
                    fds = None if own is None or children is None else (own, children)
                    self.proc = subprocess.Popen(
                        codebox.server_command(SERVER, self.boot, fds),
                        stdin=theirs.fileno(),
                        stdout=subprocess.DEVNULL,
                        stderr=errors,
                        env={},
                        start_new_session=True,
                        pass_fds=fds or (),
                    )
                theirs.close()
                while data := self.sock.recv(65536):
                    if "ready" in json.loads(data):
                        self._ready.set()
                self.reason = "the fork server ended"
            except (OSError, ValueError, codebox.SandboxUnavailable) as exc:
                self.reason = f"the fork server failed: {type(exc).__name__}: {exc}"
            finally:
                theirs.close()
                self.dead = True
                self._kill_sandbox()
                with contextlib.suppress(OSError):
                    errors.seek(0)
                    text = errors.read().decode("utf-8", "replace").strip()
                    self.reason += f": {text[-500:]}" if text else ""
                self._ready.set()

    def _kill_sandbox(self) -> None:
        if self.proc is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(
                self.proc.pid, signal.SIGKILL
            )  # bwrap and, with its PID namespace, every process inside
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=10)

    def submit(self, job: dict, fds: list[int]) -> int:
        """Send one job with its descriptors (stdin memfd, stdout, stderr, status pipe); returns its id."""
        with self._send:
            if self.dead:
                raise ServerDied(self.reason)
            job_id = next(self._ids)
            try:
                socket.send_fds(self.sock, [json.dumps({**job, "id": job_id}).encode()], fds)
            except OSError as exc:
                self.dead = True
                self.reason = self.reason or f"the fork server stopped taking jobs: {exc}"
                raise ServerDied(self.reason) from exc
        return job_id

    def kill(self, job_id: int) -> None:
        with self._send, contextlib.suppress(OSError):
            socket.send_fds(self.sock, [json.dumps({"kill": job_id}).encode()], [])

    def abandon(self, reason: str) -> None:
        """Take no more jobs (one of its jobs saw it end); the next job starts a new server."""
        with self._send:
            self.reason = self.reason or reason
            self.dead = True

    def close(self) -> None:
        """End the server: end of file on its socket ends it and its children; the sandbox is killed too."""
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self._thread.join(timeout=15)
        self._kill_sandbox()
        self.sock.close()


#: live servers by (bootstrap script, children filtered): the two kinds can serve side by side
_servers: dict[tuple[Path, bool], ForkServer] = {}
_lock = threading.Lock()


def server(boot: Path, filtered: bool = True) -> ForkServer:
    """The live server for ``boot`` (its children filtered or not), started (or restarted after it
    died) as needed. Blocking."""
    with _lock:
        current = _servers.get((boot, filtered))
        if current is None or current.dead:
            if current is not None:
                log.warning("fork server replaced: %s", current.reason)
                current.close()
            current = _servers[(boot, filtered)] = ForkServer(boot, filtered)
        return current


def shutdown() -> None:
    """End every fork server of this process (registered with ``atexit``)."""
    with _lock:
        servers = list(_servers.values())
        _servers.clear()
    for one in servers:
        one.close()


def _forget_after_fork() -> None:
    """A forked host process starts its own servers (the parent's belong to the parent)."""
    global _lock
    _servers.clear()
    _lock = threading.Lock()


atexit.register(shutdown)
os.register_at_fork(after_in_child=_forget_after_fork)


def _memfd(data: bytes) -> int:
    """The job's stdin: a sealed, read-only in-memory file (a program cannot rewrite its own input)."""
    fd = os.memfd_create("rg-job", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
    os.lseek(fd, 0, os.SEEK_SET)
    os.fchmod(fd, 0o400)
    fcntl.fcntl(
        fd,
        fcntl.F_ADD_SEALS,
        fcntl.F_SEAL_WRITE | fcntl.F_SEAL_GROW | fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_SEAL,
    )
    return fd


class _Job:
    """The host's end of one job, read in the caller's event loop: bounded stdout (with the time of
    its last byte), stderr (with its tail) and the status pipe (its end of file finishes the job)."""

    def __init__(self, fds: tuple[int, int, int], max_output_bytes: int) -> None:
        self.loop = asyncio.get_running_loop()
        self.limit = max_output_bytes
        self.out, self.err, self.tail, self.status = bytearray(), bytearray(), bytearray(), bytearray()
        self.activity = time.monotonic()
        self.finished: asyncio.Future[None] = self.loop.create_future()
        self.drained: asyncio.Future[None] = self.loop.create_future()
        self.open: dict[int, bytearray] = {}
        for fd, sink in zip(fds, (self.out, self.err, self.status), strict=True):
            os.set_blocking(fd, False)
            self.open[fd] = sink
            self.loop.add_reader(fd, self._read, fd)

    def _read(self, fd: int) -> None:
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            return
        sink = self.open[fd]
        if not chunk:
            self._close(fd)
            if sink is self.status and not self.finished.done():
                self.finished.set_result(None)
            outputs_open = any(other is not self.status for other in self.open.values())
            if sink is not self.status and not outputs_open and not self.drained.done():
                self.drained.set_result(None)
            return
        if sink is self.out:
            self.activity = time.monotonic()
        elif sink is self.err:
            self.tail.extend(chunk)
            del self.tail[: -codebox.STDERR_TAIL]
        limit = 4096 if sink is self.status else self.limit
        sink.extend(chunk[: max(0, limit - len(sink))])

    def _close(self, fd: int) -> None:
        self.loop.remove_reader(fd)
        os.close(fd)
        del self.open[fd]

    def close(self) -> None:
        for fd in list(self.open):
            self._close(fd)

    def report(self) -> dict | None:
        try:
            found = json.loads(self.status) if self.status else None
        except ValueError:
            found = None
        return found if isinstance(found, dict) else None


async def _submit(boot: Path, job: dict, stdin: bytes) -> tuple[ForkServer, int, tuple[int, int, int]]:
    """Hand one job to a live server (started if needed); returns the read ends of its stdout,
    stderr and status pipes."""
    filtered = codebox.mode() in codebox.FILTERED
    live = _servers.get((boot, filtered))
    if live is None or live.dead:
        live = await asyncio.get_running_loop().run_in_executor(None, server, boot, filtered)
    pipes = [os.pipe() for _ in range(3)]
    mem = _memfd(stdin)
    try:
        job_id = live.submit(job, [mem, *(w for _, w in pipes)])
    except ServerDied:
        for r, _ in pipes:
            os.close(r)
        raise
    finally:
        for fd in (mem, *(w for _, w in pipes)):
            os.close(fd)
    return live, job_id, (pipes[0][0], pipes[1][0], pipes[2][0])


async def _finish(
    live: ForkServer, job_id: int, job: _Job, deadline: float, idle_timeout_s: float | None
) -> tuple[bool, bool]:
    """Wait for the job's status; kill it at the deadline or after ``idle_timeout_s`` without stdout.
    Returns (timed out, idle out)."""
    while not job.finished.done():
        now = time.monotonic()
        wait = deadline - now
        if idle_timeout_s is not None:
            wait = min(wait, job.activity + idle_timeout_s - now)
        if wait <= 0:
            live.kill(job_id)
            await asyncio.wait({job.finished}, timeout=KILL_GRACE_S)
            if not job.finished.done():
                log.warning("fork server did not report a killed job within %gs; replacing it", KILL_GRACE_S)
                await asyncio.get_running_loop().run_in_executor(None, live.close)
            return True, deadline - now > 0
        await asyncio.wait({job.finished}, timeout=min(wait, 0.5))
    return False, False


async def run(
    boot: Path,
    stdin: bytes,
    *,
    limits: codebox.Limits,
    timeout_s: float,
    idle_timeout_s: float | None = None,
    max_output_bytes: int = 1_000_000,
) -> codebox.RawRun:
    """``codebox.run`` semantics, served by the warm sandbox of ``boot``.

    A job whose server died before reporting it runs once more on a fresh server, within the same
    deadline: a program reaches nothing outside its sandbox, so running it again is invisible."""
    started = time.monotonic()
    for attempt in (1, 2):
        request = {"uid": codebox.new_uid(), "limits": limits.model_dump(), "deadline_s": timeout_s + 1.0}
        try:
            live, job_id, fds = await _submit(boot, request, stdin)
        except ServerDied:
            if attempt == 2:
                raise
            continue
        job = _Job(fds, max_output_bytes)
        try:
            timed_out, idle_out = await _finish(live, job_id, job, started + timeout_s, idle_timeout_s)
            await asyncio.wait({job.drained}, timeout=5)
        except BaseException:
            live.kill(job_id)
            raise
        finally:
            job.close()
        if job.report() is not None or timed_out or attempt == 2 or time.monotonic() >= started + timeout_s:
            break
        live.abandon("the fork server ended")  # end of file without a status: the server is gone
        log.warning(
            "fork server ended before it reported a job (%s); a new one runs the job again", live.reason
        )
    report = job.report()
    returncode = None
    if report is not None and isinstance(report.get("status"), int):
        returncode = os.waitstatus_to_exitcode(report["status"])
    else:
        why = report.get("error") if report is not None else (live.reason or "the fork server ended")
        job.tail.extend(f"\n{why}\n".encode())
    return codebox.RawRun(
        stdout=bytes(job.out),
        stderr=bytes(job.err),
        stderr_tail=bytes(job.tail),
        returncode=returncode,
        timed_out=timed_out,
        idle_out=idle_out,
        duration_s=round(time.monotonic() - started, 6),
        stdout_truncated=len(job.out) >= max_output_bytes,
    )


_cold: list[str] = []  # why this process runs programs cold (the warm server could not start here)


async def run_program(boot: Path, stdin: bytes, **kwargs) -> codebox.RawRun:
    """Run one program under the chosen ``--code-sandbox``: warm in ``bwrap`` mode, else ``codebox.run``.

    If the warm server cannot start at all on this machine (its sandbox needs capabilities plain
    ``bwrap`` does not), the same isolation is kept by falling back to one sandbox per program,
    said once in the log."""
    sandbox = codebox.mode()
    if sandbox not in codebox.WARM or _cold:
        return await codebox.run(boot, stdin, **kwargs)
    codebox.ensure_available()
    if (boot, sandbox in codebox.FILTERED) not in _servers:
        try:
            await asyncio.get_running_loop().run_in_executor(None, server, boot, sandbox in codebox.FILTERED)
        except ServerDied as exc:
            _cold.append(str(exc))
            log.warning(
                "the warm code sandbox cannot start here (%s); each program starts its own sandbox instead",
                exc,
            )
            return await codebox.run(boot, stdin, **kwargs)
    try:
        return await run(boot, stdin, **kwargs)
    except ServerDied as exc:  # no server could be (re)started just now: this program runs cold
        log.warning("the warm code sandbox failed (%s); this program starts its own sandbox", exc)
        return await codebox.run(boot, stdin, **kwargs)
