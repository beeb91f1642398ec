"""What the trace viewer shows, as JSON: the runs, each run's episode list, one episode in full.

Why its own module: the live server (``restgraph.evals.viewer.server``) and the static copy
(``restgraph view --export``) must show exactly the same thing, so both serve these documents
under the same relative URLs (``data/runs.json``, ``data/<run>/episodes.json``,
``data/<run>/ep/<i>.json``, ``files/<run>/<path>``) to one static page.

Scale: a run's index is built in one streaming pass over ``traces.jsonl`` that keeps, per
episode, a small row and the line's byte offset, and is cached per run (``restgraph.evals.viewer.cache``)
so only the first view of a run pays for that pass; an episode's detail is read back by seeking
to that offset, so a 10,000-episode run is never held in memory as traces. Scores come from the
run's ``scores.jsonl`` (written with ``summary.json``) when it covers the run, else from the
benchmark's scorer, line by line.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from restgraph.evals.cost import episode_cost
from restgraph.evals.prompt_store import reader
from restgraph.evals.role_record import describe
from restgraph.evals.run_keys import episode_key, run_config
from restgraph.evals.trace import TraceStore
from restgraph.evals.viewer import cache

#: columns of the episode table, in order (the page sorts and filters on them)
COLUMNS = (
    "i",
    "task_id",
    "epoch",
    "outcome",
    "status",
    "scores",
    "model_calls",
    "parse_errors",
    "tool_calls",
    "tokens",
    "cost_usd",
    "wall_s",
    "instruction",
)


@dataclass
class RunIndex:
    """One run folder: its summary and, per kept episode, a table row and where its line starts."""

    run_dir: Path
    label: str
    summary: dict[str, Any]
    rows: list[list[Any]] = field(default_factory=list)
    offsets: list[int] = field(default_factory=list)


def _scalar_scores(scores: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in scores.items() if isinstance(v, (bool, int, float)) and k != "epoch"}


def _outcome(status: str, scores: dict[str, Any], success_key: str) -> str:
    if status.startswith("error"):
        return "error"
    return "success" if scores.get(success_key) else "failure"


def _stored_scores(run_dir: Path) -> dict[tuple[str, int], dict[str, Any]]:
    path = run_dir / "scores.jsonl"
    traces = run_dir / TraceStore.FILENAME
    if not path.is_file() or path.stat().st_mtime < traces.stat().st_mtime:
        return {}  # missing or older than the traces: score afresh
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            out[(str(row.get("task_id")), int(row.get("epoch", 0) or 0))] = row
    return out


def index_run(run_dir: str | Path, label: str | None = None) -> RunIndex:
    """The run's episode index: from the cache (``restgraph.evals.viewer.cache``) while the run's files are
    unchanged, else by one streaming pass over ``traces.jsonl`` (then cached)."""
    run_dir = Path(run_dir)
    if not (run_dir / TraceStore.FILENAME).is_file():
        raise FileNotFoundError(f"{run_dir / TraceStore.FILENAME} not found")
    summary_path = run_dir / "summary.json"
    summary = json.loads(summary_path.read_text()) if summary_path.is_file() else {}
    doc = cache.load(run_dir, COLUMNS)
    if doc is None:
        stamp = cache.fingerprint(run_dir, COLUMNS)
        doc = _build(run_dir, summary)
        cache.save(run_dir, COLUMNS, stamp, doc)
    index = RunIndex(run_dir, label or str(run_dir), summary, doc["rows"], doc["offsets"])
    index.summary.setdefault("n", len(index.rows))
    index.summary.setdefault("benchmark", doc["benchmark"])
    return index


def _build(run_dir: Path, summary: dict[str, Any]) -> dict[str, Any]:
    """Stream ``traces.jsonl`` once: a row and a byte offset per (task, epoch), last line wins."""
    stored = _stored_scores(run_dir)
    price = (run_config(run_dir).get("options") or {}).get("price")
    bench = None
    benchmark_name = summary.get("benchmark")
    kept: dict[tuple[str, int], tuple[int, dict[str, Any], dict[str, Any]]] = {}
    with open(run_dir / TraceStore.FILENAME, "rb") as fh:
        offset = 0
        for raw in fh:
            start, offset = offset, offset + len(raw)
            try:
                data = orjson.loads(raw)  # 4-5x json.loads: this pass is the viewer's start-up time
            except orjson.JSONDecodeError:
                continue  # a torn line
            if not isinstance(data, dict) or "task_id" not in data:
                continue
            key = episode_key(data)
            benchmark_name = benchmark_name or data.get("benchmark")
            scores = stored.get(key)
            if scores is None:
                bench = bench or _benchmark(data)
                scores = _score(bench, data)
            kept[key] = (start, _row_fields(data, scores, price), scores)
    # summary.json names the benchmark's success score; loading the benchmark registry only to ask
    # costs seconds, and every built-in benchmark calls it "success"
    success_key = summary.get("success_key") or (
        bench.episode_success_key if bench is not None else "success"
    )
    rows, offsets = [], []
    for i, (start, fields, scores) in enumerate(kept.values()):
        offsets.append(start)
        rows.append(
            [
                i,
                fields["task_id"],
                fields["epoch"],
                _outcome(fields["status"], scores, success_key),
                fields["status"],
                _scalar_scores(scores),
                fields["model_calls"],
                fields["parse_errors"],
                fields["tool_calls"],
                fields["tokens"],
                fields["cost_usd"],
                fields["wall_s"],
                fields["instruction"],
            ]
        )
    return {"rows": rows, "offsets": offsets, "benchmark": benchmark_name}


def _benchmark(data: dict[str, Any]) -> Any:
    from restgraph.evals.benchmark import get_benchmark

    try:
        return get_benchmark(str(data.get("benchmark")))
    except KeyError:
        return None


def _score(bench: Any, data: dict[str, Any]) -> dict[str, Any]:
    if bench is None:
        return {}
    from restgraph.evals.results import _score as score

    return score(bench, data)


def _row_fields(data: dict[str, Any], scores: dict[str, Any], price: Any) -> dict[str, Any]:
    usage = data.get("usage") or {}
    tokens_in, tokens_out = int(usage.get("input_tokens", 0) or 0), int(usage.get("output_tokens", 0) or 0)
    parse_errors = sum(
        1 for s in data.get("steps") or [] for c in s.get("model_calls") or [] if c.get("parse_error")
    )
    instruction = str((data.get("task") or {}).get("instruction") or "")
    return {
        "task_id": str(data["task_id"]),
        "epoch": episode_key(data)[1],
        "status": str(data.get("status") or ""),
        "model_calls": usage.get("model_calls", 0),
        "parse_errors": parse_errors,
        "tool_calls": usage.get("tool_calls", 0),
        "tokens": tokens_in + tokens_out,
        "cost_usd": episode_cost(str(data.get("model") or ""), tokens_in, tokens_out, price),
        "wall_s": round(float(data.get("wall_s") or 0.0), 3),
        "instruction": instruction[:200],
    }


def run_card(i: int, index: RunIndex) -> dict[str, Any]:
    s = index.summary
    outcomes = [r[3] for r in index.rows]
    return {
        "id": i,
        "label": index.label,
        "benchmark": s.get("benchmark"),
        "agent": s.get("agent"),
        "model": s.get("model"),
        "n": len(index.rows),
        "errors": outcomes.count("error"),
        "successes": outcomes.count("success"),
        "failures": outcomes.count("failure"),
        "metrics": s.get("metrics", {}),
        "metric_stats": s.get("metric_stats", {}),
        "cost_usd": s.get("cost_usd"),
        "epochs": s.get("epochs"),
    }


def episodes_doc(index: RunIndex) -> dict[str, Any]:
    return {"columns": list(COLUMNS), "rows": index.rows}


def read_trace(index: RunIndex, i: int) -> dict[str, Any]:
    with open(index.run_dir / TraceStore.FILENAME, "rb") as fh:
        fh.seek(index.offsets[i])
        return orjson.loads(fh.readline())


def executed_path(data: dict[str, Any]) -> list[str]:
    """The HTTP calls as the scorer sees them: the matched OpenAPI template, else METHOD path."""
    out = []
    for step in data.get("steps") or []:
        for call in step.get("tool_calls") or []:
            if call.get("kind") == "http":
                out.append(
                    (call.get("extra") or {}).get("template") or f"{call.get('method')} {call.get('path')}"
                )
    return out


def gold_vs_actual(gold: list[str], actual: list[str]) -> list[dict[str, Any]]:
    """Gold steps in order, each with the index of the actual call that matched it (greedy subsequence)."""
    rows, j = [], 0
    for step in gold:
        match = next((k for k in range(j, len(actual)) if actual[k] == step), None)
        rows.append({"gold": step, "matched_call": match})
        if match is not None:
            j = match + 1
    return rows


def file_url(run_id: int, run_dir: Path, path: str | None) -> str | None:
    """A screenshot's URL under ``files/<run>/``, only for files inside the run folder."""
    if not path:
        return None
    candidate = Path(path)
    resolved = (candidate if candidate.is_absolute() else run_dir / candidate).resolve()
    try:
        rel = resolved.relative_to(run_dir.resolve())
    except ValueError:
        return None
    return f"files/{run_id}/{rel.as_posix()}"


