"""Runs inside the sandbox (``restgraph.tools.codebox``) for the Synthetic API checker; never imported by the host.

Reads ``{"programs": [...], "inert": [...], "timeout_s": t, "limits": {...}, "uids": [...],
"jail": bool}`` on stdin. This process is a trusted parent that never runs or compiles a sample:
one sample, one world. Each sample runs in its own process forked from this pristine one and
built by ``tools/jail_child.py`` (``jail``: under ``bwrap*``): its own mount namespace with a fresh
``/tmp``, its own IPC namespace, its own fresh uid (so no sibling can lower its rlimits, signal it
or fill its quotas), its own kernel rlimits (``limits``, memory included), no capabilities and the
seccomp filter. Its stdin/stdout/stderr are ``/dev/null`` and one private pipe carries its result.

Measured before this design (issue 29): a file one sample wrote to ``/tmp`` was read by the next;
a sample lowered this process's open-file limit (``prlimit(getppid(), NOFILE, 3)``) and the next
forked sample failed with ``EMFILE``; an in-process sample leaked memory with the collector off
and the next correct one died with ``MemoryError``.

The fork-free fast path stays where it is provably free of shared state: samples the host
classified as inert (``restgraph.tools.synthetic_api.inert``: no imports, no files, no attribute
or builtin that reaches shared objects) run one after another in a *worker*, itself a jailed fork
of this parent. The only state inert samples can share there is memory and CPU time, so before
each one the worker sets its soft address-space limit to what it uses now plus what a freshly
forked sample would get, and its soft CPU limit to what it used plus the sample's own seconds; the
collector runs during the sample as in a forked one. After a sample that left the worker bigger
than ``RETIRE_MB`` over its start (after a collection), the worker ends and the next inert sample
gets a new one; a worker that dies fails only the sample it ran.

The sample's process reports only data: the value ``x`` the test computed, as ``{"type": "Dummy",
"s": <recorded call string>}`` when it is an instance of the program's own ``Dummy`` class (the first
class the program builds, captured before any sample code runs) or ``{"type": <name>}`` otherwise,
or ``{"error": <exception text>}``. The expected value ``y`` never enters the sandbox: the host
computes it and compares, so nothing written here can be a verdict. One JSON line per program goes
to stdout: ``{"i": i, "r": <the sample's raw report or null>, "status": <wait status>, "timed_out": bool}``.
"""

import builtins
import contextlib
import gc
import importlib
import json
import os
import resource
import select
import signal
import sys
import time

MAX_REPORT = 65536
#: a worker whose address space grew this much past its start (after a collection) is replaced
RETIRE_MB = 32
#: head room of the worker's hard address-space limit over a forked sample's (``RETIRE_MB`` fits in it)
WORKER_SLACK_MB = 64
_dumps = json.dumps
_write = os.write
_exit = os._exit


class _SampleTimeout(BaseException):
    """Raised by the alarm into an inert sample run in the worker (a BaseException: ``except
    Exception`` cannot swallow it; inert samples have no broader handler)."""


def _alarm(signum, frame):
    raise _SampleTimeout()


class _Sink:
    def write(self, text):
        return len(text)

    def flush(self):
        pass


def _compile(program):
    try:  # compiling runs nothing, but it is model text: only a sample's own process compiles it
        return compile(program, "<sample>", "exec")
    except BaseException as exc:  # noqa: BLE001 - a sample that does not compile fails alone
        return {"error": (type(exc).__name__ + ": " + str(exc))[:2000]}


def _report(code):
    """Run one compiled program in this process; returns the JSON-able report."""
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


