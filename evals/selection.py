"""Which of a benchmark's tasks a run takes: ``--limit N`` / ``--limit A:B`` and ``--task-id ID``.

A selection that is negative, empty or names a task the benchmark does not have is a usage error
(:class:`SelectionError`), never a silently shorter run (``tasks[:-1]`` once ran 99 of 100).
"""

from __future__ import annotations

from collections.abc import Sequence

from restgraph.evals.trace import Task
from restgraph.tools.suggest import did_you_mean


class SelectionError(ValueError):
    """A task selection that selects nothing or something that does not exist (one line)."""


def parse_limit(value: int | str | None) -> tuple[int, int | None] | None:
    """``N`` -> ``(0, N)``; ``"A:B"`` -> ``(A, B)`` (0-based, B exclusive, either side may be left out)."""
    if value is None:
        return None
    text = str(value).strip()
    start_text, colon, stop_text = text.partition(":")
    try:
        if colon:
            start = int(start_text) if start_text.strip() else 0
            stop = int(stop_text) if stop_text.strip() else None
        else:
            start, stop = 0, int(text)
    except ValueError:
        raise SelectionError(f"--limit expects N or A:B (whole numbers), got {text!r}") from None
    if start < 0 or (stop is not None and stop < 0):
        raise SelectionError(f"--limit {text}: task positions are counted from 0 and cannot be negative")
    if stop is not None and stop <= start:
        raise SelectionError(f"--limit {text} selects no task")
    return start, stop


def select_tasks(
    tasks: Sequence[Task], *, limit: int | str | None = None, task_ids: Sequence[str] | None = None
) -> list[Task]:
    """The chosen tasks in the benchmark's order: ``task_ids`` (if any), then the ``limit`` range."""
    chosen = list(tasks)
    if task_ids:
        known = {t.id for t in chosen}
        for wanted in task_ids:
            if wanted not in known:
                hint = did_you_mean(wanted, known)
                sample = ", ".join(t.id for t in chosen[:3])
                raise SelectionError(
                    f"unknown task id {wanted!r}{hint}; this run's {len(chosen)} tasks have ids like {sample}"
                )
        wanted_ids = set(task_ids)
        chosen = [t for t in chosen if t.id in wanted_ids]
    bounds = parse_limit(limit)
    if bounds is not None:
        start, stop = bounds
        if start >= len(chosen):
            raise SelectionError(f"--limit {limit} selects no task: there are {len(chosen)}")
        chosen = chosen[start:stop]
    if not chosen:
        raise SelectionError("the task selection is empty")
    return chosen