def episode_doc(run_id: int, index: RunIndex, i: int) -> dict[str, Any]:
    """One episode in full, shaped for the page (graph path, calls, files, state diff, gold path)."""
    data = reader(str(index.run_dir)).resolve_dict(read_trace(index, i))  # prompts are stored once per run
    row = dict(zip(COLUMNS, index.rows[i], strict=True))
    for step in data.get("steps") or []:
        for call in step.get("tool_calls") or []:
            shot = (call.get("extra") or {}).get("screenshot")
            if shot:
                call["screenshot_url"] = file_url(run_id, index.run_dir, shot)
    gold = list(((data.get("task") or {}).get("gold") or {}).get("gold_path") or [])
    actual = executed_path(data)
    env_state = data.get("env_state") or {}
    return {
        "run": run_id,
        "i": i,
        "row": row,
        "trace": data,
        "graph_path": [s.get("node") for s in data.get("steps") or []],
        "gold_path": gold_vs_actual(gold, actual) if gold else [],
        "actual_path": actual,
        "state_diff": env_state.get("diff") if isinstance(env_state, dict) else None,
        "same_task": [],
        "roles": describe((data.get("extra") or {}).get("roles")),  # RestGPT's role set (evals.role_record)
        "fork": (data.get("extra") or {}).get(
            "fork"
        ),  # a counterfactual fork's source (restgraph.evals.fork)
    }