class _World:
    """How this parent gives each child its own world: the jail (``bwrap*``), or under
    ``--code-sandbox none`` only the rlimits (no namespaces, no uid: trusted debugging)."""

    def __init__(self, job):
        enabled = bool(job.get("jail"))
        sys.path.insert(0, "/rg" if enabled else os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        self.jail = importlib.import_module("jail" if enabled else "jail_child")
        self.parent = self.jail.Parent() if enabled else None
        self.limits = job["limits"]
        self.uids = list(job["uids"])
        self.tmpfs_mb = int(self.limits.get("tmpfs_mb", 32))

    def fork(self, limits, keep):
        """Fork a child in its own world; in the child, returns 0 with only ``keep`` (and /dev/null
        on 0, 1, 2) open. In the parent, returns (pid, handle on the child's mount namespace or None)."""
        namespace = self.parent.job_namespace(self.tmpfs_mb) if self.parent else None
        uid = self.uids.pop()
        try:
            pid = os.fork()
        except BaseException:
            if self.parent:
                self.parent.leave()
                os.close(namespace)
            raise
        if pid:
            if self.parent:
                self.parent.leave()
            return pid, namespace
        try:
            if self.parent:
                self.parent.enter(limits, uid)
                os.chdir("/tmp")
            else:
                self.jail.set_limits(limits)
            null = os.open("/dev/null", os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            low = 3
            for fd in sorted(keep):
                os.closerange(low, fd)
                low = fd + 1
            os.closerange(low, 1 << 16)
        except BaseException as exc:  # noqa: BLE001 - never back into the parent's loop
            try:
                os.write(2, f"\nchecker: sample setup failed: {type(exc).__name__}: {exc}\n".encode())
            finally:
                _exit(71)
        return 0, None


def _sample(world, program, timeout_s):
    """Run one sample in a fresh forked world; returns (raw report bytes, wait status, timed out)."""
    r, w = os.pipe()
    pid, namespace = world.fork(world.limits, (w,))
    if pid == 0:
        try:
            gc.enable()
            code = _compile(program)
            report = _report(code) if not isinstance(code, dict) else code
            _write(w, _dumps(report).encode("utf-8", "replace"))
        finally:
            _exit(0)
    os.close(w)
    try:
        return _wait(pid, r, timeout_s)
    finally:
        os.close(r)
        if namespace is not None:
            os.close(namespace)


def _wait(pid, r, timeout_s, data=None):
    """Collect the child's report until it exits or the deadline passes (then kill it). With
    ``data`` (the worker's pending output, extended in place): until it holds a whole line.
    Returns (data, wait status or None while it lives, timed out)."""
    pidfd = os.pidfd_open(pid)
    until_newline = data is not None
    cap = 1 << 62 if until_newline else MAX_REPORT  # the worker bounds its own lines
    data = bytearray() if data is None else data
    deadline = time.monotonic() + timeout_s
    timed_out, eof, status = False, False, None
    try:
        while not (until_newline and b"\n" in data):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                os.kill(pid, signal.SIGKILL)
                timed_out = True
                break
            ready = select.select([pidfd] if eof else [r, pidfd], [], [], remaining)[0]
            if r in ready:
                chunk = os.read(r, 65536)
                eof = not chunk
                if len(data) < cap:
                    data.extend(chunk[: cap - len(data)])
            if pidfd in ready:
                break
        if timed_out or not (until_newline and b"\n" in data):
            _, status = os.waitpid(pid, 0)
        while status is not None and not eof and select.select([r], [], [], 0)[0]:
            chunk = os.read(r, 65536)
            eof = not chunk
            if len(data) < cap:
                data.extend(chunk[: cap - len(data)])
    finally:
        os.close(pidfd)
    return data, status, timed_out


class _Size:
    """This process's address space in bytes (``/proc/self/statm``, kept open: read twice per sample)."""

    def __init__(self):
        self.fd = os.open("/proc/self/statm", os.O_RDONLY)
        self.page = resource.getpagesize()

    def __call__(self):
        return int(os.pread(self.fd, 128, 0).split()[0]) * self.page


def _cpu_s():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _worker_loop(programs, limits, timeout_s, cmd, out):
    """The inert samples' worker (never returns): one sample index in, one JSON line out."""
    mb = 1024 * 1024
    size = _Size()
    start = size()
    budget = limits["memory_mb"] * mb - start  # what a sample forked from the pristine parent gets
    own_cpu = int(limits["cpu_s"])
    hard_as = resource.getrlimit(resource.RLIMIT_AS)[1]
    hard_cpu = resource.getrlimit(resource.RLIMIT_CPU)[1]
    signal.signal(signal.SIGALRM, _alarm)
    queued = bytearray()
    while True:
        while len(queued) < 4:
            chunk = os.read(cmd, 65536)
            if not chunk:
                _exit(0)
            queued += chunk
        i = int.from_bytes(queued[:4], "little")
        del queued[:4]
        code = _compile(programs[i])
        raw, timed_out = None, False
        if isinstance(code, dict):
            raw = _dumps(code)
        else:
            resource.setrlimit(resource.RLIMIT_AS, (min(hard_as, size() + budget), hard_as))
            resource.setrlimit(resource.RLIMIT_CPU, (min(hard_cpu, int(_cpu_s()) + 1 + own_cpu), hard_cpu))
            gc.enable()
            try:
                try:
                    signal.setitimer(signal.ITIMER_REAL, timeout_s)
                    report = _report(code)
                finally:
                    signal.setitimer(signal.ITIMER_REAL, 0)
                    sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
                raw = _dumps(report)[:MAX_REPORT]  # cut like a forked sample's pipe (then unreadable)
            except _SampleTimeout:
                timed_out = True
            gc.disable()
            del code
        retire = size() - start > RETIRE_MB * mb
        if retire:  # garbage cycles first; what is still held after a collection retires the worker
            gc.collect()
            retire = size() - start > RETIRE_MB * mb
        # the parent's output line itself, after one flag byte: R = retiring after this one, K = not
        line = _dumps({"i": i, "r": raw, "status": 0, "timed_out": timed_out})
        _write(out, (("R" if retire else "K") + line + "\n").encode("utf-8"))
        if retire:
            _exit(0)  # grown: the next inert sample gets a fresh worker


class _Worker:
    """The parent's handle on the inert samples' worker."""

    def __init__(self, world, programs, timeout_s):
        cmd_r, self.cmd = os.pipe()
        self.out, out_w = os.pipe()
        limits = dict(world.limits)  # each sample's own soft limits are set in _worker_loop
        limits["memory_mb"] = int(limits["memory_mb"]) + WORKER_SLACK_MB
        limits["cpu_s"] = resource.getrlimit(resource.RLIMIT_CPU)[1]  # the batch's: the parent's own
        self.pending = bytearray()
        self.pid, self.namespace = world.fork(limits, (cmd_r, out_w))
        if self.pid == 0:
            _worker_loop(programs, world.limits, timeout_s, cmd_r, out_w)
        os.close(cmd_r)
        os.close(out_w)

    def send(self, indexes):
        """Queue samples (all at once: the worker answers one line each, without a round trip between)."""
        with contextlib.suppress(OSError):  # BrokenPipeError: it died; receive reports how
            _write(self.cmd, b"".join(i.to_bytes(4, "little") for i in indexes))

    def receive(self, timeout_s):
        """The next queued sample's outcome: (its output line, or ``None`` if the worker ended
        without one; wait status; timed out; worker still alive)."""
        status, timed_out = None, False
        if b"\n" not in self.pending:
            _, status, timed_out = _wait(self.pid, self.out, timeout_s + 1.0, self.pending)
        end = self.pending.find(b"\n")
        if end < 0 or self.pending[:1] not in (b"K", b"R"):
            return None, status, timed_out, False
        line = bytes(self.pending[1 : end + 1])
        alive = status is None and self.pending[:1] == b"K"
        del self.pending[: end + 1]
        return line, 0, False, alive

    def close(self):
        for fd in (self.cmd, self.out):
            os.close(fd)
        if self.namespace is not None:
            os.close(self.namespace)


def main():
    job = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    os.dup2(
        os.open("/dev/null", os.O_RDONLY), 0
    )  # 0, 1, 2 stay taken: a child's kept pipes are never among them
    world = _World(job)  # the jail's parent set-up makes this process non-dumpable, /proc hidden
    timeout_s = float(job["timeout_s"])
    programs = job["programs"]
    inert = job.get("inert") or [False] * len(programs)
    gc.collect()
    gc.freeze()  # forked samples then share these pages instead of copying them when the collector runs
    gc.disable()
    worker, i = None, 0
    while i < len(programs):
        if not inert[i]:
            data, status, timed_out = _sample(world, programs[i], timeout_s)
            _emit(i, data.decode("utf-8", "replace") if data else None, status, timed_out)
            i += 1
            continue
        end = i
        while end < len(programs) and inert[end]:
            end += 1
        if worker is None:
            worker = _Worker(world, programs, timeout_s)
        worker.send(range(i, end))
        while i < end:
            line, status, timed_out, alive = worker.receive(timeout_s)
            if line is not None:
                _write(1, line)
            else:
                _emit(i, None, status, timed_out)
            i += 1
            if not alive:  # the rest of this run goes to a fresh worker
                if status is None:
                    os.waitpid(worker.pid, 0)
                worker.close()
                worker = None
                break


def _emit(i, raw, status, timed_out):
    _write(1, (_dumps({"i": i, "r": raw, "status": status, "timed_out": timed_out}) + "\n").encode("utf-8"))


if __name__ == "__main__":
    main()
