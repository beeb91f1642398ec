"""Runs as pandas DataFrames: episodes, model calls and tool calls, with typed columns.

Why: ``traces.jsonl`` is the record, but questions about a run ("which episodes failed to parse?",
"tokens per node?", "success by model across five runs?") are one-liners on a DataFrame and
painful with ``jq``. Every benchmark's traces load into the same three frames; a benchmark's own
per-episode scores become ``score_<key>`` columns whose dtype is inferred from the values
(``boolean``, ``Float64`` or ``string``; lists and dicts as JSON text), so a parquet file written by
``restgraph export`` reads back with the same types.

``traces.jsonl`` is read one line at a time and each trace is dropped once its rows are taken, so
a large run never sits in memory as pydantic objects. As in ``summary.json``, when a task was run
more than once in one run folder (``--resume`` after a crash) the last trace of each
(task, epoch) counts.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from restgraph.evals.cost import episode_cost
from restgraph.evals.run_keys import episode_key, run_config
from restgraph.evals.trace import Trace, TraceStore

EPISODE_TYPES: dict[str, str] = {
    "run": "string",
    "benchmark": "string",
    "agent": "string",
    "model": "string",
    "task_id": "string",
    "epoch": "Int64",
    "seed": "Int64",
    "status": "string",
    "error_kind": "string",
    "error": "string",
    "final_answer": "string",
    "steps": "Int64",
    "model_calls": "Int64",
    "parse_errors": "Int64",
    "input_tokens": "Int64",
    "output_tokens": "Int64",
    "tool_calls": "Int64",
    "wall_s": "Float64",
    "cost_usd": "Float64",
    "started_at": "datetime64[ns, UTC]",
    "instruction": "string",
}
MODEL_CALL_TYPES: dict[str, str] = {
    "run": "string",
    "task_id": "string",
    "epoch": "Int64",
    "step": "Int64",
    "node": "string",
    "call": "Int64",
    "role": "string",
    "model": "string",
    "prompt_hash": "string",
    "input_tokens": "Int64",
    "output_tokens": "Int64",
    "latency_s": "Float64",
    "attempts": "Int64",
    "parsed_ok": "boolean",
    #: the reply failed the protocol the role asked for first, and a fallback read it (a parse error
    #: *and* a parsed value: e.g. structured JSON refused, the plain-text protocol took the code)
    "recovered": "boolean",
    "parse_error": "string",
    "error": "string",
    "raw_output": "string",
    "started_at": "datetime64[ns, UTC]",
}
TOOL_CALL_TYPES: dict[str, str] = {
    "run": "string",
    "task_id": "string",
    "epoch": "Int64",
    "step": "Int64",
    "node": "string",
    "call": "Int64",
    "kind": "string",
    "name": "string",
    "method": "string",
    "path": "string",
    "template": "string",
    "url": "string",
    "status": "Int64",
    "error": "string",
    "latency_s": "Float64",
    "started_at": "datetime64[ns, UTC]",
}


@dataclass
class Frames:
    """The three views of one or many runs."""

    episodes: pd.DataFrame
    model_calls: pd.DataFrame
    tool_calls: pd.DataFrame


def iter_trace_lines(run_dir: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line number, trace as a dict)`` for every complete line; torn lines are skipped."""
    path = Path(run_dir) / TraceStore.FILENAME
    if not path.is_file():
        raise FileNotFoundError(f"{path} not found")
    with open(path, encoding="utf-8", errors="replace") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(data, dict) and "task_id" in data:
                yield lineno, data


def _error_kind(status: str) -> str | None:
    return status.partition(":")[2] or "error" if status.startswith("error") else None


def _cell(value: Any) -> Any:
    return json.dumps(value, sort_keys=True, default=str) if isinstance(value, (list, dict)) else value


def _episode_rows(
    run: str, data: dict[str, Any], price: Any, scores: dict[str, Any] | None
) -> tuple[dict, list[dict], list[dict]]:
    task_id, epoch = episode_key(data)
    usage = data.get("usage") or {}
    status = str(data.get("status") or "")
    base = {"run": run, "task_id": task_id, "epoch": epoch}
    calls: list[dict] = []
    tools: list[dict] = []
    for step in data.get("steps") or []:
        for i, c in enumerate(step.get("model_calls") or []):
            calls.append(
                {
                    **base,
                    "step": step.get("index"),
                    "node": step.get("node"),
                    "call": i,
                    "role": c.get("role"),
                    "model": c.get("model"),
                    "prompt_hash": c.get("prompt_hash"),
                    "input_tokens": c.get("input_tokens", 0),
                    "output_tokens": c.get("output_tokens", 0),
                    "latency_s": c.get("latency_s", 0.0),
                    "attempts": c.get("attempts", 1),
                    "parsed_ok": None
                    if c.get("parsed") is None and c.get("parse_error") is None
                    else c.get("parse_error") is None,
                    "recovered": c.get("parse_error") is not None and c.get("parsed") is not None,
                    "parse_error": c.get("parse_error"),
                    "error": c.get("error"),
                    "raw_output": c.get("raw_output"),
                    "started_at": c.get("started_at"),
                }
            )
        for i, t in enumerate(step.get("tool_calls") or []):
            tools.append(
                {
                    **base,
                    "step": step.get("index"),
                    "node": step.get("node"),
                    "call": i,
                    "kind": t.get("kind"),
                    "name": t.get("name"),
                    "method": t.get("method"),
                    "path": t.get("path"),
                    "template": (t.get("extra") or {}).get("template"),
                    "url": t.get("url"),
                    "status": t.get("status"),
                    "error": t.get("error"),
                    "latency_s": t.get("latency_s", 0.0),
                    "started_at": t.get("started_at"),
                }
            )
    model = str(data.get("model") or "")
    episode = {
        **base,
        "benchmark": data.get("benchmark"),
        "agent": data.get("agent"),
        "model": model,
        "seed": data.get("seed"),
        "status": status,
        "error_kind": _error_kind(status),
        "error": data.get("error"),
        "final_answer": data.get("final_answer"),
        "steps": len(data.get("steps") or []),
        "model_calls": usage.get("model_calls", len(calls)),
        "parse_errors": sum(1 for c in calls if c["parse_error"]),
        "input_tokens": usage.get("input_tokens", 0),
        "output_tokens": usage.get("output_tokens", 0),
        "tool_calls": usage.get("tool_calls", len(tools)),
        "wall_s": data.get("wall_s"),
        "cost_usd": episode_cost(
            model, int(usage.get("input_tokens", 0) or 0), int(usage.get("output_tokens", 0) or 0), price
        ),
        "started_at": data.get("started_at"),
        "instruction": (data.get("task") or {}).get("instruction"),
    }
    for key, value in (scores or {}).items():
        episode[f"score_{key}"] = _cell(value)
    return episode, calls, tools


