"""Inside the sandbox: how a privileged parent turns a fresh fork into one program's own world.

Shared by the warm fork server (``tools/forkserver_child.py``) and the Synthetic API checker's
batch (``tools/synthetic_api/checker_child.py``), both of which keep a few capabilities inside the
sandbox's namespaces and never run model code themselves. Bound read-only at ``/rg/jail.py`` and
imported from there (``python -I -S``: no host code, no site-packages); never imported by the host.

A job's world, built in this order (before any of its bytes run):

- ``job_namespace``, in the parent before the fork: a new mount namespace whose ``/tmp`` is a fresh
  size-capped tmpfs (nothing a program writes there reaches another);
- ``enter``, in the child: its own IPC namespace, the job's kernel rlimits, an empty capability
  bounding set, no ambient capabilities, the fresh unprivileged uid the host drew for this job (so
  no sibling can signal it, trace it or lower its limits: ``RLIMIT_NPROC`` and every check by uid
  count it alone), an empty capability set, ``no_new_privs``, ``SIGKILL`` when the parent dies, and
  last the seccomp filter of ``restgraph.tools.syscall_filter`` (bound at ``FILTER``; absent only
  under ``--code-sandbox bwrap-no-seccomp``).
"""

import ctypes
import os
import resource
import signal

FILTER = "/rg/seccomp.bpf"
CLONE_NEWNS, CLONE_NEWIPC, CLONE_NEWNET = 0x00020000, 0x08000000, 0x40000000
MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT, MS_REC, MS_PRIVATE = 2, 4, 8, 32, 16384, 1 << 18
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS, PR_CAP_AMBIENT = 1, 4, 24, 38, 47
PR_CAP_AMBIENT_CLEAR_ALL, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 4, 22, 2
LINUX_CAPABILITY_VERSION_3 = 0x20080522
MB = 1024 * 1024
libc = ctypes.CDLL(None, use_errno=True)


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


#: capset's arguments for "no capabilities at all", built once (building ctypes types in each child is slow)
_NO_CAPS = (ctypes.byref(_CapHeader(LINUX_CAPABILITY_VERSION_3, 0)), (_CapData * 2)())


def check(result, what):
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


class Parent:
    """What the privileged parent prepares once: its own mount namespace (private mounts, ``/proc``
    showing each uid only its own processes), the last capability number and the filter."""

    def __init__(self):
        check(libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0), "non-dumpable")
        check(
            libc.mount(
                None, b"/proc", None, MS_REMOUNT | MS_NOSUID | MS_NODEV | MS_NOEXEC, b"hidepid=invisible"
            ),
            "remount /proc",
        )
        check(libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None), "make mounts private")
        self.home = os.open("/proc/self/ns/mnt", os.O_RDONLY | os.O_CLOEXEC)
        with open("/proc/sys/kernel/cap_last_cap") as fh:
            self.cap_last = int(fh.read())
        self.seccomp = _load_filter()

    def job_namespace(self, tmpfs_mb):
        """Enter a new mount namespace with an empty, size-capped tmpfs on ``/tmp`` and return a
        handle on it. The parent forks the job's child in it, goes back (``leave``), and holds the
        handle until the child is reaped: the namespace is then torn down by the parent, not on the
        path of the child's exit (measured: a child that owns the last reference exits milliseconds later)."""
        check(libc.unshare(CLONE_NEWNS), "unshare mount namespace")
        size = int(tmpfs_mb) * MB
        check(
            libc.mount(b"tmpfs", b"/tmp", b"tmpfs", MS_NOSUID | MS_NODEV, f"size={size},mode=1777".encode()),
            "mount /tmp",
        )
        return os.open("/proc/self/ns/mnt", os.O_RDONLY | os.O_CLOEXEC)

    def leave(self):
        check(libc.setns(self.home, CLONE_NEWNS), "return to the parent's mount namespace")

    def enter(self, limits, uid):
        """In the forked child: become the job's unprivileged program (see the module docstring)."""
        check(libc.unshare(CLONE_NEWIPC), "unshare IPC namespace")
        for cap in range(self.cap_last + 1):
            check(libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0), "drop bounding capability")
        check(libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0), "clear ambient capabilities")
        set_limits(limits)
        uid = int(uid)
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)  # clears the effective and permitted sets; the inheritable one next
        check(libc.capset(_NO_CAPS[0], _NO_CAPS[1]), "clear capabilities")
        check(libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
        check(libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), "parent death signal")
        if self.seccomp is not None:
            check(
                libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, self.seccomp[1], 0, 0), "load seccomp filter"
            )


def set_limits(limits):
    """The job's kernel rlimits (soft = hard: the program cannot raise them back)."""
    for res, value in (
        (resource.RLIMIT_AS, limits["memory_mb"] * MB),
        (resource.RLIMIT_CPU, limits["cpu_s"]),
        (resource.RLIMIT_NPROC, limits["nproc"]),
        (resource.RLIMIT_NOFILE, limits["nofile"]),
        (resource.RLIMIT_FSIZE, limits["fsize_mb"] * MB),
        (resource.RLIMIT_CORE, 0),
    ):
        resource.setrlimit(res, (value, value))


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
