"""The warm fork server (``restgraph.tools.forkserver``): each program still starts from nothing.

Two consecutive programs share no state (globals, patched modules and builtins, files, uid, IPC);
concurrent programs cannot see or signal each other or the server; a server that is killed (idle
or under a running program) is replaced for the next program; a host process leaves no sandbox
process behind when it exits.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from restgraph.tools import codebox, forkserver
from restgraph.tools.pyexec import CHILD, PyExecResult, run_python, run_python_sync

REPO = Path(__file__).resolve().parents[2]

POLLUTE = """
import builtins, json, os, sys, ctypes
real_dumps = json.dumps
builtins.carried = 'yes'
json.dumps = lambda *a, **k: 'patched'
sys.modules['planted'] = sys
sys.path.insert(0, '/tmp')
open('/tmp/left-behind', 'w').write('x')
os.environ['LEFT'] = '1'
libc = ctypes.CDLL(None, use_errno=True)
shm = libc.shmget(0x5eed, 4096, 0o1666)  # IPC_CREAT, world-readable: a SysV segment outlives its process
print(real_dumps({"uid": os.getuid(), "pid": os.getpid(), "shm": shm}))
"""

PROBE = """
import builtins, json, os, sys, ctypes
libc = ctypes.CDLL(None, use_errno=True)
print(json.dumps({"carried": hasattr(builtins, "carried"), "dumps": json.dumps(1), "planted": "planted" in sys.modules,
                  "path": '/tmp' in sys.path, "tmp": os.listdir('/tmp'), "env": "LEFT" in os.environ,
                  "shm": libc.shmget(0x5eed, 0, 0), "uid": os.getuid(), "pid": os.getpid()}))
"""


def _server_pid() -> int:
    live = forkserver.server(CHILD)
    assert live.proc is not None
    return live.proc.pid


def test_consecutive_programs_share_no_state() -> None:
    first = run_python_sync(POLLUTE)
    assert first.ok, first.error
    planted = json.loads(first.stdout)
    assert planted["shm"] >= 0  # the segment was really created
    seen = json.loads(run_python_sync(PROBE).stdout)
    assert (
        seen["carried"] is False
        and seen["dumps"] == "1"
        and seen["planted"] is False
        and seen["path"] is False
    )
    assert seen["tmp"] == [] and seen["env"] is False
    assert seen["shm"] == -1  # its own IPC namespace: the first program's segment does not exist here
    assert seen["uid"] != planted["uid"] and seen["pid"] != planted["pid"]


def test_concurrent_programs_are_apart_and_all_run_warm() -> None:
    code = "import os, json, time\ntime.sleep(0.2)\nprint(json.dumps({'uid': os.getuid(), 'pids': [p for p in os.listdir('/proc') if p.isdigit()]}))"
    before = _server_pid()

    async def many() -> list:
        return await asyncio.gather(*(run_python(code, record=False) for _ in range(6)))

    results = asyncio.run(many())
    assert all(r.ok for r in results), [r.error for r in results]
    seen = [json.loads(r.stdout) for r in results]
    assert len({s["uid"] for s in seen}) == 6
    assert all(len(s["pids"]) == 1 for s in seen)  # neither the server nor the other programs are visible
    assert _server_pid() == before


LISTENER = """
import socket, time
tcp = socket.socket()
tcp.bind(('127.0.0.1', 47931))
tcp.listen()
unix = socket.socket(socket.AF_UNIX)
unix.bind('\\0rg-warm-listener')
unix.listen()
tcp.settimeout(6)
try:
    tcp.accept()
    print('reached over tcp')
except OSError:
    print('alone')
"""
CALLER = """
import socket, time
reached = []
for _ in range(30):
    for family, address in ((socket.AF_INET, ('127.0.0.1', 47931)), (socket.AF_UNIX, '\\0rg-warm-listener')):
        try:
            socket.socket(family).connect(address)
            reached.append(family.name)
        except OSError:
            pass
    time.sleep(0.1)
