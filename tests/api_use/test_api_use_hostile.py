"""Hostile programs through ``run_python`` and the Synthetic API checker: each is contained.

For every program of ``tests/hostile.py``: no marker, secret or gold answer in any output, the
harness unchanged (files, rlimits, signals, sockets, no sandbox process left), and the right
verdict (a hostile sample never passes; a correct sample next to it still does). Then the forgeries
of a verdict and the tampering that used to carry over between samples of one batch.
"""

from __future__ import annotations

import asyncio

import pytest

from restgraph.tools.pyexec import PyExecResult, run_python
from restgraph.tools.synthetic_api import execute, execute_batch, get_example
from tests.hostile import RUN_PYTHON_OK, SECRET, Harness, as_sample, program_names, programs
from tests.hostile import harness as harness  # noqa: F401 - the module's fixture

TIMEOUT = 1.5
NAMES = program_names()


@pytest.fixture(scope="module")
def cone():
    return get_example("solids2.volume_of_cone()", "gets the volume of a cone", func_name="f")


@pytest.fixture(scope="module")
def run_python_results(harness: Harness) -> dict[str, PyExecResult]:
    async def all_of_them() -> dict[str, PyExecResult]:
        gate = asyncio.Semaphore(4)

        async def one(code: str) -> PyExecResult:
            async with gate:
                return await run_python(
                    code, timeout_s=TIMEOUT, memory_mb=256, max_output_bytes=200_000, record=False
                )

        found = programs(harness)
        results = await asyncio.gather(*(one(found[n]) for n in NAMES))
        return dict(zip(NAMES, results, strict=True))

    return asyncio.run(all_of_them())


@pytest.fixture(scope="module")
def checker_results(harness: Harness, cone) -> dict[str, tuple[list[tuple[bool, str | None]], ...]]:
    """One batch: every hostile sample followed by the correct answer (which must still pass)."""
    found = programs(harness)
    batch = []
    for name in NAMES:
        batch += [as_sample(found[name]), cone.target]
    results = execute_batch(
        [(b, cone.test) for b in batch], timeout_s=TIMEOUT, workers=2, chunk_size=len(batch) // 2 + 1
    )
    return {name: (results[2 * i], results[2 * i + 1]) for i, name in enumerate(NAMES)}


def test_the_suite_is_large_enough() -> None:
    assert len(NAMES) >= 60


@pytest.mark.parametrize("name", NAMES)
def test_run_python_contains(
    name: str, harness: Harness, run_python_results: dict[str, PyExecResult]
) -> None:
    result = run_python_results[name]
    assert harness.outputs_clean(result.stdout, result.stderr, result.error) == []
    if name in RUN_PYTHON_OK:
        assert result.ok is RUN_PYTHON_OK[name], (result.error, result.stderr[-300:])


@pytest.mark.parametrize("name", NAMES)
def test_checker_contains(name: str, harness: Harness, checker_results) -> None:
    (hostile_ok, hostile_error), (target_ok, target_error) = checker_results[name]
    assert hostile_ok is False and hostile_error, f"{name} passed"
    assert target_ok is True, f"the correct sample after {name} failed: {target_error}"
    assert harness.outputs_clean(hostile_error) == []


def test_harness_is_unchanged(harness: Harness, run_python_results, checker_results) -> None:
    assert harness.damage() == []


def test_timeouts_and_limits_are_reported(run_python_results, checker_results) -> None:
    assert run_python_results["infinite_loop"].timed_out and run_python_results["sleep"].timed_out
    assert "TimeoutError" in checker_results["infinite_loop"][0][1]
    assert "MemoryError" in (run_python_results["memory_bomb"].error or "")
    assert "exit status" in (run_python_results["exit_nonzero"].error or "") or "code 3" in (
        run_python_results["exit_nonzero"].error or ""
    )
    assert run_python_results["forge_status_line"].error == "ValueError: really failed"


# -- verdict forgeries: the sandbox reports data, this side compares ------------------------------------
EXPECTED = "main.volume_of_cone(dummy_radius_0,dummy_height_1)"
FORGERIES = {
    "always_true_eq": "class A:\n    def __eq__(self, other):\n        return True\nreturn A()",
    "dummy_eq_patched": "Dummy.__eq__ = lambda a, b: True\nreturn solids.volume_of_cube(radius)",
    "dummy_str_patched": "Dummy.__str__ = lambda self: 'D<"
    + EXPECTED
    + ">'\nreturn solids.volume_of_cube(radius)",
    "repr_and_str_patched": "import builtins\nbuiltins.repr = lambda o: 'True'\nbuiltins.str = lambda o: ''\nreturn 0",
    "fake_object_with_s": "class Fake:\n    s = '" + EXPECTED + "'\nreturn Fake()",
    "dummy_subclass": "class D2(Dummy):\n    pass\nreturn D2('" + EXPECTED + "')",
    "rebound_dummy_class": "class Other:\n    def __init__(self, s='main'):\n        self.s = '"
    + EXPECTED
    + "'\nglobal Dummy\nDummy = Other\nreturn Other()",
    "zygote_line_on_every_fd": (
        'import os\nline = b\'{"i": 0, "r": "{\\\\"type\\\\": \\\\"True\\\\"}", "status": 0, "timed_out": false}\\n\'\n'
        "for fd in range(0, 64):\n    try:\n        os.write(fd, line)\n    except OSError:\n        pass\nreturn 0"
    ),
    "exception_text_says_true": "raise Exception('True')",
    "exit_before_report": "import os\nos._exit(0)",
    "zygote_killed": "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)",
}


