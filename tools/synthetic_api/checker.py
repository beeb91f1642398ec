"""The Synthetic API checker: run a sample against its test with recording ``Dummy`` objects.

Upstream (spec section 3) ``exec``-ed the program in-process under a 10 s ``SIGALRM`` (B13): no
sandbox, main thread only. Here programs run in the operating-system sandbox of ``restgraph.tools.codebox``
(``checker_child.py``: one sandbox per batch whose trusted parent forks each sample into its own
world: its own ``/tmp``, IPC namespace, fresh uid, rlimits and memory limit, and the seccomp
filter, so no state carries over between samples; a sample whose syntax provably cannot reach
shared state, see ``restgraph.tools.synthetic_api.inert``, runs in a jailed worker with the
others like it and saves the fork, its memory and CPU limits reset to its own before it runs).
Faithful semantics are kept: the program layout with its ``global`` lines, ``exec`` with separate
empty globals and locals, keyword arguments dropped and positional arguments compared by ``str()``
(B12). The ``kwargs_aware`` variant maps keywords to API positions and compares numbers by value.

The verdict is computed here, not in the sandbox: the sandbox runs the program up to the test's
``x = ...`` line and reports ``x`` as data (the call string of a ``Dummy``, or the type of anything
else). The expected ``y`` is evaluated on this side from the test's ``y = ...`` line with trusted
``Dummy`` classes and never enters the sandbox; ``x == y`` is upstream's ``Dummy.__eq__`` (equal
call strings). So a sample that replaces ``__eq__``, ``repr`` or the result channel, or returns an
object equal to everything, gains nothing; a value that is not the program's ``Dummy`` fails as
upstream's comparison would (``AttributeError: '<type>' object has no attribute 's'``). No verdict
is cached: every call runs its samples.
"""

from __future__ import annotations

import ast
import asyncio
import functools
import json
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from restgraph.tools import codebox
from restgraph.tools.events import ProgramRun, emit
from restgraph.tools.pyexec import run_sync
from restgraph.tools.synthetic_api.inert import is_inert
from restgraph.tools.trace_schema import bounded

#: upstream's per-program timeout
TIMEOUT_S = 10.0
#: the batch parent's address space over a sample's (the inert samples' worker keeps 64 MB of head room)
PARENT_HEADROOM_MB = 96
CHILD = Path(__file__).with_name("checker_child.py")

DUMMY_SOURCE = """class Dummy:
    def __init__(self, s="main"):
        self.s = s

    def __getattr__(self, name):
        def call(*args, **kwargs):
            return Dummy(self.s + "." + name + "(" + ",".join(str(a) for a in args) + ")")
        return call

    def __eq__(self, other):
        return self.s == other.s

    def __str__(self):
        return "D<" + self.s + ">"
"""

KWARGS_DUMMY_SOURCE = """class Dummy:
    API_ARGS = __API_ARGS__

    def __init__(self, s="main"):
        self.s = s

    @staticmethod
    def _show(value):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return str(value)

    def __getattr__(self, name):
        def call(*args, **kwargs):
            names = Dummy.API_ARGS.get(name, [])
            slots = list(args) + [Dummy] * max(len(names) - len(args), 0)
            extra = []
            for key, value in kwargs.items():
                pos = names.index(key) if key in names else -1
                if pos >= len(args) and slots[pos] is Dummy:
                    slots[pos] = value
                else:
                    extra.append(key + "=" + Dummy._show(value))
            while slots and slots[-1] is Dummy:
                slots.pop()
            shown = ["<missing>" if v is Dummy else Dummy._show(v) for v in slots] + sorted(extra)
            return Dummy(self.s + "." + name + "(" + ",".join(shown) + ")")
        return call

    def __eq__(self, other):
        return self.s == other.s

    def __str__(self):
        return "D<" + self.s + ">"
"""


@dataclass(frozen=True)
class ParsedTest:
    header: str
    indent: str
    root_line: str
    root: str
    import_style: bool
    tail: list[str]


