"""What the swapping tests read from a run's traces: each episode's prompts per role, and how many
endpoints a selector prompt lists. Shared by the behavioural tests (``test_swapping.py``) and the
notebook test (``tests/notebooks``), which check the same claims on notebook 2's runs."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from restgraph.evals.trace import TraceStore

#: a line of a selector's endpoint list (both packs start it with ``METHOD /path``)
_LISTED = re.compile(r"^(GET|POST|PUT|PATCH|DELETE) /\S*", re.MULTILINE)


def prompts(run_dir: Path) -> dict[str, list[tuple[str, str]]]:
    """task id -> [(role, the call's messages as one text)] in call order."""
    out: dict[str, list[tuple[str, str]]] = {}
    for trace in TraceStore(run_dir).load().traces:
        calls = out.setdefault(trace.task_id, [])
        for call in trace.model_calls():
            text = "\n\n".join(f"[{m.get('role')}]\n{m.get('content')}" for m in call.messages or [])
            calls.append((call.role, text))
    return out


def of_role(
    run: dict[str, list[tuple[str, str]]], role: str, *, exclude: bool = False
) -> dict[str, list[str]]:
    return {task: [t for r, t in calls if (r == role) != exclude] for task, calls in run.items()}


def listed_endpoints(prompt: str) -> int:
    return len(_LISTED.findall(prompt))


def roles_record(run_dir: Path) -> list[dict[str, Any]]:
    """Each episode's roles record (the ``start`` node's update)."""
    return [
        next(s.update["roles"] for s in trace.steps if s.update and "roles" in s.update)
        for trace in TraceStore(run_dir).load().traces
    ]


def assert_only_planner_differs(default: Path, terse: Path) -> None:
    """The terse planner run's selector, caller and parser prompts equal the default run's byte for
    byte; its planner prompts all differ."""
    base, swapped = prompts(default), prompts(terse)
    assert set(base) == set(swapped) and base
    assert of_role(swapped, "planner", exclude=True) == of_role(base, "planner", exclude=True)
    for task in base:
        roles = {r for r, _ in swapped[task]}
        assert {"planner", "selector", "caller", "parser"} <= roles, (task, roles)
        ours, theirs = of_role(swapped, "planner")[task], of_role(base, "planner")[task]
        assert ours and len(ours) == len(theirs) and all(a != b for a, b in zip(ours, theirs, strict=True))


def assert_selector_shortlists(default: Path, retrieval: Path, top_k: int) -> None:
    """Every selector prompt of the retrieval run lists at most ``top_k`` endpoints (the default
    run's list all of the API's, so the count is a real one)."""
    full = [listed_endpoints(t) for ts in of_role(prompts(default), "selector").values() for t in ts]
    short = [listed_endpoints(t) for ts in of_role(prompts(retrieval), "selector").values() for t in ts]
    assert full and min(full) > top_k, full
    assert short and max(short) <= top_k and min(short) > 0, short
