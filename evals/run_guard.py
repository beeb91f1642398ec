"""Guards that keep a run folder from silently mixing runs.

A run folder is one (benchmark, agent, model, options) run. ``--resume`` into a folder made by a
different run would append foreign episodes and score the mix; ``restgraph score`` on a folder
whose traces disagree would label the whole folder after whichever trace sorts first. Both are
refused here with one line naming the difference. Duplicate task lines (the last one is scored)
are counted so the summary reports them.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from restgraph.evals.redact import redact

#: what makes two runs the same run (``limit`` and ``concurrency`` may change on resume)
IDENTITY = ("benchmark", "agent", "model")
SAME_ON_RESUME = (
    *IDENTITY,
    "seed",
    "max_steps",
    "bench_options",
    "agent_options",
    "model_options",
    "code_sandbox",
    "data_sha256",
)


class RunMismatch(FileExistsError):
    """``--resume`` into a folder that holds another run (a usage error: exit 2)."""


class MixedRun(ValueError):
    """A folder whose traces belong to more than one run (a usage error for ``score``: exit 2)."""


def _short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= 80 else text[:77] + "..."


def option_differences(old: dict[str, Any], options: dict[str, Any]) -> list[str]:
    """What keeps ``options`` (a ``RunOptions`` dump) from resuming a run recorded with ``old``."""
    new = redact(options)
    return [
        f"{key} {_short(old.get(key))} there, {_short(new.get(key))} now"
        for key in SAME_ON_RESUME
        if (key in old or key in IDENTITY) and old.get(key) != new.get(key)
    ]


def check_resume(out_dir: Path, options: dict[str, Any], traces: Iterable[Any]) -> None:
    """Refuse to resume ``out_dir`` with ``options`` (a ``RunOptions`` dump) that differ from its run,
    and refuse a folder that holds no run at all: ``--resume`` never starts a fresh run."""
    new = redact(options)
    path = out_dir / "config.json"
    if not path.is_file() and not (out_dir / "traces.jsonl").is_file():
        raise RunMismatch(
            f"--resume: {out_dir} holds no run to continue (no config.json, no traces.jsonl); drop --resume to start one there"
        )
    if path.is_file():
        try:
            old = json.loads(path.read_text()).get("options") or {}
        except (json.JSONDecodeError, AttributeError) as exc:
            raise RunMismatch(
                f"--resume: {path} is not readable JSON ({exc}); cannot tell which run {out_dir} holds"
            ) from None
        diffs = option_differences(old, options)
        if diffs:
            raise RunMismatch(
                f"--resume: {out_dir} holds another run ({'; '.join(diffs)}); use the same options or another --out"
            )
    for trace in traces:
        for key in IDENTITY:
            theirs, ours = getattr(trace, key), new.get(key)
            if key == "model" and theirs == "none":
                continue  # agents without a model record 'none'
            if theirs != ours:
                raise RunMismatch(
                    f"--resume: {out_dir}/traces.jsonl holds {key} {theirs!r} (task {trace.task_id}), not {ours!r}; use another --out"
                )


def check_traces(traces: Sequence[Any], where: Path) -> dict[str, int]:
    """Refuse traces of more than one run; return duplicated task ids with their line counts."""
    for key in IDENTITY:
        seen = Counter(getattr(t, key) for t in traces)
        if len(seen) > 1:
            parts = ", ".join(f"{value!r} ({n} lines)" for value, n in seen.most_common())
            raise MixedRun(f"{where} mixes runs: {key} {parts}; score each run's folder separately")
    counts = Counter(_task_key(t) for t in traces)
    return {task: n for task, n in sorted(counts.items()) if n > 1}


def _task_key(trace: Any) -> str:
    """A task line's identity: the task, and its epoch under ``--epochs K`` (each epoch is its own line)."""
    epoch = int((trace.extra or {}).get("epoch", 0) or 0)
    return f"{trace.task_id}@epoch{epoch}" if epoch else trace.task_id
