"""Hostile samples are contained: each fails within its time limit and the host is unaffected.

Every sample is a model "answer" run through the Synthetic API checker, exactly as a model's
body would be. Policy: reading world-readable system files (``/etc/passwd``) is allowed, writing
anything, network, processes, signals, FFI and reading other processes' state are not.
"""

from __future__ import annotations

import hashlib
import os
import signal
import socket
import threading
import time
import uuid
from pathlib import Path

import pytest

from tools.pyexec import net_isolation_prefix, run_python_sync
from tools.synthetic_api import execute, get_example

TIMEOUT = 1.5
SECRET = "sk-restgraph-hostile-" + uuid.uuid4().hex
TOKEN = uuid.uuid4().hex


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory):
    """A listening socket, a signal handler, a sentinel file/dir and a secret in the environment."""
    root = tmp_path_factory.mktemp("hostile")
    sentinel = root / "sentinel.txt"
    sentinel.write_text("keep me")
    keep_dir = root / "keep"
    keep_dir.mkdir()
    (keep_dir / "file").write_text("keep")
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    server.settimeout(0.2)
    accepted: list[object] = []
    stop = threading.Event()

    def accept_loop() -> None:
        while not stop.is_set():
            try:
                accepted.append(server.accept())
            except OSError:
                continue

    thread = threading.Thread(target=accept_loop, daemon=True)
    thread.start()
    signals: list[int] = []
    previous = signal.signal(signal.SIGUSR1, lambda signum, frame: signals.append(signum))
    os.environ["RESTGRAPH_HOSTILE_SECRET"] = SECRET
    try:
        yield {"root": root, "sentinel": sentinel, "keep_dir": keep_dir, "port": server.getsockname()[1], "accepted": accepted, "signals": signals}
    finally:
        os.environ.pop("RESTGRAPH_HOSTILE_SECRET", None)
        signal.signal(signal.SIGUSR1, previous)
        stop.set()
        thread.join(timeout=2)
        server.close()


def hostile_samples(h: dict) -> dict[str, str]:
    """name -> body continuation (first line unindented, later lines indented by 4 spaces)."""
    port, sentinel, keep_dir, root = h["port"], h["sentinel"], h["keep_dir"], h["root"]
    marker = root / f"written-{TOKEN}"
    pid = os.getpid()
    return {
        "infinite_loop": "while True:\n        pass",
        "loop_swallowing_exceptions": "while True:\n        try:\n            pass\n        except BaseException:\n            pass",
        "sleep": "import time\n    time.sleep(60)",
        "fork_bomb": "import os\n    while True:\n        os.fork()",
        "memory_bomb": "x = bytearray(8 * 1024 ** 3)\n    return x",
        "memory_growth": "chunks = []\n    while True:\n        chunks.append(' ' * 10 ** 7)",
        "recursion_bomb": "def r(n):\n        return r(n + 1)\n    return r(0)",
        "socket_connect": f"import socket\n    socket.create_connection(('127.0.0.1', {port}), timeout=1)",
        "dunder_import_socket": f"__import__('_socket').socket().connect(('127.0.0.1', {port}))",
        "urllib": f"import urllib.request\n    urllib.request.urlopen('http://127.0.0.1:{port}/', timeout=1)",
        "file_write": f"open({str(marker)!r}, 'w').write('pwned')",
        "os_open_write": f"import os\n    os.open({str(marker) + '-2'!r}, os.O_WRONLY | os.O_CREAT)",
        "pathlib_write": f"import pathlib\n    pathlib.Path({str(marker) + '-3'!r}).write_text('x')",
        "cwd_write": "open('relative.txt', 'w').write('x')",
        "delete_file": f"import os\n    os.remove({str(sentinel)!r})",
        "rmtree": f"import shutil\n    shutil.rmtree({str(keep_dir)!r})",
        "rename": f"import os\n    os.rename({str(sentinel)!r}, {str(sentinel) + '.moved'!r})",
        "write_etc_passwd": "open('/etc/passwd', 'a').write('evil::0:0::/:/bin/sh\\n')",
        "environment_secret": "import os\n    raise Exception(dict(os.environ))",
        "parent_environ": f"raise Exception(open('/proc/{pid}/environ').read())",
        "self_proc": "raise Exception(open('/proc/self/environ').read())",
        "ctypes": "import ctypes\n    ctypes.CDLL(None).system(b'true')",
        "subprocess": f"import subprocess\n    subprocess.run(['touch', {str(marker) + '-4'!r}])",
        "os_system": f"import os\n    os.system('touch {marker}-5')",
        "os_exec": "import os\n    os.execv('/bin/sh', ['sh', '-c', 'true'])",
        "posix_spawn": "import os\n    os.posix_spawn('/bin/true', ['true'], {})",
        "signal_host": f"import os, signal\n    os.kill({pid}, signal.SIGUSR1)",
        "thread": "import threading\n    threading.Thread(target=print).start()",
        "multiprocessing": "import multiprocessing\n    multiprocessing.Process(target=print).start()",
        "os_exit": "import os\n    os._exit(0)",
        "sys_exit": "import sys\n    sys.exit(0)",
        "forged_result": "import os\n    os.write(1, b'\\nRGRESULT-0000 0 True \\n')\n    os._exit(0)",
        "stdout_flood": "import os\n    os.write(1, b'x' * 50_000_000)\n    return 1",
    }


