"""The bubblewrap command lines of ``restgraph.tools.codebox`` (what each sandbox is made of is
described there): the file view, the namespaces, the uid drop and rlimits of a one-program
sandbox, and the privileged parent (warm fork server, checker batch) that builds each child's
world itself with ``tools/jail_child.py``. Also the fresh uids every sandboxed job runs under.
"""

from __future__ import annotations

import collections
import os
import secrets
import shutil
import sys
import sysconfig
from pathlib import Path

from pydantic import BaseModel, ConfigDict

#: where the bootstrap script appears inside the sandbox
BOOT_PATH = "/rg/boot.py"
#: where a warm fork server's own script appears inside its sandbox
SERVER_PATH = "/rg/server.py"
#: where the warm fork server finds the filter its children load (absent without the filter)
FILTER_PATH = "/rg/seccomp.bpf"
#: how a privileged parent inside the sandbox builds each child's world (``tools/jail_child.py``)
JAIL = Path(__file__).with_name("jail_child.py")
JAIL_PATH = "/rg/jail.py"
#: what a fork server keeps (in its namespaces) to build each child; every child drops all of them
SERVER_CAPS = (
    "CAP_SETUID",
    "CAP_SETGID",
    "CAP_SYS_ADMIN",
    "CAP_SYS_CHROOT",
    "CAP_NET_ADMIN",
    "CAP_SETPCAP",
    "CAP_KILL",
)
#: fresh host uids for sandboxes are drawn from this range (no /etc/passwd entry needed)
UID_RANGE = (1_000_000, 1_900_000)
#: the sandbox uids this process handed out (recent ones): lets a check find what outlived its job
issued_uids: collections.deque[int] = collections.deque(maxlen=100_000)


