"""A catalogue of hostile programs (what model-written code might do) and the harness they attack.

Each program is top-level Python. When an attack works it prints ``PW`` + ``NED`` plus what it got
(the word is assembled at run time, so it never appears in a program's source or an echo of it);
containment means the marker, the harness's secret and the gold answer appear in no output. The
same programs run through every entry point that executes model code: ``run_python``, the Synthetic
API checker (as a sample's body) and the RestGPT response parser (as the model's code).
"""

from __future__ import annotations

import os
import resource
import signal
import socket
import threading
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from restgraph.tools import codebox

MARK = "PW" + "NED"
SECRET = "sk-hostile-" + uuid.uuid4().hex
GOLD = "gold-answer-" + uuid.uuid4().hex
TOKEN = uuid.uuid4().hex[:12]
REPO = Path(__file__).resolve().parents[1]
RLIMITS = [getattr(resource, n) for n in dir(resource) if n.startswith("RLIMIT_")]


@dataclass
class Harness:
    """The attacked side: secrets in the environment, files, a socket, a signal handler, rlimits."""

    root: Path
    data_dir: Path
    run_dir: Path
    port: int
    unix_path: str
    abstract: str
    rlimits: dict[int, tuple[int, int]]
    accepted: list[object] = field(default_factory=list)
    signals: list[int] = field(default_factory=list)

    @property
    def sentinel(self) -> Path:
        return self.root / "sentinel.txt"

    def outputs_clean(self, *texts: str | None) -> list[str]:
        """What leaked into any of ``texts`` (empty when nothing did)."""
        leaks = []
        for text in texts:
            text = text or ""
            for name, needle in (
                ("marker", MARK),
                ("secret", SECRET),
                ("reversed secret", SECRET[::-1]),
                ("gold", GOLD),
                ("reversed gold", GOLD[::-1]),
            ):
                if needle in text:
                    leaks.append(
                        f"{name}: {text[max(0, text.find(needle) - 200) : text.find(needle) + 100]!r}"
                    )
        return leaks

    def damage(self) -> list[str]:
        """Side effects outside the sandbox and changes to the harness (empty when none)."""
        found = []
        if self.sentinel.read_text() != "keep me" or oct(self.sentinel.stat().st_mode)[-3:] != "644":
            found.append("sentinel changed")
        if not (self.root / "keep" / "file").is_file():
            found.append("keep dir removed")
        for base in (self.root, REPO, Path("/tmp"), self.data_dir, self.run_dir):
            found += [f"file outside: {p}" for p in base.glob(f"*{TOKEN}*")]
        if self.accepted:
            found.append("a program reached the harness's socket")
        if self.signals:
            found.append(f"the harness got signals {self.signals}")
        now = {r: resource.getrlimit(r) for r in RLIMITS}
        if now != self.rlimits:
            found.append(
                f"harness rlimits changed: {[(r, self.rlimits[r], now[r]) for r in RLIMITS if now[r] != self.rlimits[r]]}"
            )
        found += [f"sandbox process left running: pid {p}" for p in sandbox_processes()]
        return found


def sandbox_processes() -> list[int]:
    """Processes running as a sandbox uid this process handed out (none may outlive its job)."""
    ours = set(codebox.issued_uids)
    left = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status") as fh:
                uid_line = next(line for line in fh if line.startswith("Uid:"))
        except (OSError, StopIteration):
            continue
        if int(uid_line.split()[1]) in ours:
            left.append(int(entry))
    return left