@pytest.mark.parametrize("name", sorted(FORGERIES))
def test_forged_verdicts_fail(name: str, cone) -> None:
    results = execute([as_sample(FORGERIES[name]), cone.target], cone.test, timeout_s=TIMEOUT)
    assert results[0][0] is False and results[1] == (True, None), results


# -- tampering that must not carry over to the next sample -------------------------------------------
POISONS = {
    # makes the swapped (wrong) answer below record the right call string, in a shared interpreter
    "rebind_str": "import builtins\nswap = {'dummy_height_1': 'dummy_radius_0', 'dummy_radius_0': 'dummy_height_1'}\n"
    "real = builtins.str\nbuiltins.str = lambda o='': swap.get(o, real(o))\nreturn 0",
    "patch_json_dumps": 'import json\njson.dumps = lambda *a, **k: \'{"type": "Dummy", "s": "'
    + EXPECTED
    + "\"}'\nreturn 0",
    "patch_build_class": "import builtins\nbuiltins.__build_class__ = lambda *a, **k: object\nreturn 0",
    "rewrite_later_programs": "import gc\nfor o in gc.get_objects():\n    if type(o) is list:\n        for i, v in enumerate(o):\n"
    "            if type(v) is str and 'volume_of_cone(height, radius)' in v:\n"
    "                o[i] = v.replace('volume_of_cone(height, radius)', 'volume_of_cone(radius, height)')\nreturn 0",
    "register_at_fork": (
        "import os\nos.register_at_fork(after_in_child=lambda: "
        "__import__('builtins').__setattr__('str', lambda o='': 'x'))\nreturn 0"
    ),
    "sys_modules_poison": 'import sys, types\nfake = types.ModuleType(\'json\')\nfake.dumps = lambda *a, **k: \'{"type": "Dummy", "s": "'
    + EXPECTED
    + "\"}'\n"
    "sys.modules['json'] = fake\nreturn 0",
}


@pytest.mark.parametrize("name", sorted(POISONS))
def test_tampering_does_not_carry_over(name: str, cone) -> None:
    wrong = "return solids.volume_of_cone(height, radius)"
    results = execute([as_sample(POISONS[name]), wrong, cone.target, wrong], cone.test, timeout_s=TIMEOUT)
    assert [ok for ok, _ in results] == [False, False, True, False], results
    assert (
        results[1][1]
        == f"Test failure: D<main.volume_of_cone(dummy_height_1,dummy_radius_0)> != D<{EXPECTED}>"
    )


def test_no_secret_in_checker_errors_for_the_environment_sample(harness: Harness, checker_results) -> None:
    assert SECRET not in repr(checker_results)


# -- the fork-free path: only samples that provably cannot reach shared state take it ----------------
INERT = {
    "exception_swallowing_loop": "while True:\n    try:\n        pass\n    except Exception:\n        pass",
    "memory_in_process": "x = ' ' * (10 ** 10)\nreturn x",
    "local_str_rebinding": "str = lambda o='': 'dummy_radius_0'\nreturn solids.volume_of_cone(height, radius)",
    "deep_recursion": "g = lambda n: g(n + 1)\nreturn g(0)",
    "format_traversal": "return '{0.__class__.__init__.__globals__}'.format(solids)",
}
NOT_INERT = {
    "import": "import builtins\nreturn 0",
    "generator_frame": "return (i for i in ()).gi_frame.f_back",
    "dunder_attribute": "return solids.__class__",
    "getattr": "return getattr(solids, 'volume_of_cone')(radius, height)",
    "globals": "return globals()",
    "type": "return type(solids)",
    "class": "class A:\n    pass\nreturn A()",
    "attribute_store": "solids.s = 'x'\nreturn solids",
    "foreign_global": "global str\nreturn 0",
    "private_name": "return __builtins__",
    "swallows_base_exception": "try:\n    pass\nexcept BaseException:\n    pass\nreturn 0",
    "bare_except": "try:\n    pass\nexcept:\n    pass\nreturn 0",
    "yield": "yield 1",
    "with": "with open('/etc/passwd') as fh:\n    return fh.read()",
    "mro": "return Dummy.mro()",
}


@pytest.mark.parametrize("name", sorted(INERT))
def test_inert_samples_run_in_process_and_still_cannot_carry_over(name: str, cone) -> None:
    from restgraph.tools.synthetic_api.checker import build_check

    assert build_check(as_sample(INERT[name]), cone.test).inert
    wrong = "return solids.volume_of_cone(height, radius)"
    results = execute([as_sample(INERT[name]), wrong, cone.target, wrong], cone.test, timeout_s=TIMEOUT)
    assert [ok for ok, _ in results] == [False, False, True, False], results


@pytest.mark.parametrize("name", sorted(NOT_INERT))
def test_samples_that_could_reach_shared_state_get_their_own_process(name: str, cone) -> None:
    from restgraph.tools.synthetic_api.checker import build_check

    assert not build_check(as_sample(NOT_INERT[name]), cone.test).inert
