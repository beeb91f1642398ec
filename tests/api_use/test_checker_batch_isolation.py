"""One sample, one world (issue 29): nothing a sample of a checker batch does changes a sibling's
verdict. Each test puts a hostile sample before a correct one in the same batch and checks the
correct one passes, as it does alone; on the old batch (one shared /tmp, one uid, the fast path
with the collector off) each of these failed."""

from __future__ import annotations

import pytest

from restgraph.tools.synthetic_api import execute, get_example
from restgraph.tools.synthetic_api.checker import build_check

TARGET = "return solids.volume_of_cone(radius, 5)"


@pytest.fixture(scope="module")
def cone():
    return get_example("solids2.volume_of_cone(height=5)", "v", func_name="f")


def _batch(samples: list[str], test: str) -> list[tuple[bool, str | None]]:
    results = execute(samples, test)
    assert isinstance(results, list)
    return results


def test_tmp_is_not_shared_between_samples(cone) -> None:
    writer = "open('/tmp/rg-shared', 'w').write('from sample 1')\n    " + TARGET
    reader = "import os\n    if os.path.exists('/tmp/rg-shared'):\n        return 3\n    " + TARGET
    assert _batch([writer, reader, reader], cone.test) == [(True, None)] * 3


def test_a_memory_leak_on_the_fast_path_does_not_reach_the_next_sample(cone) -> None:
    """A reference cycle holding 440 MB of a 512 MB limit, left behind by an inert sample."""
    leak = "a = ['x' * 440_000_000]\n    a.append(a)\n    " + TARGET
    assert build_check(leak, cone.test).inert and build_check(TARGET, cone.test).inert
    assert _batch([leak, TARGET, leak, TARGET], cone.test) == [(True, None)] * 4


def test_a_sample_cannot_lower_a_siblings_open_file_limit(cone) -> None:
    lower = (
        "import os, resource\n"
        "    try:\n"
        "        resource.prlimit(os.getppid(), resource.RLIMIT_NOFILE, (3, 3))\n"
        "    except OSError:\n"
        "        pass\n"
        "    " + TARGET
    )
    opener = "import os\n    fds = [os.open('/dev/null', os.O_RDONLY) for _ in range(8)]\n    " + TARGET
    assert _batch([lower, opener], cone.test) == [(True, None)] * 2


def test_a_crashing_sample_fails_alone(cone) -> None:
    """A sample that kills its own process (here: a deep recursion in C), on the fast path and forked."""
    crash_inert = "return [list(range(10**9))]"
    crash_forked = "import os, signal\n    os.kill(os.getpid(), signal.SIGKILL)"
    results = _batch([crash_inert, TARGET, crash_forked, TARGET], cone.test)
    assert [ok for ok, _ in results] == [False, True, False, True], results