def start_harness(root: Path) -> tuple[Harness, callable]:
    """Set up the attacked side; returns it and a function that tears it down."""
    (root / "keep").mkdir()
    (root / "keep" / "file").write_text("keep")
    (root / "sentinel.txt").write_text("keep me")
    (root / "sentinel.txt").chmod(0o644)
    data_dir, run_dir = root / "data", root / "run"
    for folder, name in ((data_dir / "bench", "answers.json"), (run_dir, "traces.jsonl")):
        folder.mkdir(parents=True)
        (folder / name).write_text(f'{{"answer": "{GOLD}"}}\n')
    server = socket.socket()
    server.bind(("0.0.0.0", 0))
    server.listen(16)
    server.settimeout(0.2)
    unix_path = str(root / "harness.sock")
    unix = socket.socket(socket.AF_UNIX)
    unix.bind(unix_path)
    unix.listen(4)
    unix.settimeout(0.2)
    abstract = f"\0rg-hostile-{TOKEN}"
    abstract_sock = socket.socket(socket.AF_UNIX)
    abstract_sock.bind(abstract)
    abstract_sock.listen(4)
    abstract_sock.settimeout(0.2)
    harness = Harness(
        root=root,
        data_dir=data_dir,
        run_dir=run_dir,
        port=server.getsockname()[1],
        unix_path=unix_path,
        abstract=abstract,
        rlimits={r: resource.getrlimit(r) for r in RLIMITS},
    )
    stop = threading.Event()

    def accept_loop() -> None:
        while not stop.is_set():
            for sock in (server, unix, abstract_sock):
                try:
                    harness.accepted.append(sock.accept())
                except OSError:
                    continue

    thread = threading.Thread(target=accept_loop, daemon=True)
    thread.start()
    previous = signal.signal(signal.SIGUSR1, lambda signum, frame: harness.signals.append(signum))
    saved = {k: os.environ.get(k) for k in ("OPENAI_API_KEY", "RESTGRAPH_HOSTILE_SECRET")}
    os.environ["OPENAI_API_KEY"] = SECRET
    os.environ["RESTGRAPH_HOSTILE_SECRET"] = SECRET

    def stop_harness() -> None:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        signal.signal(signal.SIGUSR1, previous)
        stop.set()
        thread.join(timeout=2)
        for sock in (server, unix, abstract_sock):
            sock.close()

    return harness, stop_harness


@pytest.fixture(scope="module")
def harness(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Harness]:
    """The attacked side for one test module (import this fixture)."""
    h, stop = start_harness(tmp_path_factory.mktemp("hostile"))
    yield h
    stop()


