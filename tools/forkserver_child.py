"""The warm fork server that runs inside one long-lived bubblewrap sandbox (``restgraph.tools.forkserver``).

Executed with ``python -I -S`` as a script, never imported by the host. It never sees a program or
its inputs: the host sends, over a ``SOCK_SEQPACKET`` socket on fd 0, one small JSON job (id, uid,
limits, deadline) with four descriptors attached (a memfd holding the job's stdin, the write ends
of its stdout and stderr pipes, and the write end of its status pipe). For each job it forks a
child from this pristine process (the bootstrap script compiled and the standard modules it needs
imported once, before any job), and the child, before any job byte is read:

- starts in a mount namespace made for it (a fresh size-capped tmpfs on ``/tmp``: nothing a
  program writes there reaches the next one) and gets its own session, IPC namespace (no
  SysV/POSIX IPC objects shared) and network namespace (its own loopback only);
- sets the kernel rlimits of the job (address space, CPU seconds, processes, open files, file
  size, core) and keeps only the job's three descriptors as 0, 1 and 2;
- drops to the fresh unprivileged uid the host drew for this job: empty capability bounding,
  permitted, effective, inheritable and ambient sets, no groups, ``no_new_privs``, ``SIGKILL``
  when this server dies, and last the seccomp filter of ``restgraph.tools.syscall_filter`` (bound at
  ``/rg/seccomp.bpf``; this server runs under the same filter minus the namespace and mount calls it
  needs to build children). Under that uid it cannot signal, trace or read this server (root,
  non-dumpable) nor any other program, and ``/proc`` (remounted ``hidepid=invisible`` once here)
  shows it only its own process.

This process keeps only ``CAP_SETUID``, ``CAP_SETGID``, ``CAP_SYS_ADMIN``, ``CAP_SYS_CHROOT``,
``CAP_NET_ADMIN``, ``CAP_SETPCAP`` (to build that child) and ``CAP_KILL`` (to end it), within the
sandbox's namespaces, and reads nothing but the host's control socket. It writes one
``{"status": <raw wait status>}`` per job on the job's status pipe and closes it; the host decides
what it means (end of file without a status: the server died). A ``{"kill": id}`` message, the
job's deadline, or end of file on the control socket kills children.

Known difference from a new interpreter per program: forked children share the server's string
hash seed (``PYTHONHASHSEED``); nothing a program does reaches it.
"""

import builtins  # noqa: F401 - imported once here so forked programs find it loaded
import contextlib
import ctypes
import fcntl
import gc
import json
import math
import os
import re  # noqa: F401
import resource
import select
import signal
import socket
import struct
import sys
import time
import types

BOOT = "/rg/boot.py"
#: the children's seccomp filter (``restgraph.tools.syscall_filter``), bound here by the host; absent
#: only under ``--code-sandbox bwrap-no-seccomp``
FILTER = "/rg/seccomp.bpf"
PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 22, 2
CLONE_NEWNS, CLONE_NEWIPC, CLONE_NEWNET = 0x00020000, 0x08000000, 0x40000000
SIOCSIFFLAGS, IFF_UP, IFF_RUNNING = 0x8914, 0x1, 0x40
#: network namespaces made ahead, while the server has nothing else to do (making one costs about a millisecond)
NETWORKS_AHEAD = 2
MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT, MS_REC, MS_PRIVATE = 2, 4, 8, 32, 16384, 1 << 18
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS, PR_CAP_AMBIENT = 1, 4, 24, 38, 47
PR_CAP_AMBIENT_CLEAR_ALL = 4
LINUX_CAPABILITY_VERSION_3 = 0x20080522
_libc = ctypes.CDLL(None, use_errno=True)


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    ]


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


#: capset's arguments for "no capabilities at all", built once here (building ctypes types in each child is slow)
_NO_CAPS = (ctypes.byref(_CapHeader(LINUX_CAPABILITY_VERSION_3, 0)), (_CapData * 2)())