class Limits(BaseModel):
    """Resource limits of one sandboxed job (all enforced by the kernel)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    memory_mb: int = 512
    cpu_s: int = 6
    #: tasks (processes and threads) of the sandbox uid; 1 = no fork, no thread
    nproc: int = 1
    nofile: int = 64
    fsize_mb: int = 16
    tmpfs_mb: int = 32


def interpreter() -> tuple[str, tuple[str, ...]]:
    """The base interpreter (not a venv's shim) and the installation folders it needs."""
    exe = os.path.realpath(getattr(sys, "_base_executable", None) or sys.executable)
    roots = {os.path.realpath(p) for p in (sys.base_prefix, sys.base_exec_prefix)}
    return exe, tuple(sorted(roots))


def _fs_args() -> list[str]:
    exe, roots = interpreter()
    args = ["--ro-bind", "/usr", "/usr"]
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        if os.path.islink(top):
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            args += ["--ro-bind", top, top]
    for root in roots:
        if not root.startswith("/usr/"):
            args += _parents(root) + ["--ro-bind", root, root]
    purelib = os.path.realpath(
        sysconfig.get_paths(vars={"base": sys.base_prefix, "platbase": sys.base_exec_prefix})["purelib"]
    )
    if os.path.isdir(purelib) and any(purelib.startswith(r + "/") for r in roots):
        args += ["--tmpfs", purelib]  # third-party packages of the interpreter: not needed, not shown
    if not any(exe.startswith(r + "/") for r in (*roots, "/usr")):
        args += _parents(exe) + ["--ro-bind", exe, exe]
    return args


def _parents(path: str) -> list[str]:
    """Traversable (0755) empty parents for a bind below e.g. /root (bwrap copies the host's 0700)."""
    args: list[str] = []
    parts = Path(path).parent.parts[1:]
    for i in range(1, len(parts) + 1):
        args += ["--perms", "0755", "--dir", "/" + "/".join(parts[:i])]
    return args


def new_uid() -> int:
    """A fresh unprivileged host uid for one job, remembered in ``issued_uids``.

    Never one the kernel already keeps keys for (``/proc/key-users``): a user keyring outlives
    every process of its uid (since Linux 5.3 it lives in the namespace's registry until reboot), so
    a key stored by an unfiltered job long ago (``bwrap-no-seccomp``, another program) would
    otherwise be there for whichever later job drew the same uid. Bounded: the range has 900,000
    uids and a host holds keys for a handful.
    """
    keyed = _uids_with_keys()
    for _ in range(64):
        uid = UID_RANGE[0] + secrets.randbelow(UID_RANGE[1] - UID_RANGE[0])
        if uid not in keyed:
            break
    else:
        raise RuntimeError(f"no sandbox uid in {UID_RANGE} without kernel keys after 64 draws")
    issued_uids.append(uid)
    return uid


def _uids_with_keys() -> set[int]:
    """The uids ``/proc/key-users`` lists (empty where the kernel has no key support)."""
    try:
        text = Path("/proc/key-users").read_text()
    except OSError:
        return set()
    return {int(line.split(":", 1)[0]) for line in text.splitlines() if ":" in line}


def _bwrap(binds: dict[str, Path], tmpfs_mb: int) -> list[str]:
    """bubblewrap with its namespaces, file view and ``binds`` (sandbox path -> host file), up to the command."""
    args = [
        shutil.which("bwrap") or "bwrap",
        "--unshare-pid",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-net",
        "--unshare-cgroup-try",
        "--die-with-parent",
        "--new-session",
        "--clearenv",
        "--setenv",
        "PATH",
        "/usr/bin:/bin",
        "--setenv",
        "LANG",
        "C.UTF-8",
        "--setenv",
        "HOME",
        "/tmp",
        "--hostname",
        "sandbox",
        *_fs_args(),
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--perms",
        "01777",
        "--size",
        str(tmpfs_mb * 1024 * 1024),
        "--tmpfs",
        "/tmp",
        "--perms",
        "0755",
        "--dir",
        os.path.dirname(BOOT_PATH),
    ]
    for inside, host in binds.items():
        args += ["--ro-bind", str(host), inside]
    return [*args, "--chdir", "/tmp"]


def command(script: Path, limits: Limits, sandbox: str, seccomp_fd: int | None = None) -> list[str]:
    """The argv that runs ``script`` (bound at ``BOOT_PATH``) under ``sandbox`` with ``limits``;
    ``seccomp_fd`` (``syscall_filter.memfd()``, passed to the child) loads the filter."""
    exe, _ = interpreter()
    rlimits = _rlimits(limits)
    python = [exe, "-I", "-S", "-X", "utf8"]
    if sandbox == "none":
        return [shutil.which("prlimit") or "/usr/bin/prlimit", *rlimits, "--", *python, str(script)]
    uid = new_uid()
    filter_args = [] if seccomp_fd is None else ["--seccomp", str(seccomp_fd)]
    return [
        *_bwrap({BOOT_PATH: script}, limits.tmpfs_mb),
        *filter_args,
        "/usr/bin/setpriv",
        f"--reuid={uid}",
        f"--regid={uid}",
        "--clear-groups",
        "--no-new-privs",
        "--inh-caps=-all",
        "--bounding-set=-all",
        "--",
        "/usr/bin/prlimit",
        *rlimits,
        "--",
        *python,
        BOOT_PATH,
    ]


def _rlimits(limits: Limits) -> list[str]:
    return [
        f"--as={limits.memory_mb * 1024 * 1024}",
        f"--cpu={limits.cpu_s}",
        f"--nproc={limits.nproc}",
        f"--nofile={limits.nofile}",
        f"--fsize={limits.fsize_mb * 1024 * 1024}",
        "--core=0",
    ]


def _privileged(binds: dict[str, Path], filter_fds: tuple[int, int] | None) -> list[str]:
    """bubblewrap for a parent that keeps ``SERVER_CAPS`` (in the sandbox's namespaces) to build
    each child's world with ``tools/jail_child.py``, up to the command.

    ``filter_fds`` (the parent's filter, the children's filter: ``syscall_filter.memfd``): the first is
    loaded by bwrap on the parent, the second appears at ``FILTER_PATH`` for each child to load."""
    bwrap, *rest = _bwrap({**binds, JAIL_PATH: JAIL}, tmpfs_mb=1)
    caps = [arg for cap in SERVER_CAPS for arg in ("--cap-add", cap)]
    if filter_fds is not None:
        rest[-2:-2] = ["--seccomp", str(filter_fds[0]), "--ro-bind-data", str(filter_fds[1]), FILTER_PATH]
    return [bwrap, "--cap-drop", "ALL", *caps, *rest]


def server_command(server: Path, boot: Path, filter_fds: tuple[int, int] | None = None) -> list[str]:
    """The argv of a warm fork server (``restgraph.tools.forkserver``): the same sandbox, but the server keeps
    ``SERVER_CAPS`` so that each child it forks can get its own mount/IPC namespace and a fresh uid."""
    exe, _ = interpreter()
    return [
        *_privileged({SERVER_PATH: server, BOOT_PATH: boot}, filter_fds),
        exe,
        "-I",
        "-S",
        "-X",
        "utf8",
        SERVER_PATH,
    ]


def parent_command(script: Path, limits: Limits, filter_fds: tuple[int, int] | None = None) -> list[str]:
    """The argv of a one-shot privileged parent (the Synthetic API checker's batch,
    ``codebox.run(privileged=True)``): ``script`` at ``BOOT_PATH`` with ``SERVER_CAPS`` and the
    parent's own ``limits``; every child it forks builds its own world and limits with the jail."""
    exe, _ = interpreter()
    python = [exe, "-I", "-S", "-X", "utf8", BOOT_PATH]
    return [
        *_privileged({BOOT_PATH: script}, filter_fds),
        "/usr/bin/prlimit",
        *_rlimits(limits),
        "--",
        *python,
    ]