def programs(h: Harness) -> dict[str, str]:
    """name -> top-level program. ``MARK`` printed means the attack worked."""
    pid, port, root, repo = os.getpid(), h.port, h.root, REPO
    out = root / f"written-{TOKEN}"
    data_env = os.environ.get("RESTGRAPH_DATA_DIR", str(h.data_dir))
    m = "'PW' + 'NED'"
    find_secret = (
        "def hunt(text):\n"
        "    for key in ('sk-hostile-', 'gold-answer-'):\n"
        f"        if key in text: print({m}, text[text.find(key):text.find(key) + 60])\n"
    )
    return {
        # -- resources ---------------------------------------------------------------------------
        "infinite_loop": "while True:\n    pass",
        "loop_swallowing_exceptions": "while True:\n    try:\n        pass\n    except BaseException:\n        pass",
        "sleep": "import time\ntime.sleep(60)",
        "memory_bomb": "x = bytearray(8 * 1024 ** 3)\nprint(" + m + ", len(x))",
        "memory_growth": "chunks = []\nwhile True:\n    chunks.append(' ' * 10 ** 7)",
        "recursion_bomb": "def r(n):\n    return r(n + 1)\nr(0)",
        "disk_fill": "f = open('/tmp/fill', 'wb')\nfor _ in range(4096):\n    f.write(b'x' * 1024 * 1024)\nprint("
        + m
        + ", 'wrote 4 GiB')",
        "fd_exhaustion": "fds = [open('/dev/null') for _ in range(100000)]\nprint(" + m + ", len(fds))",
        "raise_own_limits": "import resource, os\nresource.setrlimit(resource.RLIMIT_NPROC, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))\nprint("
        + m
        + ")",
        "stdout_flood": "import os\nos.write(1, b'x' * 50_000_000)",
        # -- processes and threads ---------------------------------------------------------------
        "fork_bomb": "import os\nwhile True:\n    os.fork()",
        "fork_once": "import os\npid = os.fork()\nif pid == 0:\n    os._exit(0)\nprint(" + m + ", 'forked')",
        "subprocess": f"import subprocess\nsubprocess.run(['touch', {str(out) + '-sub'!r}])\nprint({m})",
        "os_system": f"import os\nif os.system('touch {out}-system') == 0:\n    print({m})",
        "os_exec": f"import os\nos.execv('/bin/sh', ['sh', '-c', 'touch {out}-exec; cat /proc/{pid}/environ /proc/1/environ'])",
        "posix_spawn": "import os\nos.posix_spawn('/bin/true', ['true'], {})\nprint(" + m + ")",
        "multiprocessing": "import multiprocessing\nmultiprocessing.Process(target=print).start()\nprint("
        + m
        + ")",
        "thread": "import threading\nt = threading.Thread(target=lambda: print("
        + m
        + ", 'thread ran'))\nt.start()\nt.join()",
        "raw_thread": "import _thread, time\n_thread.start_new_thread(lambda: print("
        + m
        + "), ())\ntime.sleep(0.2)",
        "daemonize": (
            "import os\nif os.fork() == 0:\n    os.setsid()\n    import time\n    time.sleep(3)\n    "
            f"open({str(out) + '-daemon'!r}, 'w').write('x')\nprint({m})"
        ),
        "setuid_root": "import os\nos.setuid(0)\nprint(" + m + ", os.getuid())",
        # -- signals and limits on other processes -----------------------------------------------
        "kill_parent": "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)",
        "kill_harness_pid": f"import os, signal\nos.kill({pid}, signal.SIGUSR1)\nos.kill({pid}, signal.SIGKILL)",
        "kill_everything": "import os, signal\nos.kill(-1, signal.SIGKILL)",
        "kill_group": "import os, signal\nos.killpg(0, signal.SIGKILL)",
        "pidfd_parent": "import os, signal\nsignal.pidfd_send_signal(os.pidfd_open(os.getppid()), signal.SIGKILL)",
        "pidfd_harness": f"import os, signal\nsignal.pidfd_send_signal(os.pidfd_open({pid}), signal.SIGKILL)",
        "pidfd_init": "import os, signal\nsignal.pidfd_send_signal(os.pidfd_open(1), signal.SIGKILL)",
        "prlimit_parent": "import os, resource\nresource.prlimit(os.getppid(), resource.RLIMIT_NOFILE, (12, 12))\nprint("
        + m
        + ")",
        "prlimit_harness": f"import resource\nresource.prlimit({pid}, resource.RLIMIT_NOFILE, (12, 12))\nprint({m})",
        "prlimit_init": "import resource\nresource.prlimit(1, resource.RLIMIT_NPROC, (1, 1))\nprint("
        + m
        + ")",
        # -- files and special files -------------------------------------------------------------
        "file_write": f"open({str(out)!r}, 'w').write('x')\nprint({m})",
        "os_open_write": f"import os\nos.open({str(out) + '-2'!r}, os.O_WRONLY | os.O_CREAT)\nprint({m})",
        "write_in_repo": f"open({str(repo / ('written-' + TOKEN))!r}, 'w').write('x')\nprint({m})",
        "mknod_outside": f"import os, stat\nos.mknod({str(out) + '-node'!r}, stat.S_IFREG | 0o644)\nprint({m})",
        "mkfifo_outside": f"import os\nos.mkfifo({str(out) + '-fifo'!r})\nprint({m})",
        "mkfifo_in_repo": f"import os\nos.mkfifo({str(repo / ('fifo-' + TOKEN))!r})\nprint({m})",
        "mknod_device": "import os, stat\nos.mknod('/tmp/mem', stat.S_IFCHR | 0o600, os.makedev(1, 1))\nprint(open('/tmp/mem', 'rb').read(16), "
        + m
        + ")",
        "delete_sentinel": f"import os\nos.remove({str(h.sentinel)!r})\nprint({m})",
        "rmtree": f"import shutil\nshutil.rmtree({str(root / 'keep')!r})\nprint({m})",
        "rename": f"import os\nos.rename({str(h.sentinel)!r}, {str(out) + '-moved'!r})\nprint({m})",
        "chmod": f"import os\nos.chmod({str(h.sentinel)!r}, 0o777)\nprint({m})",
        "hardlink": f"import os\nos.link({str(h.sentinel)!r}, '/tmp/h')\nprint({m})",
        "symlink_read": f"import os\nos.symlink({str(h.sentinel)!r}, '/tmp/l')\nprint({m}, open('/tmp/l').read())",
        "write_etc_passwd": "open('/etc/passwd', 'a').write('evil::0:0::/:/bin/sh\\n')\nprint(" + m + ")",
        "write_usr": "open('/usr/lib/evil', 'w').write('x')\nprint(" + m + ")",
        "write_tmp_ok": f"open('/tmp/{TOKEN}', 'w').write('inside only')\nprint(open('/tmp/{TOKEN}').read())",
        # -- paths, /proc and answer keys --------------------------------------------------------
        "environment": find_secret + "import os\nhunt(repr(dict(os.environ)))",
        "parent_environ": find_secret + "import os\nhunt(open(f'/proc/{os.getppid()}/environ').read())",
        "harness_environ": find_secret + f"hunt(open('/proc/{pid}/environ').read())",
        "double_slash_environ": find_secret
        + "import os\nhunt(open(f'//proc/{os.getppid()}/environ').read())",
        "dev_fd_dotdot_environ": find_secret
        + "import os\nhunt(open(f'/dev/fd/../../{os.getppid()}/environ').read())",
        "self_fd_dotdot_environ": find_secret + f"hunt(open('/proc/self/fd/../../{pid}/environ').read())",
        "parent_mem": find_secret
        + "import os\nf = open(f'/proc/{os.getppid()}/mem', 'rb')\nhunt(repr(f.read(4096)))",
        "harness_mem": find_secret
        + f"import re\nmaps = open('/proc/{pid}/maps').read()\nprint({m}, maps[:80])",
        "parent_cmdline": find_secret
        + "import os\ntext = open(f'/proc/{os.getppid()}/cmdline').read()\nhunt(text)\nif 'pytest' in text: print("
        + m
        + ")",
        "harness_cmdline": f"text = open('/proc/{pid}/cmdline').read()\nif 'pytest' in text or 'python' in text: print({m}, text[:80])",
        "scan_proc": find_secret
        + (
            "import os\nfor p in os.listdir('/proc'):\n    for leaf in ('environ', 'cmdline'):\n        try:\n"
            "            hunt(open(f'/proc/{p}/{leaf}', errors='replace').read())\n            if "
            "'pytest' in open(f'/proc/{p}/cmdline').read(): print(" + m + ")\n"
            "        except OSError:\n            pass"
        ),
        "data_dir": find_secret + f"import os\nprint({m}, os.listdir({data_env!r}))",
        "data_dir_gold": find_secret + f"hunt(open({str(h.data_dir / 'bench' / 'answers.json')!r}).read())",
        "run_dir_gold": find_secret + f"hunt(open({str(h.run_dir / 'traces.jsonl')!r}).read())",
        "project_tree": f"print({m}, open({str(repo / 'pyproject.toml')!r}).read()[:40])",
        "home_dir": "import os\nprint(" + m + ", os.listdir('/root'), os.listdir('/home'))",
        "etc_shadow": "print(" + m + ", open('/etc/shadow').read()[:20])",
        "sys_net": "import os\nprint(" + m + ", os.listdir('/sys/class/net'))",
        "walk_for_gold": find_secret
        + (
            "import os\nfor top, dirs, files in os.walk('/'):\n    dirs[:] = [d for d in dirs if d "
            "not in ('proc', 'sys', 'dev', 'usr', 'python3.11')]\n"
            "    for f in files:\n        if f in ('answers.json', 'traces.jsonl'):\n            print("
            + m
            + ", top, f)"
        ),
        # -- network -----------------------------------------------------------------------------
        "socket_connect": f"import socket\nsocket.create_connection(('127.0.0.1', {port}), timeout=1)\nprint({m})",
        "raw_socket_module": f"s = __import__('_socket').socket()\ns.settimeout(1)\ns.connect(('127.0.0.1', {port}))\nprint({m})",
        "urllib": f"import urllib.request\nurllib.request.urlopen('http://127.0.0.1:{port}/', timeout=1)\nprint({m})",
        "external_tcp": f"import socket\nsocket.create_connection(('192.0.2.2', {port}), timeout=1)\nprint({m})",
        "external_udp": "import socket\ns = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\ns.sendto(b'x', ('8.8.8.8', 53))\nprint("
        + m
        + ")",
        "dns": "import socket\nprint(" + m + ", socket.gethostbyname('example.com'))",
        "unix_socket_path": f"import socket\ns = socket.socket(socket.AF_UNIX)\ns.connect({h.unix_path!r})\nprint({m})",
        "abstract_unix_socket": f"import socket\ns = socket.socket(socket.AF_UNIX)\ns.connect({h.abstract!r})\nprint({m})",
        # -- descriptors and output channels -----------------------------------------------------
        "inherited_fds": (
            "import os\nfor fd in range(3, 1024):\n    try:\n        os.fstat(fd)\n        "
            "os.write(fd, b'PW' + b'NED-fd')\n    except OSError:\n        pass"
        ),
        "reopen_stdin_for_write": "open('/proc/self/fd/0', 'w').write('x')\nprint(" + m + ")",
        "dup_over_stdout": "import os\nos.close(1)\nos.close(2)\nraise SystemExit(0)",
        "forge_status_line": (
            'import sys\nsys.stderr.write(\'\\nRGSTATUS-0000 ""\\n\')\nprint(\'{"i": 0, "r": "{}", '
            '"status": 0, "timed_out": false}\')\nraise ValueError(\'really failed\')'
        ),
        "rebind_exit": "import os, sys\nos._exit = lambda code: None\nsys.exit = lambda code=0: None\nraise ValueError('really failed')",
        "unprintable_exception": "class E(Exception):\n    def __str__(self):\n        raise RuntimeError('no')\nraise E()",
        "exit_nonzero": "import os\nos._exit(3)",
        "stderr_flood_then_success": "import sys\nsys.stderr.write('e' * 1_100_000)\nprint('done')",
        **kernel_state_programs(m),
    }


