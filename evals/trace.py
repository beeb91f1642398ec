"""Trace storage (``traces.jsonl``), plus the trace schema re-exported from ``restgraph.tools.trace_schema``.

The schema (``Task``, ``ModelCall``, ``ToolCall``, ``Step``, ``Trace``...) moved to the lowest
layer so tools and agents can use it without importing the harness; it is re-exported here so
``from restgraph.evals.trace import Trace`` keeps working. What stays here is the harness's part: the
append-only store, which redacts (``restgraph.tools.redact``) every line before it reaches disk.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
from pydantic import BaseModel, Field

from restgraph.evals.prompt_store import PromptStore, pack_refs
from restgraph.tools.redact import redact_document
from restgraph.tools.trace_schema import (
    MAX_BODY_CHARS,
    SCHEMA_VERSION,
    TERMINAL_STATUSES,
    ModelCall,
    Step,
    Task,
    ToolCall,
    Trace,
    Usage,
    bounded,
    now_iso,
)

__all__ = [
    "MAX_BODY_CHARS",
    "SCHEMA_VERSION",
    "TERMINAL_STATUSES",
    "LoadReport",
    "ModelCall",
    "Step",
    "Task",
    "ToolCall",
    "Trace",
    "TraceStore",
    "EncodedTraces",
    "Usage",
    "bounded",
    "encode_traces",
    "epoch_of",
    "latest_per_task",
    "natural_key",
    "now_iso",
]


def epoch_of(trace: Trace) -> int:
    """Which of ``--epochs K`` tries of its task a trace is (0 for a single-epoch run)."""
    return int(trace.extra.get("epoch", 0) or 0)


def latest_per_task(traces: list[Trace]) -> list[Trace]:
    """One trace per (task, epoch) (the last written wins), in task-id order."""
    by_id: dict[tuple[str, int], Trace] = {}
    for trace in traces:
        by_id[(trace.task_id, epoch_of(trace))] = trace
    return [by_id[k] for k in sorted(by_id, key=lambda k: (natural_key(k[0]), k[1]))]


def natural_key(task_id: str) -> tuple:
    """``x/2`` before ``x/10``; numeric and text parts never compared with each other."""
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in task_id.replace("-", "/").split("/"))


#: trace field names that hold a redaction gate word ("token", "gh") but name no secret
PLAIN_KEYS = ("input_tokens", "output_tokens", "in_flight")


class LoadReport(BaseModel):
    """What ``TraceStore.load`` found: the traces, plus any line it had to skip and why."""

    traces: list[Trace]
    skipped: list[str] = Field(default_factory=list)


def _json_line(data: dict[str, Any]) -> str:
    """One compact JSON line: orjson (a tenth of ``json.dumps``'s time on a trace), or ``json`` for
    what orjson refuses (an integer beyond 64 bits). Same JSON values either way; only the spelling
    of some floats differs (``1e16`` for ``1e+16``)."""
    try:
        return orjson.dumps(data).decode() + "\n"
    except (TypeError, orjson.JSONEncodeError):
        return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"


def _dumps(traces: list[Trace]) -> list[dict[str, Any]]:
    return [redact_document(t.model_dump(mode="json"), plain_keys=PLAIN_KEYS) for t in traces]


@dataclass(frozen=True)
class EncodedTraces:
    """Trace lines as ``TraceStore`` writes them, plus the prompt chunks they refer to that the
    encoder had not sent before (the store keeps those it lacks)."""

    lines: str
    chunks: dict[str, str]


def encode_traces(traces: list[Trace], known: set[str]) -> EncodedTraces:
    """Redact, pack and encode ``traces`` exactly as ``append_many`` does, against ``known`` (the
    chunk keys this encoder has already sent; updated): the CPU of writing a trace, done by the
    process that ran the episode so the one writer of a multi-process run only appends bytes."""
    dumps = _dumps(traces)
    chunks = pack_refs(dumps, known)
    known.update(chunks)
    return EncodedTraces("".join(_json_line(d) for d in dumps), chunks)


class TraceStore:
    """Append-only ``traces.jsonl``: one finished episode per line, flushed and fsynced per line.

    A run killed mid-write leaves at most one torn last line; ``load`` skips it and reports it,
    and ``--resume`` then re-runs that episode only.
    """

    FILENAME = "traces.jsonl"

    def __init__(self, run_dir: str | Path):
        self.run_dir = Path(run_dir)
        self.path = self.run_dir / self.FILENAME
        self._lock = threading.Lock()
        #: each distinct prompt chunk once per run (``restgraph.evals.prompt_store``); lines hold hash refs
        self.prompts = PromptStore(self.run_dir)

    def append(self, trace: Trace) -> None:
        self.append_many([trace])

    def append_many(self, traces: list[Trace]) -> None:
        """Append whole lines, then one flush and one fsync for all of them (group commit)."""
        dumps = _dumps(traces)
        with self._lock:
            self.run_dir.mkdir(parents=True, exist_ok=True)
            # their new prompt chunks reach the disk (one write, one fsync) before the lines that need them
            self._write_lines("".join(_json_line(d) for d in self.prompts.pack(dumps)))

    def append_encoded(self, records: list[EncodedTraces]) -> None:
        """Append traces encoded elsewhere (``encode_traces`` in an episode worker process): their
        chunks not stored yet first, then their lines; one fsync each, as ``append_many``."""
        with self._lock:
            self.run_dir.mkdir(parents=True, exist_ok=True)
            chunks: dict[str, str] = {}
            for record in records:
                chunks.update(record.chunks)
            self.prompts.add(chunks)
            self._write_lines("".join(record.lines for record in records))

    def _write_lines(self, lines: str) -> None:
        self._repair_torn_tail()
        with open(self.path, "a", encoding="utf-8") as fh:
            fh.write(lines)
            fh.flush()
            os.fsync(fh.fileno())

    def _repair_torn_tail(self) -> None:
        """Make sure a torn last line (no newline) cannot glue itself to the next record."""
        if not self.path.exists() or self.path.stat().st_size == 0:
            return
        with open(self.path, "rb+") as fh:
            fh.seek(-1, os.SEEK_END)
            if fh.read(1) != b"\n":
                fh.write(b"\n")

    def stream(self, *, prompts: bool = True) -> Iterator[Trace | str]:
        """Each line in order, parsed: a ``Trace``, or for a line that is not one, why it was skipped.

        One trace in memory at a time, so scoring and loaders stay flat in the number of episodes.
        ``prompts=False`` leaves stored calls' ``message_refs`` unresolved (``messages`` None): what
        scoring and ``--resume`` read, without loading the prompt store.
        """
        if not self.path.exists():
            return
        # errors="replace": a kill mid-write can cut a multi-byte character; that torn line must be
        # skipped like any other, not abort the whole load with UnicodeDecodeError.
        with open(self.path, encoding="utf-8", errors="replace") as fh:
            for lineno, line in enumerate(fh, start=1):
                if not line.strip():
                    continue
                try:
                    trace = Trace.model_validate_json(line, context={"stored": True})
                except ValueError as exc:
                    yield f"line {lineno}: {type(exc).__name__}: {str(exc)[:200]}"
                    continue
                yield self.prompts.resolve(trace) if prompts else trace

    def traces(self, *, prompts: bool = True) -> Iterator[Trace]:
        """The readable traces, one at a time (``stream`` without the skipped lines)."""
        return (item for item in self.stream(prompts=prompts) if not isinstance(item, str))

    def load(self, *, prompts: bool = True) -> LoadReport:
        traces: list[Trace] = []
        skipped: list[str] = []
        for item in self.stream(prompts=prompts):
            if isinstance(item, str):
                skipped.append(item)
            else:
                traces.append(item)
        return LoadReport(traces=traces, skipped=skipped)

    def finished_ids(self) -> set[str]:
        return {t.task_id for t in self.stream(prompts=False) if not isinstance(t, str)}