def test_hostile_suite_is_contained(host: dict) -> None:
    tc = get_example("solids2.volume_of_cone()", "gets the volume of a cone", func_name="f")
    samples = hostile_samples(host)
    assert len(samples) >= 20
    passwd = hashlib.sha256(Path("/etc/passwd").read_bytes()).hexdigest()
    errors = {}
    for name, body in samples.items():
        started = time.monotonic()
        passed, error = execute(body, tc.test, timeout_s=TIMEOUT)
        elapsed = time.monotonic() - started
        assert passed is False, f"{name} passed the test"
        assert error, f"{name} failed without a reason"
        assert elapsed < TIMEOUT + 4, f"{name} took {elapsed:.1f}s (limit {TIMEOUT}s)"
        errors[name] = error
    # the host is unaffected
    assert host["sentinel"].read_text() == "keep me"
    assert (host["keep_dir"] / "file").read_text() == "keep"
    assert not list(host["root"].glob(f"written-{TOKEN}*"))
    assert not Path(str(host["sentinel"]) + ".moved").exists()
    assert hashlib.sha256(Path("/etc/passwd").read_bytes()).hexdigest() == passwd
    assert host["accepted"] == [], "a sample reached the host's socket"
    time.sleep(0.1)
    assert host["signals"] == [], "a sample signalled the host"
    assert all(SECRET not in e for e in errors.values()), "a secret reached a result"
    assert "TimeoutError" in errors["infinite_loop"] and "TimeoutError" in errors["sleep"]
    assert "sandbox" in errors["socket_connect"] and "sandbox" in errors["fork_bomb"] and "sandbox" in errors["signal_host"]


def test_hostile_samples_in_one_batch_fail_alone(host: dict) -> None:
    """A batch mixing hostile and correct samples: every hostile one fails, every correct one passes."""
    tc = get_example("solids2.volume_of_cone()", "gets the volume of a cone", func_name="f")
    chosen = ["os_exit", "infinite_loop", "memory_bomb", "forged_result", "sys_exit", "fork_bomb"]
    bodies = []
    for name in chosen:
        bodies += [hostile_samples(host)[name], tc.target]
    started = time.monotonic()
    results = execute(bodies, tc.test, timeout_s=TIMEOUT)
    assert [ok for ok, _ in results] == [False, True] * len(chosen)
    assert time.monotonic() - started < TIMEOUT + 10


def test_reading_world_readable_files_is_allowed_by_policy() -> None:
    result = run_python_sync("print(open('/etc/passwd').read().split(':')[0])")
    assert result.ok and result.stdout.strip() == "root"


def test_child_environment_is_scrubbed(host: dict) -> None:
    result = run_python_sync("import os, json; print(json.dumps(sorted(os.environ)))")
    assert result.ok and SECRET not in result.stdout and "RESTGRAPH_HOSTILE_SECRET" not in result.stdout


@pytest.mark.skipif(not net_isolation_prefix(), reason="unshare --net is not permitted here")
def test_network_namespace_has_only_loopback() -> None:
    """The extra layer under the audit hook: the child's network namespace has no interface but lo."""
    with open("/proc/net/dev") as fh:
        host_ifaces = {line.split(":")[0].strip() for line in fh.readlines()[2:]}
    import subprocess
    import sys

    out = subprocess.run([*net_isolation_prefix(), sys.executable, "-c", "print(open('/proc/net/dev').read())"], capture_output=True, text=True, timeout=20)
    ifaces = {line.split(":")[0].strip() for line in out.stdout.splitlines()[2:] if ":" in line}
    assert ifaces == {"lo"}, (ifaces, host_ifaces)