def parse_test(test: str) -> ParsedTest:
    """Split a generated test into the pieces the program is assembled from (spec section 3)."""
    lines = test.split("\n")
    if len(lines) < 7 or not lines[0].startswith("# signature =") or not lines[1].startswith("# indent ="):
        raise ValueError(
            f"not a Synthetic API test (expected 7 lines starting '# signature =', '# indent ='): {test[:200]!r}"
        )
    header = lines[0].split("=")[1].strip()  # B15: split at every '=', as upstream did
    indent = lines[1].split("=", 1)[1].strip()[1:-1]
    root = lines[2].split("=", 1)[0].strip()
    return ParsedTest(header, indent, lines[2], root, "import_style" in lines[3], lines[3:7])


def build_program(
    sample: str, test: str, *, api_args: dict[str, list[str]] | None = None, kwargs_aware: bool = False
) -> str:
    """Upstream's whole program: Dummy source, root object, def header, ``global`` lines, the sample,
    then the four test lines (the sandbox runs all but the last two, see ``build_check``)."""
    parsed = parse_test(test)
    return (
        _head(sample, parsed, api_args=api_args, kwargs_aware=kwargs_aware)
        + "\n\n\n"
        + "\n".join(parsed.tail)
    )


def _head(
    sample: str, parsed: ParsedTest, *, api_args: dict[str, list[str]] | None, kwargs_aware: bool
) -> str:
    dummy = (
        KWARGS_DUMMY_SOURCE.replace("__API_ARGS__", repr(api_args or {})) if kwargs_aware else DUMMY_SOURCE
    )
    lines = [dummy, parsed.root_line, parsed.header, f"{parsed.indent}global Dummy"]
    if parsed.import_style:
        lines.append(f"{parsed.indent}global {parsed.root}")
    lines.append(parsed.indent + sample)
    return "\n".join(lines)


@dataclass(frozen=True)
class Check:
    """What the sandbox runs (the program up to ``x = ...``) and the call string ``y`` must record."""

    program: str
    expected: str
    #: provably unable to touch shared state (``restgraph.tools.synthetic_api.inert``): runs without a fork
    inert: bool = False


def build_check(
    sample: str, test: str, *, api_args: dict[str, list[str]] | None = None, kwargs_aware: bool = False
) -> Check:
    parsed = parse_test(test)
    if (
        len(parsed.tail) < 4
        or not parsed.tail[2].startswith("y = ")
        or not parsed.tail[3].startswith("assert x == y")
    ):
        raise ValueError(
            f"not a Synthetic API test (lines 6-7 must be 'y = ...' and 'assert x == y ...'): {test[:200]!r}"
        )
    program = (
        _head(sample, parsed, api_args=api_args, kwargs_aware=kwargs_aware)
        + "\n\n\n"
        + "\n".join(parsed.tail[:2])
    )
    expected = expected_call(
        parsed.tail[2][4:], parsed.root, json.dumps(api_args or {}, sort_keys=True) if kwargs_aware else None
    )
    after_dummy = (
        _head(sample, parsed, api_args=None, kwargs_aware=False)[len(DUMMY_SOURCE) + 1 :]
        + "\n\n\n"
        + "\n".join(parsed.tail[:2])
    )
    return Check(program, expected, is_inert(after_dummy, own_globals=frozenset({"Dummy", parsed.root})))


@functools.cache
def _host_dummy(api_args_json: str | None) -> type[Any]:
    """The trusted ``Dummy`` class (our constant source, never model code), built on this side."""
    source = (
        DUMMY_SOURCE
        if api_args_json is None
        else KWARGS_DUMMY_SOURCE.replace("__API_ARGS__", repr(json.loads(api_args_json)))
    )
    namespace: dict[str, Any] = {}
    exec(compile(source, "<trusted Dummy>", "exec"), namespace)  # noqa: S102 - constant source of this module
    return namespace["Dummy"]