def _load_filter():
    """``prctl(PR_SET_SECCOMP)``'s argument for the children's filter, built once (or ``None``)."""
    try:
        with open(FILTER, "rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        return None
    if not data or len(data) % 8:
        raise OSError(f"{FILTER}: not a BPF program ({len(data)} bytes)")
    code = ctypes.create_string_buffer(data, len(data))
    return code, ctypes.byref(_SockFprog(len(data) // 8, ctypes.addressof(code)))


_dumps = json.dumps


def _check(result, what):
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def _report(fd, report):
    """The job's outcome on its own status pipe, which then closes (the host reads it in its event loop)."""
    with contextlib.suppress(OSError):  # the host gave up on the job: nobody to tell
        os.write(fd, _dumps(report).encode())
    os.close(fd)


def _kill(pidfd):
    with contextlib.suppress(ProcessLookupError):  # already ended: its status is on the way
        signal.pidfd_send_signal(pidfd, signal.SIGKILL)


def _rlimits(limits):
    mb = 1024 * 1024
    for res, value in (
        (resource.RLIMIT_AS, limits["memory_mb"] * mb),
        (resource.RLIMIT_CPU, limits["cpu_s"]),
        (resource.RLIMIT_NPROC, limits["nproc"]),
        (resource.RLIMIT_NOFILE, limits["nofile"]),
        (resource.RLIMIT_FSIZE, limits["fsize_mb"] * mb),
        (resource.RLIMIT_CORE, 0),
    ):
        resource.setrlimit(res, (value, value))


def _job_namespace(tmpfs_mb):
    """Enter a new mount namespace with an empty, size-capped tmpfs on ``/tmp`` and return a handle
    on it. The server forks the job's child in it, goes back to its own, and holds the handle
    until the child's status is sent: the namespace is then torn down by the server, not on the
    path of the child's exit (measured: a child that owns the last reference exits milliseconds later)."""
    _check(_libc.unshare(CLONE_NEWNS), "unshare mount namespace")
    size = int(tmpfs_mb) * 1024 * 1024
    _check(
        _libc.mount(b"tmpfs", b"/tmp", b"tmpfs", MS_NOSUID | MS_NODEV, f"size={size},mode=1777".encode()),
        "mount /tmp",
    )
    return os.open("/proc/self/ns/mnt", os.O_RDONLY | os.O_CLOEXEC)


def _network(home):
    """A new network namespace with only its loopback up (what bwrap gives a one-program sandbox):
    concurrent programs cannot reach each other over loopback or abstract sockets."""
    _check(_libc.unshare(CLONE_NEWNET), "unshare network namespace")
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            fcntl.ioctl(probe, SIOCSIFFLAGS, struct.pack("16sh22x", b"lo", IFF_UP | IFF_RUNNING))
        return os.open("/proc/self/ns/net", os.O_RDONLY | os.O_CLOEXEC)
    finally:
        _check(_libc.setns(home, CLONE_NEWNET), "return to the server's network namespace")


def _child(job, fds, network, boot, cap_last, server_pid, seccomp):
    """Become the job's sandboxed program (never returns)."""
    status = 71
    try:
        os.setsid()
        _check(_libc.unshare(CLONE_NEWIPC), "unshare IPC namespace")
        _check(_libc.setns(network, CLONE_NEWNET), "enter the job's network namespace")
        os.chdir("/tmp")  # the fresh tmpfs of the mount namespace it was forked in
        for target, fd in enumerate(fds):
            os.dup2(fd, target, inheritable=True)
        os.closerange(3, 1 << 16)
        for cap in range(cap_last + 1):
            _check(_libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0), "drop bounding capability")
        _check(_libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0), "clear ambient capabilities")
        _rlimits(job["limits"])
        uid = int(job["uid"])
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)  # clears the effective and permitted sets; the inheritable one next
        _check(_libc.capset(_NO_CAPS[0], _NO_CAPS[1]), "clear capabilities")
        _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
        _check(_libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), "parent death signal")
        if seccomp is not None:
            _check(_libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, seccomp[1], 0, 0), "load seccomp filter")
        if os.getppid() != server_pid:
            os._exit(status)
        status = 70
        module = types.ModuleType("__main__")
        sys.modules["__main__"] = module
        gc.enable()
        exec(
            boot, module.__dict__
        )  # the trusted bootstrap (tools/pyexec_child.py); it ends the process itself
        status = 0
    except BaseException as exc:  # noqa: BLE001 - a setup failure is reported as a status, never run further
        with contextlib.suppress(BaseException):
            os.write(2, f"\nfork server: child setup failed: {type(exc).__name__}: {exc}\n".encode())
    finally:
        os._exit(status)