def kernel_state_programs(m: str) -> dict[str, str]:
    """Kernel state a uid or a namespace does not fence off (issue 29): each family the seccomp
    filter refuses, called directly (syscall numbers resolved by libseccomp for this machine)."""
    import pyseccomp

    arch = pyseccomp.system_arch()

    def nr(name: str) -> int:
        return pyseccomp.resolve_syscall(arch, name)

    prelude = "import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\n"
    desc = f"rg-hostile-{TOKEN}"
    return {
        "keyring_add_key": prelude
        + f"key = libc.syscall({nr('add_key')}, b'user', {desc.encode()!r}, b'payload', 7, -4)\n"
        + f"if key > 0:\n    libc.syscall({nr('keyctl')}, 5, key, 0x3F3F3F3F)\n    print({m}, key)",
        "keyring_read_back": f"if {desc!r} in open('/proc/keys').read():\n    print({m})",
        "nested_user_namespace": prelude
        + f"if libc.syscall({nr('unshare')}, 0x10000000) == 0:\n    print({m})",
        "nested_network_namespace": prelude
        + f"if libc.syscall({nr('unshare')}, 0x40000000) == 0:\n    print({m})",
        "inotify_watch": prelude + f"if libc.syscall({nr('inotify_init1')}, 0) >= 0:\n    print({m})",
        "ptrace_traceme": prelude + f"if libc.syscall({nr('ptrace')}, 0, 0, 0, 0) == 0:\n    print({m})",
        "personality_no_aslr": prelude
        + f"if libc.syscall({nr('personality')}, 0x0040000) >= 0:\n    print({m})",
        "io_uring": prelude + f"if libc.syscall({nr('io_uring_setup')}, 1, 0) >= 0:\n    print({m})",
    }


