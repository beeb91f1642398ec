"""Collects model and tool calls while an episode runs, and cuts them into ``Step`` records.

The runner installs one ``EpisodeRecorder`` per episode in a context variable; LangGraph copies
the context into every node, so tools (``record_tool_call``) and roles
(``annotate_model_call``) reach the right episode without being handed anything. Model calls
arrive through ``TraceCallbackHandler`` (a LangChain callback), so any ``BaseChatModel`` is
traced, tokens come from ``usage_metadata`` and nothing depends on tiktoken.
"""

from __future__ import annotations

import contextvars
import hashlib
import json
import time
from typing import Any
from uuid import UUID

from langchain_core.callbacks import AsyncCallbackHandler
from langchain_core.messages import BaseMessage
from langchain_core.outputs import LLMResult

from evals.trace import ModelCall, Step, ToolCall, bounded

_current: contextvars.ContextVar[EpisodeRecorder | None] = contextvars.ContextVar("restgraph_recorder", default=None)


def _message_dict(message: BaseMessage) -> dict[str, Any]:
    content = message.content if isinstance(message.content, str) else json.dumps(message.content, default=str)
    out: dict[str, Any] = {"type": message.type, "content": content}
    tool_calls = getattr(message, "tool_calls", None)
    if tool_calls:
        out["tool_calls"] = [{"name": c["name"], "args": c["args"]} for c in tool_calls]
    return out


class EpisodeRecorder:
    """Mutable buffer of one episode's calls. Not shared across episodes."""

    def __init__(self, *, keep_messages: bool = True, model_name: str = ""):
        self.keep_messages = keep_messages
        self.model_name = model_name
        self.steps: list[Step] = []
        self._pending_models: list[ModelCall] = []
        self._pending_tools: list[ToolCall] = []
        self._open: dict[UUID, tuple[float, ModelCall]] = {}
        self._step_started = time.perf_counter()
        self.last_model_call: ModelCall | None = None
        #: what survives an episode that dies early (timeout, crash): results a benchmark has
        #: produced so far (ShortcutsBench's predictions) and the environment's end state
        self.partial_extra: dict[str, Any] = {}
        self.partial_env_state: dict[str, Any] | None = None

    # -- model calls (from the callback handler) ---------------------------------------------
    def model_started(self, run_id: UUID, messages: list[BaseMessage], role: str = "") -> None:
        dicts = [_message_dict(m) for m in messages]
        digest = hashlib.sha256(json.dumps(dicts, sort_keys=True).encode()).hexdigest()[:16]
        call = ModelCall(role=role, model=self.model_name, prompt_hash=digest, messages=dicts if self.keep_messages else None)
        self._open[run_id] = (time.perf_counter(), call)

    def model_ended(self, run_id: UUID, response: LLMResult | None, error: BaseException | None = None) -> None:
        started, call = self._open.pop(run_id, (time.perf_counter(), ModelCall(model=self.model_name)))
        call.latency_s = round(time.perf_counter() - started, 6)
        if error is not None:
            call.error = f"{type(error).__name__}: {error}"[:2000]
            call.attempts = max(1, int(getattr(error, "restgraph_attempts", 1) or 1))
            call.retried_errors = list(getattr(error, "restgraph_retried_errors", []) or [])
        llm_output = (response.llm_output if response is not None else None) or {}
        if "attempts" in llm_output:
            call.attempts = int(llm_output["attempts"])
            call.retried_errors = [str(e) for e in llm_output.get("retried_errors") or []]
        if response is not None and response.generations and response.generations[0]:
            gen = response.generations[0][0]
            message = getattr(gen, "message", None)
            call.raw_output = gen.text or (message.content if message is not None and isinstance(message.content, str) else "")
            if message is not None:
                usage = getattr(message, "usage_metadata", None) or {}
                call.input_tokens = int(usage.get("input_tokens", 0) or 0)
                call.output_tokens = int(usage.get("output_tokens", 0) or 0)
                for tc in getattr(message, "tool_calls", None) or []:
                    call.tool_calls.append({"name": tc["name"], "args": tc["args"]})
        self._pending_models.append(call)
        self.last_model_call = call

    def annotate_model_call(self, *, parsed: Any = None, parse_error: str | None = None, role: str | None = None) -> None:
        """Let a role attach what it made of the last model output (or why it could not parse it)."""
        call = self.last_model_call
        if call is None:
            return
        if parsed is not None:
            call.parsed = parsed
        if parse_error is not None:
            call.parse_error = parse_error[:2000]
        if role:
            call.role = role

    # -- tool calls ---------------------------------------------------------------------------
    def tool_called(self, call: ToolCall) -> None:
        call.response = bounded(call.response)
        self._pending_tools.append(call)

    # -- steps ----------------------------------------------------------------------------------
    def close_step(self, node: str, update: dict[str, Any] | None = None) -> Step:
        now = time.perf_counter()
        step = Step(
            index=len(self.steps),
            node=node,
            model_calls=self._pending_models,
            tool_calls=self._pending_tools,
            update=update,
            latency_s=round(now - self._step_started, 6),
        )
        for call in step.model_calls:
            if not call.role:
                call.role = node
        self._pending_models, self._pending_tools = [], []
        self._step_started = now
        self.steps.append(step)
        return step

    def flush(self, node: str = "(unfinished)") -> None:
        """Close whatever was recorded after the last node finished (an error or a timeout)."""
        if self._pending_models or self._pending_tools or self._open:
            for run_id in list(self._open):
                self.model_ended(run_id, None, TimeoutError("call did not finish"))
            self.close_step(node)


def current_recorder() -> EpisodeRecorder | None:
    return _current.get()


def set_recorder(recorder: EpisodeRecorder | None) -> contextvars.Token:
    return _current.set(recorder)


def reset_recorder(token: contextvars.Token) -> None:
    _current.reset(token)


def record_tool_call(call: ToolCall) -> None:
    """Called by tools; a no-op outside an episode (e.g. in a notebook poking a sandbox)."""
    recorder = _current.get()
    if recorder is not None:
        recorder.tool_called(call)


def annotate_model_call(*, parsed: Any = None, parse_error: str | None = None, role: str | None = None) -> None:
    recorder = _current.get()
    if recorder is not None:
        recorder.annotate_model_call(parsed=parsed, parse_error=parse_error, role=role)


class TraceCallbackHandler(AsyncCallbackHandler):
    """Feeds every chat-model call of an episode into its recorder."""

    def __init__(self, recorder: EpisodeRecorder):
        self.recorder = recorder

    async def on_chat_model_start(self, serialized: dict[str, Any] | None, messages: list[list[BaseMessage]], *, run_id: UUID, tags: list[str] | None = None, metadata: dict[str, Any] | None = None, **kwargs: Any) -> None:
        role = (metadata or {}).get("role") or (metadata or {}).get("langgraph_node", "")
        self.recorder.model_started(run_id, messages[0] if messages else [], role=role)

    async def on_llm_end(self, response: LLMResult, *, run_id: UUID, **kwargs: Any) -> None:
        self.recorder.model_ended(run_id, response)

    async def on_llm_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        self.recorder.model_ended(run_id, None, error)