def _score(bench: Any, data: dict[str, Any]) -> dict[str, Any]:
    try:
        return bench.score_episode(Trace.model_validate(data))
    except Exception as exc:  # a scorer crash on one trace is data, as in summary.json
        return {"score_error": f"{type(exc).__name__}: {exc}"}


def _typed(rows: list[dict], types: dict[str, str]) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=list(dict.fromkeys([*types, *(k for r in rows[:1] for k in r)])))
    extra = [c for c in frame.columns if c not in types]
    for column in frame.columns:
        frame[column] = _as_type(frame[column], types.get(column) or _infer(frame[column]))
    return frame[[*types, *sorted(extra)]] if extra else frame


def _infer(values: pd.Series) -> str:
    present = [v for v in values if v is not None and not (isinstance(v, float) and pd.isna(v))]
    if present and all(isinstance(v, bool) for v in present):
        return "boolean"
    if present and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present):
        return "Float64"
    return "string"


def _as_type(values: pd.Series, dtype: str) -> pd.Series:
    if dtype.startswith("datetime"):
        return pd.to_datetime(values, utc=True, errors="coerce", format="ISO8601")
    if dtype == "string":
        return values.map(lambda v: v if v is None or isinstance(v, str) else str(v)).astype("string")
    return values.astype(dtype)


def load_run(run_dir: str | Path, *, scores: bool = True, label: str | None = None) -> Frames:
    """One run folder as three frames. ``scores=False`` skips the benchmark's scorer (faster)."""
    run = label or str(run_dir)
    price = (run_config(run_dir).get("options") or {}).get("price")
    bench = None
    kept: dict[tuple[str, int], tuple[dict, list[dict], list[dict]]] = {}
    for _, data in iter_trace_lines(run_dir):
        if scores and bench is None:
            from restgraph.evals.benchmark import get_benchmark

            bench = get_benchmark(str(data.get("benchmark")))
        kept[episode_key(data)] = _episode_rows(run, data, price, _score(bench, data) if scores else None)
    episodes = [v[0] for v in kept.values()]
    calls = [c for v in kept.values() for c in v[1]]
    tools = [t for v in kept.values() for t in v[2]]
    return Frames(
        _typed(episodes, EPISODE_TYPES), _typed(calls, MODEL_CALL_TYPES), _typed(tools, TOOL_CALL_TYPES)
    )


def load(run_dirs: str | Path | Iterable[str | Path], *, scores: bool = True) -> Frames:
    """One or many runs, concatenated; the ``run`` column says which folder a row came from."""
    dirs = [run_dirs] if isinstance(run_dirs, (str, Path)) else list(run_dirs)
    parts = [load_run(d, scores=scores) for d in dirs]
    if len(parts) == 1:
        return parts[0]
    return Frames(
        *(_concat([getattr(p, name) for p in parts]) for name in ("episodes", "model_calls", "tool_calls"))
    )


def _concat(frames: list[pd.DataFrame]) -> pd.DataFrame:
    frames = [f for f in frames if len(f.columns)]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def episodes(run_dirs: str | Path | Iterable[str | Path], *, scores: bool = True) -> pd.DataFrame:
    return load(run_dirs, scores=scores).episodes


def model_calls(run_dirs: str | Path | Iterable[str | Path]) -> pd.DataFrame:
    return load(run_dirs, scores=False).model_calls


def tool_calls(run_dirs: str | Path | Iterable[str | Path]) -> pd.DataFrame:
    return load(run_dirs, scores=False).tool_calls


def export(run_dir: str | Path, out: str | Path, fmt: str = "parquet") -> list[Path]:
    """Write ``episodes``, ``model_calls`` and ``tool_calls`` as parquet or csv files into ``out``."""
    if fmt not in ("parquet", "csv"):
        raise ValueError(f"format must be parquet or csv, not {fmt!r}")
    frames = load_run(run_dir)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name in ("episodes", "model_calls", "tool_calls"):
        path = out / f"{name}.{fmt}"
        frame = getattr(frames, name)
        if fmt == "parquet":
            frame.to_parquet(path, index=False)
        else:
            frame.to_csv(path, index=False)
        written.append(path)
    return written
