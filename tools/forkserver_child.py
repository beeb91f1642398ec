"""The warm fork server that runs inside one long-lived bubblewrap sandbox (``restgraph.tools.forkserver``).

Executed with ``python -I -S`` as a script, never imported by the host. It never sees a program or
its inputs: the host sends, over a ``SOCK_SEQPACKET`` socket on fd 0, one small JSON job (id, uid,
limits, deadline) with four descriptors attached (a memfd holding the job's stdin, the write ends
of its stdout and stderr pipes, and the write end of its status pipe). For each job it forks a
child from this pristine process (the bootstrap script compiled and the standard modules it needs
imported once, before any job), and the child, before any job byte is read (the world itself is
built by ``tools/jail_child.py``, bound at ``/rg/jail.py``, shared with the API-use checker):

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

sys.path.insert(0, "/rg")  # tools/jail_child.py, bound at /rg/jail.py
import jail  # noqa: E402

BOOT = "/rg/boot.py"
SIOCSIFFLAGS, IFF_UP, IFF_RUNNING = 0x8914, 0x1, 0x40
#: network namespaces made ahead, while the server has nothing else to do (making one costs about a millisecond)
NETWORKS_AHEAD = 2
_dumps = json.dumps


def _report(fd, report):
    """The job's outcome on its own status pipe, which then closes (the host reads it in its event loop)."""
    with contextlib.suppress(OSError):  # the host gave up on the job: nobody to tell
        os.write(fd, _dumps(report).encode())
    os.close(fd)


def _kill(pidfd):
    with contextlib.suppress(ProcessLookupError):  # already ended: its status is on the way
        signal.pidfd_send_signal(pidfd, signal.SIGKILL)


def _network(home):
    """A new network namespace with only its loopback up (what bwrap gives a one-program sandbox):
    concurrent programs cannot reach each other over loopback or abstract sockets."""
    jail.check(jail.libc.unshare(jail.CLONE_NEWNET), "unshare network namespace")
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            fcntl.ioctl(probe, SIOCSIFFLAGS, struct.pack("16sh22x", b"lo", IFF_UP | IFF_RUNNING))
        return os.open("/proc/self/ns/net", os.O_RDONLY | os.O_CLOEXEC)
    finally:
        jail.check(jail.libc.setns(home, jail.CLONE_NEWNET), "return to the server's network namespace")


def _child(job, fds, network, boot, parent, server_pid):
    """Become the job's sandboxed program (never returns)."""
    status = 71
    try:
        os.setsid()
        jail.check(jail.libc.setns(network, jail.CLONE_NEWNET), "enter the job's network namespace")
        os.chdir("/tmp")  # the fresh tmpfs of the mount namespace it was forked in
        for target, fd in enumerate(fds):
            os.dup2(fd, target, inheritable=True)
        os.closerange(3, 1 << 16)
        parent.enter(job["limits"], job["uid"])
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
    parent = jail.Parent()  # so are the jobs' copies of its mounts
    home_net = os.open("/proc/self/ns/net", os.O_RDONLY | os.O_CLOEXEC)
    networks = []
    with open(BOOT, "rb") as fh:
        boot = compile(fh.read(), BOOT, "exec")
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
        namespace = parent.job_namespace(job["limits"]["tmpfs_mb"])
        try:
            child = os.fork()
        except OSError as exc:
            child = -1
            _report(status_fd, {"error": f"fork failed: {exc}"})
        if child == 0:
            _child(job, job_fds, network, boot, parent, pid)
        parent.leave()
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