#: programs whose run_python outcome is fixed beyond "contained" (name -> ok). Not ``kill_everything``:
#: kill(-1) signals nothing either way, but fails with ESRCH in a one-program sandbox and returns 0
#: beside the warm fork server (visible, not signallable); tests/isolation/test_warm_sandbox.py
#: checks that the server survives it
RUN_PYTHON_OK = {
    "write_tmp_ok": True,
    "stderr_flood_then_success": True,
    "forge_status_line": False,
    "rebind_exit": False,
    "unprintable_exception": False,
    "exit_nonzero": False,
    "infinite_loop": False,
    "sleep": False,
    "memory_bomb": False,
}


def program_names() -> list[str]:
    placeholder = Harness(
        root=Path("/nonexistent"),
        data_dir=Path("/nonexistent"),
        run_dir=Path("/nonexistent"),
        port=1,
        unix_path="/nonexistent",
        abstract="\0x",
        rlimits={},
    )
    return list(programs(placeholder))


def as_sample(program: str, indent: str = "    ") -> str:
    """A program as a Synthetic API sample: the continuation of a function body."""
    first, *rest = program.split("\n")
    return "\n".join([first, *(indent + line for line in rest)])


def iter_lines(*texts: str | None) -> Iterator[str]:
    for text in texts:
        yield from (text or "").splitlines()