print(sorted(set(reached)))
"""


def test_concurrent_programs_cannot_reach_each_other_over_loopback() -> None:
    async def scenario() -> tuple[PyExecResult, PyExecResult]:
        issued = len(codebox.issued_uids)
        listener = asyncio.ensure_future(run_python(LISTENER, timeout_s=20, record=False))
        while len(codebox.issued_uids) == issued or not _uid_processes(
            codebox.issued_uids[-1]
        ):  # the listener runs
            await asyncio.sleep(0.01)
        caller = await run_python(
            CALLER, timeout_s=20, record=False
        )  # tries for 3 s while the listener waits 6 s
        return await listener, caller

    listener, caller = asyncio.run(scenario())
    assert listener.ok and caller.ok, (listener.error, caller.error)
    assert caller.stdout == "[]\n" and listener.stdout == "alone\n"


@pytest.mark.parametrize(
    "attack",
    [
        "import os, signal\nos.kill(-1, signal.SIGKILL)",
        "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)",
        "import os, signal\nsignal.pidfd_send_signal(os.pidfd_open(os.getppid()), signal.SIGKILL)",
        "import os, signal\nos.kill(1, signal.SIGKILL)",
        "import resource, os\nresource.prlimit(os.getppid(), resource.RLIMIT_NOFILE, (3, 3))",
        "print(open(f'/proc/{__import__(\"os\").getppid()}/environ').read())",
    ],
)
def test_a_program_cannot_touch_the_server(attack: str) -> None:
    before = _server_pid()
    result = run_python_sync(attack)
    assert "Killed" not in (result.error or "")
    assert run_python_sync("print(1)").stdout == "1\n"
    assert _server_pid() == before  # the same server, never killed nor replaced


def test_limits_apply_per_program() -> None:
    hog = run_python_sync("x = bytearray(400 * 1024 * 1024)", memory_mb=128)
    assert not hog.ok and "MemoryError" in hog.error
    assert run_python_sync(
        "x = bytearray(200 * 1024 * 1024)\nprint(len(x))", memory_mb=512
    ).ok  # the limit was this program's only
    loop = run_python_sync("while True:\n    pass", timeout_s=1.0)
    assert loop.timed_out and loop.duration_s < 4
    assert run_python_sync("import os\nos.fork()").error.endswith("Resource temporarily unavailable")
    big = run_python_sync("print('y' * 5_000_000)", max_output_bytes=1000)
    assert big.ok and len(big.stdout) < 1100


def _server_process(bwrap_pid: int) -> int:
    """The fork server's host pid: the python process under bwrap's init."""
    for entry in filter(str.isdigit, os.listdir("/proc")):
        with contextlib.suppress(OSError):
            ppid = int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1])
            parent_ppid = int(Path(f"/proc/{ppid}/stat").read_text().rsplit(")", 1)[1].split()[1])
            if parent_ppid == bwrap_pid and "server.py" in Path(f"/proc/{entry}/cmdline").read_text():
                return int(entry)
    raise AssertionError("no fork server process found")


@pytest.mark.parametrize("target", ["server", "sandbox"])
def test_a_killed_idle_server_is_replaced(target: str) -> None:
    old = forkserver.server(CHILD)
    assert old.proc is not None
    if target == "server":
        os.kill(_server_process(old.proc.pid), signal.SIGKILL)
    else:
        os.killpg(old.proc.pid, signal.SIGKILL)  # bwrap: its PID namespace and the server in it follow
    result = run_python_sync("print(2)")  # whether or not the host has noticed yet
    assert result.ok and result.stdout == "2\n", result.error
    old._thread.join(timeout=30)  # the thread watching the old server ends when the server has
    assert old.dead and forkserver.server(CHILD) is not old
    assert run_python_sync("print(4)").stdout == "4\n"


def test_a_server_killed_under_a_running_program_is_replaced_and_the_program_rerun() -> None:
    old = forkserver.server(CHILD)
    assert old.proc is not None
    victim = _server_process(old.proc.pid)

    async def scenario() -> PyExecResult:
        issued = len(codebox.issued_uids)
        running = asyncio.ensure_future(
            run_python("import time\ntime.sleep(1)\nprint('done')", timeout_s=60, record=False)
        )
        while len(codebox.issued_uids) == issued or not _uid_processes(
            codebox.issued_uids[-1]
        ):  # the program runs
            await asyncio.sleep(0.01)
        os.kill(victim, signal.SIGKILL)
        return await asyncio.wait_for(running, timeout=60)

    result = asyncio.run(scenario())
    assert result.ok and result.stdout == "done\n", result.error
    assert forkserver.server(CHILD) is not old and old.dead
    assert run_python_sync("print(3)").stdout == "3\n"


def test_cold_sandbox_remains_a_choice() -> None:
    codebox.set_mode("bwrap-cold")
    try:
        before = forkserver._servers.get((CHILD, True))
        result = run_python_sync("import os\nprint(os.getppid())")
        assert result.ok and result.stdout == "1\n"  # bwrap's init is its parent: a sandbox of its own
        assert forkserver._servers.get((CHILD, True)) is before
    finally:
        codebox.set_mode("bwrap")


EXITING_HOST = textwrap.dedent("""
    import json, sys
    from restgraph.tools import forkserver
    from restgraph.tools.pyexec import CHILD, run_python_sync
    result = run_python_sync("import os\\nprint(os.getuid())")
    print(json.dumps({"bwrap": forkserver.server(CHILD).proc.pid, "uid": int(result.stdout)}), flush=True)
    if sys.argv[1] == "crash":
        import os, signal
        os.kill(os.getpid(), signal.SIGKILL)
""")


def _uid_processes(uid: int) -> list[str]:
    found = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{entry}/status") as fh:
                if next(line for line in fh if line.startswith("Uid:")).split()[1] == str(uid):
                    found.append(entry)
        except (OSError, StopIteration):
            continue
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status") as fh:
            return "State:\tZ" not in fh.read()
    except FileNotFoundError:
        return False


@pytest.mark.parametrize("how", ["exit", "crash"])
def test_no_sandbox_process_outlives_its_host(how: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", EXITING_HOST, how], capture_output=True, text=True, cwd=REPO, timeout=120
    )
    info = json.loads(done.stdout.splitlines()[0])
    if how == "exit":
        assert done.returncode == 0 and not _alive(
            info["bwrap"]
        )  # atexit ended and reaped it before the host exited
        assert _uid_processes(info["uid"]) == []
        return
    deadline = (
        time.monotonic() + 30
    )  # bwrap's --die-with-parent: the kernel signals it; wait for that, bounded
    while _alive(info["bwrap"]) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(info["bwrap"]) and _uid_processes(info["uid"]) == []


def test_a_server_that_cannot_start_falls_back_to_a_sandbox_per_program(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    forkserver.shutdown()
    monkeypatch.setattr(forkserver, "SERVER", Path("/nonexistent/server.py"))
    try:
        with caplog.at_level(logging.WARNING):
            result = run_python_sync("import os\nprint(os.getppid())")
        assert (
            result.ok and result.stdout == "1\n"
        )  # bwrap's init is its parent: a sandbox of its own, as isolated
        assert "cannot start here" in caplog.text and "/nonexistent/server.py" in caplog.text
    finally:
        forkserver._cold.clear()
