"""Issue 29's families end to end through ``restgraph run api-use --agent api-use-coder --model
"scripted:replay?file=..."``: each hostile answer would pass its task only if the attack worked
(state kept or passed outside its sample), so containment is a failed episode for a spy and an
unharmed sibling for a saboteur. After the runs the host's keyrings hold nothing a sample made."""

from __future__ import annotations

import asyncio
import json
import uuid
from pathlib import Path

import pyseccomp
import pytest

from restgraph.tools import codebox
from tests.foundation.conftest import cli

TASKS = ["api-use/distractors/solids-volume_of_cone-0-0", "api-use/distractors/solids-volume_of_cone-1-0"]
PASS = "    return solids.volume_of_cone(radius, height)"
WRONG = "    return solids.volume_of_cone(height, radius)"
DESC = f"rg-hostile-run-{uuid.uuid4().hex[:12]}"
ARCH = pyseccomp.system_arch()


def nr(name: str) -> int:
    return pyseccomp.resolve_syscall(ARCH, name)


def answer(*body: str) -> str:
    """A model reply the agent extracts one function body from."""
    return "```python\ndef get_volume_of_cone(radius, height):\n" + "\n".join(body) + "\n```"


def if_then_pass(condition: str, *setup: str) -> str:
    return answer(*setup, f"    if {condition}:", "    " + PASS, WRONG)


LIBC = "    import ctypes\n    libc = ctypes.CDLL(None, use_errno=True)"
KEY_WRITER = if_then_pass(
    "key > 0",
    LIBC,
    f"    key = libc.syscall({nr('add_key')}, b'user', {DESC.encode()!r}, b'payload', 7, -4)",
    f"    libc.syscall({nr('keyctl')}, 5, key, 0x3F3F3F3F)",  # every permission to everyone
)
KEY_READER = if_then_pass(f"{DESC!r} in open('/proc/keys').read()")
NESTED_NAMESPACE = if_then_pass(f"libc.syscall({nr('unshare')}, 0x10000000 | 0x40000000) == 0", LIBC)
INOTIFY_LISTENER = if_then_pass(
    "select.select([fd], [], [], 8)[0]",
    LIBC + "\n    import select",
    f"    fd = libc.syscall({nr('inotify_init1')}, 0)",
    "    if fd < 0:",
    "        " + WRONG.strip(),
    f"    libc.syscall({nr('inotify_add_watch')}, fd, b'/usr/lib/os-release', 0x20)",  # IN_OPEN
)
INOTIFY_SENDER = answer(
    "    import time",
    "    for _ in range(120):",
    "        open('/usr/lib/os-release').close()",
    "        time.sleep(0.02)",
    PASS,
)
TMP_WRITER = answer("    open('/tmp/rg-shared', 'w').write('the answer: radius first')", PASS)
TMP_READER = if_then_pass("os.path.exists('/tmp/rg-shared')", "    import os")
LOWER_SIBLING = answer(
    "    import os, resource",
    "    try:",
    "        resource.prlimit(os.getppid(), resource.RLIMIT_NOFILE, (3, 3))",
    "    except OSError:",
    "        pass",
    PASS,
)
OPENER = answer("    import os", "    fds = [os.open('/dev/null', os.O_RDONLY) for _ in range(8)]", PASS)
LEAK = answer("    a = ['x' * 440_000_000]", "    a.append(a)", PASS)


def run(tmp_path: Path, name: str, replies: dict[str, list[str]], *args: str) -> list[dict]:
    """One ``restgraph run`` of the first ``len(replies)`` tasks; its ``scores.jsonl`` rows."""
    file = tmp_path / f"{name}.json"
    file.write_text(json.dumps(replies))
    out = tmp_path / name
    result = cli(
        "run", "api-use", "--agent", "api-use-coder", "--model", f"scripted:replay?file={file}",
        "--limit", str(len(replies)), "--out", out, "--quiet", "-A", "sample_concurrency=1", *args,
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    return [json.loads(line) for line in (out / "scores.jsonl").read_text().splitlines()]


def _keys_left() -> list[str]:
    """Host keyring entries of sandbox uids this process handed out, and any key named ``DESC``."""
    uids = set(codebox.issued_uids)
    users = [
        line for line in Path("/proc/key-users").read_text().splitlines() if int(line.split(":")[0]) in uids
    ]
    keys = [line for line in Path("/proc/keys").read_text().splitlines() if DESC in line]
    return users + keys


def test_a_key_stored_in_one_run_is_not_there_for_the_next_or_the_host(tmp_path: Path) -> None:
    (writer,) = run(tmp_path, "writer", {TASKS[0]: [KEY_WRITER]})
    (reader,) = run(tmp_path, "reader", {TASKS[0]: [KEY_READER]})
    assert (writer["success"], reader["success"]) == (False, False)
    assert _keys_left() == []
    assert cli("score", tmp_path / "writer").exit_code == 0  # a re-score after the reader ran: unchanged
    rescored = [json.loads(line) for line in (tmp_path / "writer" / "scores.jsonl").read_text().splitlines()]
    assert rescored == [writer]


def test_no_nested_namespaces(tmp_path: Path) -> None:
    (row,) = run(tmp_path, "nested", {TASKS[0]: [NESTED_NAMESPACE]})
    assert row["success"] is False and row["first_error"].startswith("Test failure")


def test_no_inotify_channel_between_concurrent_episodes(tmp_path: Path) -> None:
    rows = run(
        tmp_path, "inotify", {TASKS[0]: [INOTIFY_LISTENER], TASKS[1]: [INOTIFY_SENDER]}, "--concurrency", "2"
    )
    assert [r["success"] for r in rows] == [False, True]


def test_no_inotify_channel_between_two_concurrent_checks() -> None:
    """The same pair as two checker batches in flight at once (the runner above may not overlap
    them): the listener's watch on a shared ``/usr`` inode saw the sender's opens before the filter."""
    from restgraph.agents.api_use.extract import extract_body
    from restgraph.tools.synthetic_api import get_example
    from restgraph.tools.synthetic_api.checker import execute_async

    test = get_example("solids.volume_of_cone()", "v", func_name="get_volume_of_cone").test
    listener, sender = (
        extract_body(reply, "get_volume_of_cone", "solids", "    ")
        for reply in (INOTIFY_LISTENER, INOTIFY_SENDER)
    )

    async def both() -> list:
        return list(await asyncio.gather(execute_async(listener, test), execute_async(sender, test)))

    heard, sent = asyncio.run(both())
    assert sent == (True, None) and heard[0] is False, (heard, sent)


@pytest.mark.parametrize(
    ("name", "samples", "passed"),
    [
        ("shared_tmp", [TMP_WRITER, TMP_READER], 1),  # the reader passes only with the writer's file
        ("sibling_rlimits", [LOWER_SIBLING, OPENER], 2),  # the opener fails only under a lowered limit
        ("fast_path_leak", [LEAK, LEAK, answer(PASS)], 3),  # a later one dies only of an earlier leak
    ],
)
def test_samples_of_one_episode_keep_to_themselves(
    tmp_path: Path, name: str, samples: list[str], passed: int
) -> None:
    (row,) = run(tmp_path, name, {TASKS[0]: samples}, "-A", f"samples={len(samples)}")
    assert (row["n"], row["passed"]) == (len(samples), passed), row
