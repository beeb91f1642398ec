"""The trace schema: the contract between the agent side and the evaluation side.

A ``Trace`` records one finished episode. Scorers read traces (never models), so
``restgraph score DIR`` can re-score a run with no model and no network, the way
inspect_ai re-scores its logs. Every persisted object here is a pydantic model.

It lives in ``tools`` (the lowest layer) so every layer may import it (a scripted policy reads a
``Task``) without importing the harness; ``restgraph.evals.trace`` re-exports it next to ``TraceStore``,
which redacts (``restgraph.tools.redact``) each line before it reaches disk.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationInfo, model_validator

#: 2: each call's messages are stored as ``message_refs`` into the run's prompt store
#: (``restgraph.evals.prompt_store``); version 1 lines hold ``messages`` inline and still load
SCHEMA_VERSION = 2
#: Response bodies longer than this are cut in traces (the full body is never needed to score).
MAX_BODY_CHARS = 20_000

TERMINAL_STATUSES = ("finished", "budget_exhausted")


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def bounded(text: str | None, limit: int = MAX_BODY_CHARS) -> str | None:
    """Cut ``text`` to ``limit`` characters, saying how much was dropped."""
    if text is None or len(text) <= limit:
        return text
    return text[:limit] + f"...[truncated {len(text) - limit} chars]"


class Task(BaseModel):
    """One episode's input. ``gold`` holds whatever the benchmark's scorer needs."""

    id: str
    benchmark: str
    instruction: str
    gold: dict[str, Any] = Field(default_factory=dict)
    metadata: dict[str, Any] = Field(default_factory=dict)


class ModelCall(BaseModel):
    """One chat-model call: what went in (as a hash plus, optionally, the messages), what came out."""

    role: str = ""
    model: str = ""
    prompt_hash: str = ""
    messages: list[dict[str, Any]] | None = None
    #: the stored form of ``messages`` (schema 2): each message with ``content_refs`` (chunk hashes
    #: into the run's ``prompts.jsonl.gz``) in place of ``content``; loading resolves it back
    message_refs: list[dict[str, Any]] | None = None
    raw_output: str = ""
    tool_calls: list[dict[str, Any]] = Field(default_factory=list)
    parsed: Any = None
    parse_error: str | None = None
    error: str | None = None
    #: tries the retry layer made for this call (1 = no retry), and the errors it retried past
    attempts: int = 1
    retried_errors: list[str] = Field(default_factory=list)
    input_tokens: int = 0
    output_tokens: int = 0
    latency_s: float = 0.0
    started_at: str = Field(default_factory=now_iso)


class ToolCall(BaseModel):
    """One action on the environment: an HTTP request, a sandboxed program, a browser action."""

    kind: Literal["http", "python", "browser", "other"] = "http"
    name: str = ""
    method: str | None = None
    url: str | None = None
    path: str | None = None
    params: dict[str, Any] | None = None
    body: Any = None
    status: int | None = None
    response: str | None = None
    error: str | None = None
    latency_s: float = 0.0
    started_at: str = Field(default_factory=now_iso)
    extra: dict[str, Any] = Field(default_factory=dict)


class Step(BaseModel):
    """One graph node execution, with the model and tool calls it made (smolagents-style step record)."""

    index: int
    node: str
    model_calls: list[ModelCall] = Field(default_factory=list)
    tool_calls: list[ToolCall] = Field(default_factory=list)
    update: dict[str, Any] | None = None
    latency_s: float = 0.0
    ended_at: str = Field(default_factory=now_iso)

    @property
    def input_tokens(self) -> int:
        return sum(c.input_tokens for c in self.model_calls)

    @property
    def output_tokens(self) -> int:
        return sum(c.output_tokens for c in self.model_calls)


class Usage(BaseModel):
    model_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    tool_calls: int = 0
    model_latency_s: float = 0.0


class Trace(BaseModel):
    """A finished episode. ``status`` is ``finished``, ``budget_exhausted`` or ``error:<kind>``."""

    schema_version: int = SCHEMA_VERSION
    run_id: str = ""
    task_id: str
    task: Task
    benchmark: str
    agent: str
    model: str
    seed: int | None = None
    config: dict[str, Any] = Field(default_factory=dict)
    steps: list[Step] = Field(default_factory=list)
    final_answer: str | None = None
    status: str = "finished"
    error: str | None = None
    env_state: dict[str, Any] | None = None
    usage: Usage = Field(default_factory=Usage)
    started_at: str = Field(default_factory=now_iso)
    ended_at: str = Field(default_factory=now_iso)
    wall_s: float = 0.0
    extra: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _stored_lines_state_their_status(cls, data: Any, info: ValidationInfo) -> Any:
        """A stored line without ``status`` is invalid (it must not count as ``finished``)."""
        if (info.context or {}).get("stored") and isinstance(data, dict) and "status" not in data:
            raise ValueError("the trace line has no 'status'")
        return data

    def model_calls(self) -> Iterator[ModelCall]:
        for step in self.steps:
            yield from step.model_calls

    def tool_calls(self, kind: str | None = None) -> Iterator[ToolCall]:
        for step in self.steps:
            for call in step.tool_calls:
                if kind is None or call.kind == kind:
                    yield call

    def http_calls(self) -> list[ToolCall]:
        return list(self.tool_calls("http"))

    def recompute_usage(self) -> None:
        calls = list(self.model_calls())
        self.usage = Usage(
            model_calls=len(calls),
            input_tokens=sum(c.input_tokens for c in calls),
            output_tokens=sum(c.output_tokens for c in calls),
            tool_calls=sum(len(s.tool_calls) for s in self.steps),
            model_latency_s=round(sum(c.latency_s for c in calls), 6),
        )
