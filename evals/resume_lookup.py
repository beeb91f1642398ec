"""``restgraph run ... --resume`` without ``--out``: which run folder it continues.

Why: after Ctrl-C the tool says "finish with the same command plus --resume"; without ``--out``
that command used to make a new timestamped folder and run every episode again (exit 0), which
with a paid model is money spent twice. Now the latest run under ``runs/`` whose recorded options
match the command (``restgraph.evals.run_guard.option_differences``, the same test ``--resume``
applies to a named folder) is continued; if none matches, the command is refused (exit 2) with
the folder of the closest run (same benchmark and agent) and the exact command that continues it.
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from restgraph.evals.run_guard import option_differences

#: where ``restgraph run`` puts a run folder when ``--out`` is not given
RUNS_ROOT = Path("runs")


class NoRunToResume(ValueError):
    """``--resume`` without ``--out`` and no run to continue; the message is the one line to show."""


@dataclass(frozen=True)
class RecordedRun:
    folder: Path
    options: dict[str, Any]


def recorded_runs(root: Path = RUNS_ROOT) -> list[RecordedRun]:
    """The run folders under ``root`` that record their options, latest first (config.json's
    mtime: it is rewritten each time a run starts or resumes)."""
    found: list[tuple[float, RecordedRun]] = []
    for config in root.glob("*/config.json") if root.is_dir() else []:
        try:
            options = json.loads(config.read_text()).get("options")
            mtime = config.stat().st_mtime
        except (OSError, json.JSONDecodeError, AttributeError):
            continue  # not a run folder this command could continue
        if isinstance(options, dict):
            found.append((mtime, RecordedRun(config.parent, options)))
    return [run for _, run in sorted(found, key=lambda pair: (pair[0], str(pair[1].folder)), reverse=True)]


def resume_target(options: dict[str, Any], root: Path = RUNS_ROOT) -> Path:
    """The folder ``--resume`` continues for ``options`` (a resolved ``RunOptions`` dump).

    Raises :class:`NoRunToResume` naming the closest run and the command that continues it."""
    runs = recorded_runs(root)
    for run in runs:
        if not option_differences(run.options, options):
            return run.folder
    what = f"{options.get('benchmark')}/{options.get('agent')}"
    same_pair = [
        r
        for r in runs
        if (r.options.get("benchmark"), r.options.get("agent"))
        == (options.get("benchmark"), options.get("agent"))
    ]
    if not same_pair:
        raise NoRunToResume(
            f"--resume: no {what} run in {root}/ to continue; run the command without --resume to start one"
        )
    closest = same_pair[0]
    diffs = "; ".join(option_differences(closest.options, options))
    raise NoRunToResume(
        f"--resume: no run in {root}/ has these options; the latest {what} run, {closest.folder}, differs ({diffs});"
        f" to continue it: {resume_command(closest.options, closest.folder)}"
    )


def resume_command(options: dict[str, Any], folder: Path) -> str:
    """The ``restgraph run`` command line that continues the run recorded with ``options`` in ``folder``."""
    parts = ["restgraph", "run", str(options["benchmark"]), "--agent", str(options["agent"])]
    parts += ["--model", str(options.get("model", "local"))]
    if options.get("limit") is not None:
        parts += ["--limit", str(options["limit"])]
    for task_id in options.get("task_ids") or []:
        parts += ["--task-id", str(task_id)]
    if options.get("seed"):
        parts += ["--seed", str(options["seed"])]
    if options.get("max_steps") is not None:
        parts += ["--max-steps", str(options["max_steps"])]
    if options.get("code_sandbox") not in (None, "bwrap"):
        parts += ["--code-sandbox", str(options["code_sandbox"])]
    for flag, key in (("-B", "bench_options"), ("-A", "agent_options"), ("-M", "model_options")):
        for name, value in sorted((options.get(key) or {}).items()):
            if key == "model_options" and name == "api_key":
                continue  # never on a command line; given below from the environment
            parts += [flag, f"{name}={value if isinstance(value, str) else json.dumps(value)}"]
    parts += ["--out", str(folder), "--resume"]
    line = " ".join(shlex.quote(part) for part in parts)
    if "api_key" in (options.get("model_options") or {}):
        line += ' --api-key "$RESTGRAPH_API_KEY"'
    return line
