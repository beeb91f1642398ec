"""The operating-system sandbox that every piece of model-written code runs in.

One job = one fresh process tree built by bubblewrap (Debian package ``bubblewrap``):

- **namespaces**: new PID, IPC, UTS, network (only a down-to-loopback ``lo``), cgroup and mount
  namespaces. The sandbox sees its own ``/proc`` (``--proc``), so the harness, its environment and
  its command line do not exist for it; it cannot signal or ``prlimit`` a process it cannot name;
- **files**: a read-only view of ``/usr`` and the interpreter's installation (its ``site-packages``
  hidden), the bootstrap script bound read-only at ``/rg/boot.py``, a private size-capped tmpfs at
  ``/tmp`` as the only writable place, a minimal ``/dev``. Not the project tree, not
  ``$RESTGRAPH_DATA_DIR``, not the run folder, not ``/etc`` or ``/home``;
- **identity**: bubblewrap runs as root here, and ``--unshare-user`` would map the sandbox uid to
  host root, which the kernel exempts from ``RLIMIT_NPROC`` (measured: 20 forks under a limit of 4).
  So the command drops, inside the namespaces, to a fresh random unprivileged host uid with
  ``setpriv`` (no capabilities, empty bounding set, ``no_new_privs``);
- **limits**: ``prlimit`` sets address space, CPU seconds, processes (threads count), file size,
  open files and core size before Python starts; the uid drop makes them binding;
- **syscalls**: the seccomp filter of ``restgraph.tools.syscall_filter`` (``--seccomp``): no kernel
  keyrings, no new namespaces, no mounts, tracing, ``bpf``, ``io_uring``, inotify, personality
  flags or ``prlimit`` on another process; without it the sandbox is refused unless the user
  names ``bwrap-no-seccomp``;
- **lifetime**: ``--die-with-parent`` and ``--new-session``; the PID namespace dies with its init,
  so nothing the code starts outlives the job; an empty environment (``--clearenv``) and bwrap
  itself started with an empty environment.

``run`` starts one sandbox per job (``--code-sandbox bwrap-cold``, and the Synthetic API checker,
which batches); ``restgraph.tools.forkserver`` serves jobs from a warm sandbox built by ``server_command``
(``--code-sandbox bwrap``, the default for ``restgraph.tools.pyexec``).

``run`` is transport only: bytes in on stdin, bounded bytes out, the exit status. What the bytes
mean is for the caller (``restgraph.tools.pyexec``, the Synthetic API checker) to decide outside the sandbox.
Where bubblewrap is missing or cannot create namespaces, ``SandboxUnavailable`` says so and names
the package and the choices; there is no silent fallback. ``none`` (trusted debugging only) runs
the interpreter directly with the same limits and no isolation, and says so loudly.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from restgraph.tools import sandbox_argv, syscall_filter
from restgraph.tools.sandbox_argv import (
    BOOT_PATH,
    FILTER_PATH,
    JAIL,
    JAIL_PATH,
    SERVER_CAPS,
    SERVER_PATH,
    UID_RANGE,
    Limits,
    interpreter,
    issued_uids,
    new_uid,
    parent_command,
    server_command,
)

__all__ = [
    "BOOT_PATH",
    "CHOICES",
    "FILTERED",
    "FILTER_PATH",
    "JAIL",
    "JAIL_PATH",
    "SERVER_CAPS",
    "SERVER_PATH",
    "UID_RANGE",
    "WARM",
    "Limits",
    "RawRun",
    "SandboxUnavailable",
    "command",
    "ensure_available",
    "filter_fd",
    "interpreter",
    "issued_uids",
    "mode",
    "new_uid",
    "parent_command",
    "run",
    "server_command",
    "set_mode",
]

log = logging.getLogger(__name__)

CodeSandbox = Literal["bwrap", "bwrap-cold", "bwrap-no-seccomp", "none"]
#: ``bwrap``: programs run in a warm fork server inside the sandbox (``restgraph.tools.forkserver``);
#: ``bwrap-cold``: a new sandbox and interpreter per program; both under the seccomp filter of
#: ``restgraph.tools.syscall_filter``. ``bwrap-no-seccomp``: ``bwrap`` without the filter (the
#: user's named opt-out on a machine without libseccomp); ``none``: unisolated (debugging only)
CHOICES: tuple[str, ...] = ("bwrap", "bwrap-cold", "bwrap-no-seccomp", "none")
#: the modes whose programs run under the seccomp filter; the modes served by the warm fork server
FILTERED: frozenset[str] = frozenset({"bwrap", "bwrap-cold"})
WARM: frozenset[str] = frozenset({"bwrap", "bwrap-no-seccomp"})
SANDBOX_ENV = "RESTGRAPH_CODE_SANDBOX"
#: bytes of stderr kept from the end (a status line after megabytes of noise is still read)
STDERR_TAIL = 16_384


class SandboxUnavailable(RuntimeError):
    """The chosen code sandbox cannot run on this machine (the message says what to do)."""


@dataclass
class RawRun:
    stdout: bytes
    stderr: bytes
    stderr_tail: bytes
    returncode: int | None
    timed_out: bool
    idle_out: bool
    duration_s: float
    stdout_truncated: bool


_mode: list[str] = [os.environ.get(SANDBOX_ENV, "bwrap")]


def set_mode(mode: str) -> None:
    """Choose the code sandbox for this process (the CLI's ``--code-sandbox``)."""
    if mode not in CHOICES:
        raise ValueError(f"unknown code sandbox {mode!r}; choices: {', '.join(CHOICES)}")
    if mode == "none":
        log.warning(
            "code sandbox 'none': model-written code runs UNISOLATED with only rlimits (trusted debugging only)"
        )
    elif mode not in FILTERED:
        log.warning(
            "code sandbox %r: model-written code runs WITHOUT the seccomp filter (kernel keyrings, nested "
            "namespaces, inotify, ptrace are reachable)",
            mode,
        )
    _mode[0] = mode


def mode() -> str:
    return _mode[0]


def _unavailable(reason: str) -> SandboxUnavailable:
    return SandboxUnavailable(
        f"model-written code cannot be sandboxed: {reason}. Install bubblewrap and libseccomp (Debian/Ubuntu: "
        f"apt-get install bubblewrap libseccomp2; bwrap needs user or root privileges to create namespaces), or "
        f"choose --code-sandbox from {{{', '.join(CHOICES)}}} ('bwrap-no-seccomp' drops the syscall filter, "
        f"'none' runs model code unisolated: trusted debugging only)"
    )


def command(
    script: Path, limits: Limits, *, sandbox: str | None = None, seccomp_fd: int | None = None
) -> list[str]:
    """``sandbox_argv.command`` under ``sandbox`` (default: this process's ``mode()``)."""
    return sandbox_argv.command(script, limits, sandbox or mode(), seccomp_fd)


@contextlib.contextmanager
def filter_fd(sandbox: str, *, server: bool = False):  # noqa: ANN201 - a context manager of int | None
    """The seccomp filter as a descriptor for bwrap (``None`` for the unfiltered modes), closed after."""
    if sandbox not in FILTERED:
        yield None
        return
    try:
        fd = syscall_filter.memfd(server)
    except syscall_filter.FilterUnavailable as exc:
        raise _unavailable(str(exc)) from exc
    try:
        yield fd
    finally:
        os.close(fd)


#: the probe job: an unprivileged uid, and whether a seccomp filter is loaded (mode 2)
PROBE = """import os
assert os.getuid() != 0
seccomp = [line.split()[1] for line in open("/proc/self/status") if line.startswith("Seccomp:")]
print("ok filter", seccomp[0] if seccomp else "?")
"""


@functools.cache
def _probe(sandbox: str) -> str | None:
    """Run one trivial job; ``None`` if it works, else why not (checked once per process)."""
    if sandbox == "none":
        return None
    for tool in ("bwrap", "setpriv", "prlimit"):
        if shutil.which(tool) is None:
            return f"'{tool}' is not installed"
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as fh:
        fh.write(PROBE)
    os.chmod(fh.name, 0o644)
    try:
        with filter_fd(sandbox) as fd:
            done = subprocess.run(
                command(Path(fh.name), Limits(), sandbox=sandbox, seccomp_fd=fd),
                capture_output=True,
                timeout=30,
                env={},
                pass_fds=() if fd is None else (fd,),
            )
    except SandboxUnavailable as exc:
        return str(exc).split(". Install", 1)[0].removeprefix("model-written code cannot be sandboxed: ")
    except (OSError, subprocess.SubprocessError) as exc:
        return f"bwrap failed to start ({type(exc).__name__}: {exc})"
    finally:
        os.unlink(fh.name)
    filtered = b"filter 2" in done.stdout
    if done.returncode == 0 and sandbox in FILTERED and not filtered:
        return "the seccomp filter did not load (/proc/self/status shows no filter inside the sandbox)"
    if done.returncode != 0 or not done.stdout.startswith(b"ok"):
        return f"bwrap could not create the sandbox (exit {done.returncode}: {done.stderr.decode(errors='replace').strip()[:300]})"
    return None


def ensure_available(sandbox: str | None = None) -> None:
    """Raise ``SandboxUnavailable`` (with what to do) unless the chosen sandbox works here."""
    reason = _probe(sandbox or mode())
    if reason is not None:
        raise _unavailable(reason)


async def drain(
    stream: asyncio.StreamReader, keep: bytearray, limit: int, tail: bytearray | None, activity: list[float]
) -> None:
    while True:
        chunk = await stream.read(65536)
        if not chunk:
            return
        activity[0] = time.monotonic()
        room = limit - len(keep)
        if room > 0:
            keep.extend(chunk[:room])
        if tail is not None:
            tail.extend(chunk)
            del tail[:-STDERR_TAIL]


def _kill_group(proc: asyncio.subprocess.Process) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        with contextlib.suppress(ProcessLookupError):
            proc.kill()


async def run(
    script: Path,
    stdin: bytes,
    *,
    limits: Limits,
    timeout_s: float,
    idle_timeout_s: float | None = None,
    max_output_bytes: int = 1_000_000,
    privileged: bool = False,
) -> RawRun:
    """Run ``script`` in a fresh sandbox, feed it ``stdin``, and return its bounded output.

    ``privileged``: ``script`` is a trusted parent that forks each program into its own world
    (``parent_command``), not a program itself; under ``none`` it runs like any script.
    Safe from any thread or event loop. The whole process tree is killed on wall-clock timeout, on
    ``idle_timeout_s`` without stdout, and on cancellation."""
    sandbox = mode()
    ensure_available(sandbox)
    started = time.monotonic()
    out, err, tail = bytearray(), bytearray(), bytearray()
    timed_out = idle_out = False
    workdir = tempfile.mkdtemp(prefix="rg-codebox-") if sandbox == "none" else "/"
    proc = None
    try:
        with (
            filter_fd(sandbox, server=privileged) as fd,
            filter_fd(sandbox if privileged else "none") as children,
        ):
            if privileged and sandbox != "none":
                fds = None if fd is None or children is None else (fd, children)
                argv = parent_command(script, limits, fds)
            else:
                argv = command(script, limits, sandbox=sandbox, seccomp_fd=fd)
            proc = await asyncio.create_subprocess_exec(
                *argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                cwd=workdir,
                env={"PATH": "/usr/bin:/bin", "HOME": workdir, "LANG": "C.UTF-8"},
                start_new_session=True,
                pass_fds=tuple(one for one in (fd, children) if one is not None),
            )
        assert (
            proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        )  # all three are PIPEs
        activity = [time.monotonic()]
        readers = [
            asyncio.ensure_future(drain(proc.stdout, out, max_output_bytes, None, activity)),
            asyncio.ensure_future(drain(proc.stderr, err, max_output_bytes, tail, [0.0])),
        ]
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            proc.stdin.write(stdin)
            await proc.stdin.drain()
            proc.stdin.close()
        deadline = started + timeout_s
        while True:
            now = time.monotonic()
            wait = deadline - now
            if idle_timeout_s is not None:
                wait = min(wait, activity[0] + idle_timeout_s - now)
            if wait <= 0:
                timed_out = True
                idle_out = deadline - now > 0
                _kill_group(proc)
                break
            try:
                await asyncio.wait_for(asyncio.shield(proc.wait()), timeout=min(wait, 0.5))
                break
            except TimeoutError:
                continue
        await proc.wait()
        _kill_group(proc)
        await asyncio.wait_for(asyncio.gather(*readers, return_exceptions=True), timeout=5)
    except asyncio.CancelledError:
        if proc is not None:
            _kill_group(proc)
        raise
    finally:
        if sandbox == "none":
            shutil.rmtree(workdir, ignore_errors=True)
    return RawRun(
        stdout=bytes(out),
        stderr=bytes(err),
        stderr_tail=bytes(tail),
        returncode=proc.returncode,
        timed_out=timed_out,
        idle_out=idle_out,
        duration_s=round(time.monotonic() - started, 6),
        stdout_truncated=len(out) >= max_output_bytes,
    )
