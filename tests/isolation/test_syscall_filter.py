"""The seccomp filter (``restgraph.tools.syscall_filter``) from inside every sandbox mode.

One probe program per mode attempts every denied family (``tests/isolation/syscall_probe.py``) and
reports each call's errno; the same probe without the filter shows the calls that went through
before it, so these tests fail without the filter."""

from __future__ import annotations

import asyncio
import errno
from pathlib import Path

import pytest

from restgraph.tools import codebox, syscall_filter
from restgraph.tools.pyexec import run_python_sync
from restgraph.tools.synthetic_api.checker import Check, run_checks
from tests.foundation.conftest import cli
from tests.isolation.syscall_probe import ALLOWED, CALLS, parse, probe_program

EXPECTED = {
    name: errno.ENOSYS if syscall == "clone3" else errno.EPERM for name, (syscall, _) in CALLS.items()
}


def _probe(mode: str, calls: dict) -> dict[str, int]:
    """The probe's errno per call, run the way model code runs in ``mode`` (``checker``: a
    forked sample of the Synthetic API checker's batch sandbox)."""
    if mode == "checker":
        program = probe_program(calls, emit="raise Exception(json.dumps(results))")
        ((passed, error),) = asyncio.run(run_checks([Check(program, expected="")]))
        assert not passed and error, error
        return parse(error)
    codebox.set_mode(mode)
    try:
        result = run_python_sync(probe_program(calls))
    finally:
        codebox.set_mode("bwrap")
    assert result.ok, result.error
    return parse(result.stdout)


@pytest.mark.parametrize("mode", ["bwrap", "bwrap-cold", "checker"])
def test_every_denied_family_fails_inside(mode: str) -> None:
    seen = _probe(mode, {**CALLS, **ALLOWED})
    named = {name: errno.errorcode.get(code, code) for name, code in seen.items()}
    assert {name: seen[name] for name in CALLS} == EXPECTED, named
    assert {name: seen[name] for name in ALLOWED} == dict.fromkeys(ALLOWED, 0), named


def test_without_the_filter_the_same_calls_go_through() -> None:
    """The named opt-out: nested user namespaces, inotify and personality flags work again (the
    keyring family is left out here: a key would outlive the test)."""
    calls = {
        name: CALLS[name]
        for name in ("unshare user namespace", "inotify_init1", "personality ADDR_NO_RANDOMIZE")
    }
    assert _probe("bwrap-no-seccomp", calls) == dict.fromkeys(calls, 0)


def test_the_filter_is_built_by_libseccomp_for_this_architecture() -> None:
    code = syscall_filter.bpf()
    assert code and len(code) % 8 == 0  # struct sock_filter[]
    assert syscall_filter.bpf(server=True) != code  # the server keeps its namespace and mount calls


def test_without_libseccomp_untrusted_code_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(server: bool = False) -> bytes:
        raise syscall_filter.FilterUnavailable("the pyseccomp binding cannot load libseccomp: not found")

    codebox._probe.cache_clear()
    monkeypatch.setattr(syscall_filter, "bpf", missing)
    try:
        for mode in ("bwrap", "bwrap-cold"):
            with pytest.raises(codebox.SandboxUnavailable, match="libseccomp.*bwrap-no-seccomp"):
                codebox.ensure_available(mode)
        codebox.ensure_available("bwrap-no-seccomp")  # the opt-out by name still runs
        result = cli("run", "smoke", "--model", "scripted:smoke-oracle", "--quiet")
        assert result.exit_code == 2
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        assert len(lines) == 1 and "libseccomp" in lines[0] and "bwrap-no-seccomp" in lines[0], lines
    finally:
        codebox._probe.cache_clear()


def test_a_sandbox_never_gets_a_uid_the_kernel_keeps_keys_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """A user keyring outlives its uid's processes (until reboot): a uid drawn again later must not
    find what an earlier, unfiltered job stored. The CI host had such a uid (one key, from a job
    outside the suite); the suite's random draw hit it and the keyring check saw it as a leak."""
    from restgraph.tools import sandbox_argv

    keyed_now = {int(line.split(":")[0]) for line in Path("/proc/key-users").read_text().splitlines()}
    assert sandbox_argv._uids_with_keys() == keyed_now
    low = sandbox_argv.UID_RANGE[0]
    draws = iter([7, 7, 8])
    monkeypatch.setattr(sandbox_argv.secrets, "randbelow", lambda _n: next(draws))
    monkeypatch.setattr(sandbox_argv, "_uids_with_keys", lambda: {0, low + 7})
    assert sandbox_argv.new_uid() == low + 8
