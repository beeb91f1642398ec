"""The seccomp filter every untrusted program runs under, built with libseccomp (never hand-written BPF).

bubblewrap's namespaces and the fresh unprivileged uid keep a program away from files, processes
and the network, but not from kernel state that is keyed by uid or that needs no capability at
all. Measured before this filter (issue 29): a key stored with ``add_key`` in the sandbox uid's
keyring outlived the sandbox and the harness (visible in the host's ``/proc/keys``) and a later
episode read it back; ``unshare(CLONE_NEWUSER)`` gave a full capability set in a nested user
namespace (the kernel surface privilege-escalation exploits start from); an inotify watch on a
shared ``/usr`` inode passed values between two concurrent jobs; ``prlimit`` on the parent
lowered a sibling sample's open-file limit. Each family below is refused with ``EPERM`` (``clone3``
with ``ENOSYS``: its flags sit in a struct a filter cannot read, and libc then falls back to
``clone``, whose flags it can). Nothing a Python program, ``json``/``re`` parsing or the checker's
samples need is in the list.

The filter is exported once per process as BPF bytes (``bpf()``), handed to bubblewrap's
``--seccomp FD`` for a one-program sandbox, and bound read-only into the warm fork server, whose
children load it themselves after dropping their uid and capabilities (the server keeps the
namespace and mount calls it needs to build each child: ``bpf(server=True)`` leaves those two
families out). Anything but the native architecture is killed (libseccomp's default): a 32-bit
``int 0x80`` cannot walk around the list.
"""

from __future__ import annotations

import errno
import functools
import os

#: syscalls refused outright, by family (the README lists the same families and the reasons)
DENIED: dict[str, tuple[str, ...]] = {
    # kernel keyrings are per uid and outlive every process and namespace
    "keyring": ("add_key", "request_key", "keyctl"),
    # new namespaces (a user namespace grants a full capability set inside it); clone's flags below
    "namespaces": ("unshare", "setns"),
    # mount tables: old and new mount API
    "mounts": (
        "mount",
        "umount2",
        "pivot_root",
        "fsopen",
        "fsconfig",
        "fsmount",
        "fspick",
        "move_mount",
        "open_tree",
        "mount_setattr",
    ),
    # reading or writing another process's memory
    "tracing": ("ptrace", "process_vm_readv", "process_vm_writev"),
    # the kernel's most exploited surfaces, none needed by a Python program
    "kernel": (
        "bpf",
        "perf_event_open",
        "userfaultfd",
        "io_uring_setup",
        "io_uring_enter",
        "io_uring_register",
    ),
    # file-change notification: a watch on a shared read-only inode is a channel between jobs
    "notify": ("inotify_init", "inotify_init1", "fanotify_init"),
    # loading kernels and modules (capabilities already refuse them; the filter says it twice)
    "modules": (
        "kexec_load",
        "kexec_file_load",
        "init_module",
        "finit_module",
        "delete_module",
        "open_by_handle_at",
    ),
}
#: namespace flags refused in ``clone`` (``CLONE_NEWTIME`` shares its bit with clone's exit signal:
#: it only exists for ``unshare``/``clone3``, both refused)
CLONE_NAMESPACE_FLAGS = {
    "CLONE_NEWNS": 0x00020000,
    "CLONE_NEWCGROUP": 0x02000000,
    "CLONE_NEWUTS": 0x04000000,
    "CLONE_NEWIPC": 0x08000000,
    "CLONE_NEWUSER": 0x10000000,
    "CLONE_NEWPID": 0x20000000,
    "CLONE_NEWNET": 0x40000000,
}
#: ``personality``: only ``PER_LINUX`` (0) and the query (0xffffffff) pass; every flag
#: (``ADDR_NO_RANDOMIZE``, ``READ_IMPLIES_EXEC``, ``MMAP_PAGE_ZERO``...) is refused
PERSONALITY_QUERY = 0xFFFFFFFF
#: the families the warm fork server itself keeps (it builds each child's namespaces and /tmp)
SERVER_KEEPS = ("namespaces", "mounts")


class FilterUnavailable(RuntimeError):
    """libseccomp (Debian ``libseccomp2``) or the ``pyseccomp`` binding is missing, or refused a rule."""


def _rules(flt, seccomp, server: bool) -> None:  # noqa: ANN001 - pyseccomp has no type information
    eperm = seccomp.ERRNO(errno.EPERM)
    for family, names in DENIED.items():
        if server and family in SERVER_KEEPS:
            continue
        for name in names:
            flt.add_rule(eperm, name)
    if not server:
        for flag in CLONE_NAMESPACE_FLAGS.values():
            flt.add_rule(eperm, "clone", seccomp.Arg(0, seccomp.MASKED_EQ, flag, flag))
        flt.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
    # prlimit64 only on the caller itself: setrlimit/getrlimit go through prlimit64(0, ...)
    flt.add_rule(eperm, "prlimit64", seccomp.Arg(0, seccomp.NE, 0))
    # personality: libseccomp takes one comparison per argument per rule, so "not 0 and not the
    # query" is written bit by bit: a low bit set while bit 31 is clear, or bit 31 set while a low bit is clear
    top = 0x80000000
    for bit in range(31):
        flt.add_rule(eperm, "personality", seccomp.Arg(0, seccomp.MASKED_EQ, (1 << bit) | top, 1 << bit))
        flt.add_rule(eperm, "personality", seccomp.Arg(0, seccomp.MASKED_EQ, (1 << bit) | top, top))


@functools.cache
def bpf(server: bool = False) -> bytes:
    """The filter as BPF bytes (``struct sock_filter[]``), built once per process.

    ``server=True``: the fork server's own filter, without the namespace and mount families."""
    try:
        import pyseccomp as seccomp
    except (ImportError, OSError) as exc:  # OSError: the binding found no libseccomp.so.2
        raise FilterUnavailable(f"the pyseccomp binding cannot load libseccomp: {exc}") from exc
    try:
        flt = seccomp.SyscallFilter(seccomp.ALLOW)
        _rules(flt, seccomp, server)
        with os.fdopen(os.memfd_create("rg-seccomp-export", os.MFD_CLOEXEC), "w+b") as sink:
            flt.export_bpf(sink)
            sink.seek(0)
            return sink.read()
    except (OSError, RuntimeError, ValueError) as exc:
        raise FilterUnavailable(f"libseccomp could not build the filter: {exc}") from exc


def memfd(server: bool = False) -> int:
    """A new descriptor holding the filter (for ``bwrap --seccomp FD`` or ``--ro-bind-data FD``,
    which read it to the end once); the caller passes it to bwrap and closes it."""
    data = bpf(server)
    fd = os.memfd_create("rg-seccomp", os.MFD_CLOEXEC)
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
    os.lseek(fd, 0, os.SEEK_SET)
    return fd
