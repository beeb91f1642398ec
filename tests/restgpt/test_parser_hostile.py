"""Hostile code through the RestGPT response parser, end to end: a scripted model writes it, the
graph runs it on a real response, and its output flows into the trace and the next prompts.

The parser's import allowlist (json, re, math) is a policy, not a wall: every program first undoes
it the way hostile code would, so what is tested is the operating-system sandbox underneath.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from restgraph.graphs.restgpt import build_restgpt
from tests.hostile import GOLD, MARK, SECRET, Harness, program_names, programs
from tests.hostile import harness as harness  # noqa: F401 - the module's fixture
from tests.restgpt.conftest import caller_op, role_model, run_graph

UNDO_ALLOWLIST = "import json\n__builtins__['__import__'] = json.codecs.builtins.__import__\n"
CASES = [
    "kill_parent",
    "pidfd_parent",
    "prlimit_parent",
    "prlimit_init",
    "parent_environ",
    "double_slash_environ",
    "dev_fd_dotdot_environ",
    "parent_mem",
    "parent_cmdline",
    "scan_proc",
    "environment",
    "data_dir_gold",
    "run_dir_gold",
    "mknod_outside",
    "mkfifo_in_repo",
    "write_in_repo",
    "thread",
    "fork_bomb",
    "socket_connect",
    "inherited_fds",
]
assert set(CASES) <= set(program_names())


@pytest.fixture(scope="module")
def episodes(harness: Harness, fake_env_module) -> dict[str, tuple[dict, str]]:
    found = programs(harness)

    async def one(name: str) -> tuple[dict, str]:
        code = "```python\n" + UNDO_ALLOWLIST + found[name] + "\nprint('parsed: item 1')\n```"
        model = role_model(
            {
                "planner": ["Plan step 1: get item 1", "Final Answer: done"],
                "selector": "GET /items/1 for its name",
                "caller": [caller_op("GET", "/items/1"), "Execution Result: ok"],
                "parser": [code, code, "Item 1 is apple."],
            }
        )
        state, rec = await run_graph(build_restgpt(model, fake_env_module, {}))
        trace = json.dumps([step.model_dump(mode="json") for step in rec.steps])
        return state, trace

    async def all_of_them() -> dict[str, tuple[dict, str]]:
        gate = asyncio.Semaphore(4)

        async def gated(name: str) -> tuple[dict, str]:
            async with gate:
                return await one(name)

        return dict(zip(CASES, await asyncio.gather(*(gated(n) for n in CASES)), strict=True))

    return asyncio.run(all_of_them())


@pytest.fixture(scope="module")
def fake_env_module():
    from tests.restgpt.conftest import fake_env

    return fake_env.__wrapped__()


@pytest.mark.parametrize("name", CASES)
def test_parser_episode_is_contained(name: str, episodes, harness: Harness) -> None:
    state, trace = episodes[name]
    assert state["status"] == "finished", state.get("error")
    for needle in (MARK, SECRET, SECRET[::-1], GOLD):
        assert needle not in trace, f"{name}: {needle[:12]}... reached the trace"
    assert '"kind": "python"' in trace  # the code really ran in the sandbox


def test_parser_episodes_left_the_harness_unchanged(episodes, harness: Harness) -> None:
    assert harness.damage() == []