@functools.lru_cache(maxsize=4096)
def expected_call(expression: str, root: str, api_args_json: str | None = None) -> str:
    """The call string ``y`` records: the test's ``y`` expression evaluated with trusted Dummies.

    Only a call chain on the root name with literal or nested-call arguments is accepted."""
    dummy = _host_dummy(api_args_json)
    root_object = dummy()

    def value(node: ast.expr) -> Any:
        if isinstance(node, ast.Name) and node.id == root:
            return root_object
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            method = getattr(value(node.func.value), node.func.attr)
            return method(
                *[value(a) for a in node.args], **{k.arg: value(k.value) for k in node.keywords if k.arg}
            )
        return ast.literal_eval(node)

    try:
        result = value(ast.parse(expression, mode="eval").body)
    except (SyntaxError, ValueError, TypeError, AttributeError) as exc:
        raise ValueError(f"test line 'y = {expression}' is not a call chain on {root!r}: {exc}") from exc
    if type(result) is not dummy:
        raise ValueError(f"test line 'y = {expression}' does not evaluate to a Dummy")
    return result.s


def verdict(line: dict[str, Any], expected: str, timeout_s: float) -> tuple[bool, str | None]:
    """Upstream's ``(passed, error)`` from the sandbox's data about one sample."""
    if line.get("timed_out"):
        return False, f"TimeoutError: exceeded {timeout_s:g}s"
    raw, status = line.get("r"), line.get("status")
    if raw is None:
        if isinstance(status, int) and status & 0x7F:
            sig = status & 0x7F
            return False, f"Killed: signal {sig}; likely a resource limit"
        return False, f"the sample ended its process without a result (wait status {status})"
    try:
        report = json.loads(raw)
    except (TypeError, json.JSONDecodeError):
        report = None
    if not isinstance(report, dict):
        return False, "the sample's process returned an unreadable result"
    if isinstance(report.get("error"), str):
        return False, report["error"].replace("AssertionError: ", "")
    if report.get("type") == "Dummy" and isinstance(report.get("s"), str):
        if report["s"] == expected:
            return True, None
        return False, f"Test failure: D<{report['s']}> != D<{expected}>"
    return False, f"AttributeError: '{report.get('type')}' object has no attribute 's'"


def _lines(stdout: bytes, n: int) -> dict[int, dict[str, Any]]:
    found: dict[int, dict[str, Any]] = {}
    for text in stdout.decode("utf-8", "replace").splitlines():
        try:
            line = json.loads(text)
        except json.JSONDecodeError:
            continue
        if isinstance(line, dict) and isinstance(line.get("i"), int) and 0 <= line["i"] < n:
            found.setdefault(line["i"], line)
    return found


async def run_checks(
    checks: Sequence[Check], *, timeout_s: float = TIMEOUT_S, memory_mb: int = 512
) -> list[tuple[bool, str | None]]:
    """Run checks in one sandbox (a fresh process per sample); a sample that hangs or kills the
    sandbox fails alone and the rest run in a fresh sandbox. At most ``len(checks)`` restarts."""
    results: list[tuple[bool, str | None]] = []
    # the batch's parent only forks: its own limits leave room for the worker's (checker_child.py)
    limits = codebox.Limits(
        memory_mb=memory_mb + PARENT_HEADROOM_MB,
        nproc=4,
        cpu_s=math.ceil(timeout_s) * max(len(checks), 1) + 10,
    )
    sample_limits = codebox.Limits(memory_mb=memory_mb, nproc=1, cpu_s=math.ceil(timeout_s) + 1)
    while len(results) < len(checks):
        chunk = checks[len(results) :]
        payload = json.dumps(
            {
                "programs": [c.program for c in chunk],
                "inert": [c.inert for c in chunk],
                "timeout_s": timeout_s,
                "limits": sample_limits.model_dump(),
                # one fresh uid per sample and per worker start (at most one per sample, plus one)
                "uids": [codebox.new_uid() for _ in range(2 * len(chunk) + 1)],
                "jail": codebox.mode() != "none",
            }
        ).encode("utf-8")
        run = await codebox.run(
            CHILD,
            payload,
            limits=limits,
            timeout_s=(timeout_s + 1) * len(chunk) + 10,
            idle_timeout_s=timeout_s + 5,
            max_output_bytes=100_000 * len(chunk) + 10_000,
            privileged=True,
        )
        got = _lines(run.stdout, len(chunk))
        done = 0
        while done in got:
            results.append(verdict(got[done], chunk[done].expected, timeout_s))
            done += 1
        if done < len(chunk):  # the sandbox died or hung on this sample
            if run.timed_out:
                reason = f"TimeoutError: exceeded {timeout_s:g}s"
            else:
                tail = run.stderr_tail.decode("utf-8", "replace").strip().splitlines()
                reason = f"the checker sandbox ended without a result (exit {run.returncode}{': ' + tail[-1][:300] if tail else ''})"
            results.append((False, reason))
    return results


