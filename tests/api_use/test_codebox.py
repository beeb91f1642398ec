"""The sandbox itself (``restgraph.tools.codebox``): what a job can see and do, and the refusal to run without it."""

from __future__ import annotations

import json
import logging
import os
import shutil
from pathlib import Path

import pytest

from restgraph.tools import codebox
from restgraph.tools.pyexec import run_python_sync
from tests.foundation.conftest import cli

REPO = Path(__file__).resolve().parents[2]

PROBE = """
import json, os
def can(path, mode='r'):
    try:
        open(path, mode).close()
        return True
    except OSError:
        return False
print(json.dumps({
    "uid": os.getuid(), "pid": os.getpid(), "ppid": os.getppid(), "pids": sorted(int(p) for p in os.listdir('/proc') if p.isdigit()),
    "env": dict(os.environ), "cwd": os.getcwd(), "root": sorted(os.listdir('/')),
    "ifaces": sorted(l.split(':')[0].strip() for l in open('/proc/net/dev').readlines()[2:]),
    "tmp_writable": can('/tmp/x', 'w'), "usr_writable": can('/usr/x', 'w'),
    "repo_visible": os.path.exists(%r), "data_visible": os.path.exists(%r), "etc_visible": os.path.exists('/etc/passwd'),
}))
"""


@pytest.mark.parametrize("sandbox", ["bwrap", "bwrap-cold"])
def test_a_job_sees_only_its_own_world(sandbox: str) -> None:
    data = os.environ.get("RESTGRAPH_DATA_DIR", "/work/shared/data")
    codebox.set_mode(sandbox)
    try:
        result = run_python_sync(PROBE % (str(REPO / "pyproject.toml"), data))
    finally:
        codebox.set_mode("bwrap")
    assert result.ok, result.error
    seen = json.loads(result.stdout)
    assert seen["uid"] != 0 and codebox.UID_RANGE[0] <= seen["uid"] < codebox.UID_RANGE[1]
    if sandbox == "bwrap-cold":
        assert (
            seen["pids"] == [1, seen["pid"]] and seen["ppid"] == 1
        )  # its own PID namespace: bwrap's init and itself
    else:  # the warm server's PID namespace, where /proc (hidepid) shows a program only its own process
        assert seen["pids"] == [seen["pid"]] and seen["ppid"] > 1
    assert set(seen["env"]) <= {"PATH", "LANG", "HOME", "PWD", "LC_CTYPE"}
    assert seen["ifaces"] == ["lo"]
    assert seen["tmp_writable"] and not seen["usr_writable"]
    assert not seen["repo_visible"] and not seen["data_visible"] and not seen["etc_visible"]
    assert seen["cwd"] == "/tmp"


def test_threads_and_processes_are_refused_by_the_kernel() -> None:
    result = run_python_sync("import threading\nthreading.Thread(target=print).start()")
    assert not result.ok and "can't start new thread" in result.error
    result = run_python_sync("import os\nos.fork()")
    assert not result.ok and "Resource temporarily unavailable" in result.error


def test_missing_bubblewrap_stops_with_the_package_and_choices(monkeypatch: pytest.MonkeyPatch) -> None:
    codebox._probe.cache_clear()
    real = shutil.which
    monkeypatch.setattr(codebox.shutil, "which", lambda name: None if name == "bwrap" else real(name))
    try:
        with pytest.raises(codebox.SandboxUnavailable, match="bubblewrap.*--code-sandbox"):
            codebox.ensure_available("bwrap")
        with pytest.raises(codebox.SandboxUnavailable):  # never a silent fallback
            run_python_sync("print(1)")
        result = cli("run", "smoke", "--model", "scripted:smoke-oracle", "--quiet")
        assert result.exit_code == 2
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        assert (
            len(lines) == 1 and "apt-get install bubblewrap" in lines[0] and "--code-sandbox" in lines[0]
        ), lines
    finally:
        codebox._probe.cache_clear()


def test_unknown_code_sandbox_is_a_usage_error(tmp_path: Path) -> None:
    result = cli(
        "run",
        "smoke",
        "--model",
        "scripted:smoke-oracle",
        "--code-sandbox",
        "docker",
        "--out",
        tmp_path / "r",
    )
    assert result.exit_code == 2 and "unknown code sandbox 'docker'" in result.stderr
    assert not (tmp_path / "r").exists()


def test_none_is_loud_and_still_limited(caplog: pytest.LogCaptureFixture) -> None:
    try:
        with caplog.at_level(logging.WARNING):
            codebox.set_mode("none")
        assert "UNISOLATED" in caplog.text
        assert run_python_sync("print(6 * 7)").stdout == "42\n"
        limits = run_python_sync(
            "import resource\nprint(resource.getrlimit(resource.RLIMIT_NOFILE), resource.getrlimit(resource.RLIMIT_CORE))"
        )
        assert limits.stdout == "(64, 64) (0, 0)\n"  # the limits still apply
    finally:
        codebox.set_mode("bwrap")


def test_the_run_records_the_code_sandbox(tmp_path: Path) -> None:
    assert (
        cli(
            "run",
            "smoke",
            "--model",
            "scripted:smoke-oracle",
            "-B",
            "n=1",
            "--out",
            tmp_path / "r",
            "--quiet",
        ).exit_code
        == 0
    )
    config = json.loads((tmp_path / "r" / "config.json").read_text())
    assert config["options"]["code_sandbox"] == "bwrap"
