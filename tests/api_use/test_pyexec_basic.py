"""Basic contract of ``restgraph.tools.pyexec``: inputs, results, and use from loops and threads."""

from __future__ import annotations

import asyncio
import threading

from restgraph.tools.pyexec import PyExecResult, run_python, run_python_sync


def test_inputs_are_globals_and_stdout_is_returned() -> None:
    result = run_python_sync("print(sum(data['xs']), name)", inputs={"data": {"xs": [1, 2, 3]}, "name": "n"})
    assert isinstance(result, PyExecResult)
    assert result.ok and result.stdout == "6 n\n" and result.error is None and not result.timed_out


def test_uncaught_exception_is_an_error_not_a_crash() -> None:
    result = run_python_sync("raise KeyError('missing')")
    assert not result.ok and result.error == "KeyError: 'missing'"


def test_allowed_modules_restricts_imports() -> None:
    assert run_python_sync("import json; print(json.dumps(1))", allowed_modules={"json"}).ok
    blocked = run_python_sync("import math", allowed_modules={"json"})
    assert not blocked.ok and "import of math" in (blocked.error or "")


def test_safe_inside_running_loop_and_threads() -> None:
    async def in_loop() -> tuple[PyExecResult, PyExecResult]:
        first = await run_python("print(1)")
        second = run_python_sync("print(2)")  # blocking call from inside a loop
        return first, second

    a, b = asyncio.run(in_loop())
    assert a.stdout == "1\n" and b.stdout == "2\n"
    results: list[PyExecResult] = []
    threads = [threading.Thread(target=lambda: results.append(run_python_sync("print(3)"))) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [r.stdout for r in results] == ["3\n"] * 3


def test_output_is_bounded() -> None:
    result = run_python_sync("print('x' * 3_000_000)", max_output_bytes=1000)
    assert result.ok and len(result.stdout) < 1100 and result.stdout.endswith("[output truncated]")


def test_inputs_cannot_collide_with_the_status_channel() -> None:
    result = run_python_sync("print(repr(nonce), data)", inputs={"nonce": "", "data": [1]})
    assert result.ok and result.stdout == "'' [1]\n"


def test_timeout_kills_and_reports() -> None:
    result = run_python_sync("while True:\n    pass", timeout_s=1.0)
    assert (
        not result.ok
        and result.timed_out
        and result.error.startswith("TimeoutError")
        and result.duration_s < 3
    )
