"""Runs inside the sandbox (``restgraph.tools.codebox``) for the Synthetic API checker; never imported by the host.

Reads ``{"programs": [...], "inert": [...], "timeout_s": t}`` on stdin. Each program runs in its own
process forked from this pristine one (so nothing a sample does to builtins, classes or modules can
reach the next sample), with stdin/stdout/stderr on ``/dev/null`` and one private pipe for its
result. A program the host classified as inert (``restgraph.tools.synthetic_api.inert``: it cannot reach any
shared state) runs in this process instead, under an alarm, which saves the fork. This process
makes itself non-dumpable first, so a sample cannot open its ``/proc`` entries (memory, descriptors)
to tamper with later samples; the sandbox's process limit leaves a sample no room to fork.

The sample's process reports only data: the value ``x`` the test computed, as ``{"type": "Dummy",
"s": <recorded call string>}`` when it is an instance of the program's own ``Dummy`` class (the first
class the program builds, captured before any sample code runs) or ``{"type": <name>}`` otherwise,
or ``{"error": <exception text>}``. The expected value ``y`` never enters the sandbox: the host
computes it and compares, so nothing written here can be a verdict. One JSON line per program goes
to stdout: ``{"i": i, "r": <the sample's raw report or null>, "status": <wait status>, "timed_out": bool}``.
"""

import builtins
import ctypes
import gc
import json
import os
import resource
import select
import signal
import sys
import time

PR_SET_DUMPABLE = 4
MAX_REPORT = 65536
_dumps = json.dumps
_write = os.write
_exit = os._exit


class _SampleTimeout(BaseException):
    """Raised by the alarm into an inert sample run in this process (a BaseException: ``except
    Exception`` cannot swallow it; inert samples have no broader handler)."""


def _alarm(signum, frame):
    raise _SampleTimeout()


class _Sink:
    def write(self, text):
        return len(text)

    def flush(self):
        pass


def _report(code):
    """Run one compiled program in this (forked) process; returns the JSON-able report."""
    captured = []
    real_build = builtins.__build_class__

    def build_class(func, name, *args, **kwargs):
        cls = real_build(func, name, *args, **kwargs)
        if not captured:
            captured.append(cls)
        return cls

    user_builtins = dict(vars(builtins))
    user_builtins["__build_class__"] = build_class
    globals_, locals_ = {"__builtins__": user_builtins}, {}
    sys.stdout = sys.stderr = _Sink()
    try:
        exec(code, globals_, locals_)
    except BaseException as exc:  # noqa: BLE001 - whatever the sample raises is its result
        if type(exc) is _SampleTimeout:
            raise
        try:
            return {"error": (type(exc).__name__ + ": " + str(exc))[:2000]}
        except BaseException:  # noqa: BLE001
            return {"error": "an exception whose text could not be read"}
    missing = object()
    x = locals_.get("x", missing)
    if x is missing:
        x = globals_.get("x", missing)
    if x is missing:
        return {"error": "NameError: name 'x' is not defined"}
    if captured and type(x) is captured[0]:
        s = object.__getattribute__(x, "__dict__").get("s")
        return {"type": "Dummy", "s": s if type(s) is str else None}
    name = type(x).__name__
    return {"type": name if type(name) is str else "?"}


def _child(code, w, cpu_s):
    try:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s))
        gc.enable()
        null = os.open("/dev/null", os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.closerange(3, w)
        os.closerange(w + 1, resource.getrlimit(resource.RLIMIT_NOFILE)[1])
        report = _report(code) if not isinstance(code, dict) else code
        _write(w, _dumps(report).encode("utf-8", "replace"))
    finally:
        _exit(0)


def _wait(pid, r, timeout_s):
    """Collect the child's report until it exits or the deadline passes (then kill it)."""
    pidfd = os.pidfd_open(pid)
    data = bytearray()
    deadline = time.monotonic() + timeout_s
    timed_out, eof = False, False
    try:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                os.kill(pid, signal.SIGKILL)
                timed_out = True
                break
            ready = select.select([pidfd] if eof else [r, pidfd], [], [], remaining)[0]
            if r in ready:
                chunk = os.read(r, 65536)
                eof = not chunk
                if len(data) < MAX_REPORT:
                    data.extend(chunk[: MAX_REPORT - len(data)])
            if pidfd in ready:
                break
        _, status = os.waitpid(pid, 0)
        while not eof and select.select([r], [], [], 0)[0]:
            chunk = os.read(r, 65536)
            eof = not chunk
            if len(data) < MAX_REPORT:
                data.extend(chunk[: MAX_REPORT - len(data)])
    finally:
        os.close(pidfd)
    return data, status, timed_out


def _inline(code, timeout_s):
    """An inert sample (``restgraph.tools.synthetic_api.inert``) runs here, without a fork, under an alarm."""
    timed_out, report = False, None
    try:
        try:
            signal.setitimer(signal.ITIMER_REAL, timeout_s)
            report = _report(code)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    except _SampleTimeout:
        timed_out = True
    return (None if report is None else _dumps(report)), timed_out


def main():
    job = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    os.close(0)
    if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_DUMPABLE, 0) failed")
    timeout_s = float(job["timeout_s"])
    gc.collect()
    gc.freeze()  # forked samples then share these pages instead of copying them when the collector runs
    cpu_s = int(timeout_s) + 1
    signal.signal(signal.SIGALRM, _alarm)
    inert = job.get("inert") or [False] * len(job["programs"])
    gc.disable()
    for i, program in enumerate(job["programs"]):
        try:  # compiling runs nothing; here it leaves the forked sample less to copy
            code = compile(program, "<sample>", "exec")
        except BaseException as exc:  # noqa: BLE001 - a sample that does not compile fails alone
            code = {"error": (type(exc).__name__ + ": " + str(exc))[:2000]}
        if inert[i] and not isinstance(code, dict):
            raw, timed_out = _inline(code, timeout_s)
            _write(
                1, (_dumps({"i": i, "r": raw, "status": 0, "timed_out": timed_out}) + "\n").encode("utf-8")
            )
            continue
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            _child(code, w, cpu_s)
        os.close(w)
        data, status, timed_out = _wait(pid, r, timeout_s)
        os.close(r)
        raw = data.decode("utf-8", "replace") if data else None
        _write(
            1, (_dumps({"i": i, "r": raw, "status": status, "timed_out": timed_out}) + "\n").encode("utf-8")
        )


if __name__ == "__main__":
    main()
