"""Bootstrap that runs inside the sandbox subprocess started by ``tools.pyexec``.

It is executed with ``python -I -S`` as a script (never imported by the host). Order matters:
read the job from stdin, apply resource limits, install the audit hook, then run the user code.
Nothing the user code does can remove the audit hook (CPython offers no way to), so every
socket, process, ctypes, signal and file-write event after that point is refused. The final
status goes to stderr behind a per-run nonce so the host can tell it apart from user output.
"""

import builtins
import contextlib
import io
import json
import os
import resource
import sys

#: modules user code may never import (directly or transitively): network, processes, FFI
DENIED_MODULES = frozenset({
    "socket", "_socket", "ssl", "_ssl", "ctypes", "_ctypes", "cffi", "_posixsubprocess", "subprocess",
    "multiprocessing", "_multiprocessing", "pty", "fcntl", "http", "urllib", "ftplib", "smtplib", "telnetlib",
    "xmlrpc", "socketserver", "webbrowser", "_posixshmem",
})
#: audit events refused outright (prefix match on the part before the first '.')
DENIED_EVENT_PREFIXES = ("socket.", "ctypes.", "subprocess.", "_posixsubprocess.", "winreg.", "msvcrt.")
DENIED_EVENTS = frozenset({
    "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty", "os.kill", "os.killpg",
    "signal.pthread_kill", "os.remove", "os.rmdir", "os.rename", "os.truncate", "os.chmod", "os.chown",
    "os.chflags", "os.link", "os.symlink", "os.mkdir", "os.utime", "os.setxattr", "os.removexattr",
    "shutil.rmtree", "shutil.copyfile", "shutil.copymode", "shutil.copystat", "shutil.move", "shutil.chown",
    "shutil.make_archive", "shutil.unpack_archive", "_thread.start_new_thread", "os.startfile", "pty.spawn",
    "sqlite3.connect",
})
#: paths user code may not even read: other processes' environments, the host user's files
DENIED_READ_PREFIXES = ("/proc", "/sys", "/root", "/home", "/dev/mem", "/dev/kmem", "/etc/shadow")
#: ...except the interpreter's own installation (which may live under a home directory, e.g. pyenv)
ALLOWED_READ_PREFIXES = tuple(sorted({os.path.join(p, "") for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix)}))
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


class SandboxViolation(PermissionError):
    """Raised inside the sandbox when user code attempts a refused operation."""


def _limits(job: dict) -> None:
    mem = int(job["memory_mb"]) * 1024 * 1024
    cpu = int(job["cpu_s"])
    for name, value in (("RLIMIT_AS", mem), ("RLIMIT_CPU", cpu), ("RLIMIT_NPROC", 64), ("RLIMIT_FSIZE", 0),
                        ("RLIMIT_NOFILE", 64), ("RLIMIT_CORE", 0)):
        limit = getattr(resource, name, None)
        if limit is None:
            continue
        # a hard limit already lower than ours: keep the lower one
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(limit, (value, value))


def _hook(event: str, args: tuple) -> None:
    if event in DENIED_EVENTS or event.startswith(DENIED_EVENT_PREFIXES):
        raise SandboxViolation(f"sandbox: {event} is not allowed")
    if event == "import":
        top = str(args[0]).split(".")[0]
        if top in DENIED_MODULES:
            raise SandboxViolation(f"sandbox: import of {top} is not allowed")
    elif event == "open":
        path, mode, flags = (list(args) + [None, None, None])[:3]
        if isinstance(path, int):  # re-wrapping an inherited descriptor (the pipes) creates nothing
            return
        if isinstance(mode, str) and any(c in mode for c in "wax+"):
            raise SandboxViolation(f"sandbox: opening {path!r} for writing is not allowed")
        if isinstance(flags, int) and flags & _WRITE_FLAGS:
            raise SandboxViolation(f"sandbox: opening {path!r} for writing is not allowed")
        if isinstance(path, (str, bytes)):
            text = os.fsdecode(path)
            if text.startswith(DENIED_READ_PREFIXES) and not os.path.abspath(text).startswith(ALLOWED_READ_PREFIXES):
                raise SandboxViolation(f"sandbox: reading {text!r} is not allowed")


def _guarded_import(allowed: frozenset[str] | None):
    real = builtins.__import__

    def importer(name, globals=None, locals=None, fromlist=(), level=0):
        if allowed is not None and level == 0 and name.split(".")[0] not in allowed:
            raise SandboxViolation(f"sandbox: import of {name} is not allowed (allowed: {', '.join(sorted(allowed))})")
        return real(name, globals, locals, fromlist, level)

    return importer


def main() -> None:
    job = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    nonce = job["nonce"]
    status_out = sys.stderr
    _limits(job)
    allowed = frozenset(job["allowed_modules"]) if job.get("allowed_modules") is not None else None
    user_builtins = dict(vars(builtins))
    user_builtins["__import__"] = _guarded_import(allowed)
    namespace = {"__name__": "__main__", "__builtins__": user_builtins, **(job.get("inputs") or {})}
    code = compile(job["code"], "<sandbox>", "exec")
    sys.stdin = io.StringIO("")
    sys.addaudithook(_hook)
    status: dict = {"ok": True, "error": None}
    try:
        exec(code, namespace)
    except SystemExit as exc:
        if exc.code not in (None, 0):
            status = {"ok": False, "error": f"SystemExit: {exc.code}"}
    except BaseException as exc:  # noqa: BLE001 - everything the user code raises is a result
        status = {"ok": False, "error": f"{type(exc).__name__}: {exc}"[:4000]}
    with contextlib.suppress(Exception):
        sys.stdout.flush()
    status_out.write(f"\n{nonce} {json.dumps(status)}\n")
    status_out.flush()


if __name__ == "__main__":
    main()