async def execute_async(
    sample: str | list[str],
    test: str,
    *,
    api_args: dict[str, list[str]] | None = None,
    kwargs_aware: bool = False,
    timeout_s: float = TIMEOUT_S,
) -> tuple[bool, str | None] | list[tuple[bool, str | None]]:
    """``execute`` for event loops; records one ``python`` tool call in the current episode."""
    samples = sample if isinstance(sample, list) else [sample]
    checks = [build_check(s, test, api_args=api_args, kwargs_aware=kwargs_aware) for s in samples]
    started = time.monotonic()
    results = await run_checks(checks, timeout_s=timeout_s)
    emit(
        ProgramRun(
            latency_s=round(time.monotonic() - started, 6),
            name="api_use.execute",
            code=bounded(checks[0].program if len(checks) == 1 else json.dumps(samples), 4000),
            output=json.dumps(results),
            error=None if all(ok for ok, _ in results) else next(e for ok, e in results if not ok),
            details={"samples": len(samples), "kwargs_aware": kwargs_aware},
        )
    )
    return results if isinstance(sample, list) else results[0]


def execute(
    sample: str | list[str],
    test: str,
    *,
    api_args: dict[str, list[str]] | None = None,
    kwargs_aware: bool = False,
    timeout_s: float = TIMEOUT_S,
) -> tuple[bool, str | None] | list[tuple[bool, str | None]]:
    """Upstream's ``execute(sample, test) -> (passed, error)``; a list of samples gives a list."""
    return run_sync(
        execute_async(sample, test, api_args=api_args, kwargs_aware=kwargs_aware, timeout_s=timeout_s)
    )


async def execute_batch_async(
    items: Sequence[tuple[str, str]],
    *,
    kwargs_aware: bool = False,
    api_args: Sequence[dict[str, list[str]] | None] | None = None,
    timeout_s: float = TIMEOUT_S,
    workers: int = 2,
    chunk_size: int = 400,
) -> list[tuple[bool, str | None]]:
    """Check many (sample, test) pairs, ``chunk_size`` samples per sandbox, ``workers`` sandboxes at a time."""
    checks = [
        build_check(s, t, api_args=(api_args[i] if api_args else None), kwargs_aware=kwargs_aware)
        for i, (s, t) in enumerate(items)
    ]
    chunks = [checks[i : i + chunk_size] for i in range(0, len(checks), chunk_size)]
    gate = asyncio.Semaphore(max(1, workers))

    async def one(chunk: list[Check]) -> list[tuple[bool, str | None]]:
        async with gate:
            return await run_checks(chunk, timeout_s=timeout_s)

    parts = await asyncio.gather(*(one(c) for c in chunks))
    return [r for part in parts for r in part]


def execute_batch(items: Sequence[tuple[str, str]], **kwargs) -> list[tuple[bool, str | None]]:
    return run_sync(execute_batch_async(items, **kwargs))