def main():
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    ctl = socket.socket(fileno=os.dup(0))
    null = os.open("/dev/null", os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    _check(_libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0), "non-dumpable")
    _check(
        _libc.mount(
            None, b"/proc", None, MS_REMOUNT | MS_NOSUID | MS_NODEV | MS_NOEXEC, b"hidepid=invisible"
        ),
        "remount /proc",
    )
    _check(
        _libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None), "make mounts private"
    )  # so are the jobs' copies
    home = os.open("/proc/self/ns/mnt", os.O_RDONLY | os.O_CLOEXEC)
    home_net = os.open("/proc/self/ns/net", os.O_RDONLY | os.O_CLOEXEC)
    networks = []
    with open("/proc/sys/kernel/cap_last_cap") as fh:
        cap_last = int(fh.read())
    with open(BOOT, "rb") as fh:
        boot = compile(fh.read(), BOOT, "exec")
    seccomp = _load_filter()
    pid = os.getpid()
    gc.collect()
    gc.freeze()  # children share these pages instead of copying them when their collector runs
    gc.disable()
    ctl.send(_dumps({"ready": pid}).encode())
    running = {}  # pidfd -> [job id, pid, deadline, status pipe, mount namespace]
    while True:
        now = time.monotonic()
        wait = min((entry[2] for entry in running.values()), default=now + 3600.0) - now
        if len(networks) < NETWORKS_AHEAD:
            wait = 0.0
        ready = select.select([ctl, *running], [], [], max(0.0, min(wait, 3600.0)))[0]
        if not ready and len(networks) < NETWORKS_AHEAD:
            networks.append(_network(home_net))
            continue
        now = time.monotonic()
        for pidfd, entry in list(running.items()):
            if pidfd in ready:
                _, status = os.waitpid(entry[1], 0)
                os.close(pidfd)
                del running[pidfd]
                _report(entry[3], {"status": status})
                os.close(entry[4])
            elif entry[2] <= now:
                _kill(pidfd)
                entry[2] = math.inf  # reaped when its pidfd turns readable
        if ctl not in ready:
            continue
        data, fds, _, _ = socket.recv_fds(ctl, 65536, 4)
        if not data:
            for pidfd in running:
                _kill(pidfd)
            os._exit(0)
        job = json.loads(data)
        if "kill" in job:
            for pidfd, entry in running.items():
                if entry[0] == job["kill"]:
                    _kill(pidfd)
            continue
        *job_fds, status_fd = fds
        network = networks.pop() if networks else _network(home_net)
        namespace = _job_namespace(job["limits"]["tmpfs_mb"])
        try:
            child = os.fork()
        except OSError as exc:
            child = -1
            _report(status_fd, {"error": f"fork failed: {exc}"})
        if child == 0:
            _child(job, job_fds, network, boot, cap_last, pid, seccomp)
        _check(_libc.setns(home, CLONE_NEWNS), "return to the server's mount namespace")
        for fd in (*job_fds, network):
            os.close(fd)
        if child > 0:
            running[os.pidfd_open(child)] = [
                job["id"],
                child,
                time.monotonic() + float(job["deadline_s"]),
                status_fd,
                namespace,
            ]
        else:
            os.close(namespace)


if __name__ == "__main__":
    main()
