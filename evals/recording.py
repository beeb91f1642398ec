"""Collects model and tool calls while an episode runs, and cuts them into ``Step`` records.

The runner installs one ``EpisodeRecorder`` per episode (``set_recorder``): it becomes the
current recorder and a listener of the neutral events of ``restgraph.tools.events`` in that context.
LangGraph copies the context into every node, so the events tools and roles emit (an HTTP
exchange, a program run, a browser step, a parse outcome) reach the right episode without the
lower layers importing the harness. Model calls arrive through ``TraceCallbackHandler`` (a
LangChain callback), so any ``BaseChatModel`` is traced, tokens come from ``usage_metadata`` and
nothing depends on tiktoken. A parse outcome is attached to the model call whose reply carries
its ``message_id``, so concurrent calls of one episode are never confused.
"""

from __future__ import annotations

import contextvars
import hashlib
import json
import time
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler, BaseCallbackManager
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.outputs import LLMResult

from restgraph.tools.baton import queued_seconds
from restgraph.tools.events import (
    BrowserStep,
    EpisodeNote,
    Event,
    HttpExchange,
    ModelParsed,
    ProgramRun,
    add_listener,
    remove_listener,
)
from restgraph.tools.trace_schema import ModelCall, Step, ToolCall, bounded

_current: contextvars.ContextVar[EpisodeRecorder | None] = contextvars.ContextVar(
    "restgraph_recorder", default=None
)


def _message_dict(message: BaseMessage) -> dict[str, Any]:
    content = (
        message.content if isinstance(message.content, str) else json.dumps(message.content, default=str)
    )
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
        self._open: dict[UUID, tuple[float, float, ModelCall]] = {}
        self._step_started = time.perf_counter()
        self.last_model_call: ModelCall | None = None
        #: model calls by the id of the message they produced (where parse outcomes attach), and
        #: outcomes that arrived before their call ended (a callback run late)
        self._by_message: dict[str, ModelCall] = {}
        self._early: dict[str, ModelParsed] = {}
        #: stuck-call detection and per-episode token/cost limits (``restgraph.evals.watchdog``), if any
        self.watch: Any = None
        #: what survives an episode that dies early (timeout, crash): results a benchmark has
        #: produced so far (ShortcutsBench's predictions) and the environment's end state
        self.partial_extra: dict[str, Any] = {}
        self.partial_env_state: dict[str, Any] | None = None

    # -- model calls (from the callback handler) ---------------------------------------------
    def model_started(
        self,
        run_id: UUID,
        messages: list[BaseMessage],
        role: str = "",
        settings: dict[str, Any] | None = None,
    ) -> None:
        dicts = [_message_dict(m) for m in messages]
        digest = hashlib.sha256(json.dumps(dicts, sort_keys=True).encode()).hexdigest()[:16]
        call = ModelCall(
            role=role,
            model=self.model_name,
            prompt_hash=digest,
            messages=dicts if self.keep_messages else None,
        )
        self._open[run_id] = (time.perf_counter(), queued_seconds(), call)
        if self.watch is not None:
            try:
                self.watch.call_started(call, settings, dicts)
            except Exception as exc:  # refused before sending (stuck, over budget, cannot fit)
                self.model_ended(run_id, None, exc)
                raise

    def calls_so_far(self) -> tuple[list[ModelCall], list[ToolCall]]:
        """The model calls that ended and the tool calls made so far, in order (closed steps first)."""
        models = [c for s in self.steps for c in s.model_calls] + self._pending_models
        return models, [c for s in self.steps for c in s.tool_calls] + self._pending_tools

    def open_calls(self) -> list[ModelCall]:
        """Model calls started and not yet ended, in start order (the live display shows them)."""
        return [entry[-1] for entry in list(self._open.values())]

    def open_call_starts(self) -> list[float]:
        """When each open model call started (``time.perf_counter()``), in start order: the live
        display shows how long a call has been running (a CPU model reads a long prompt for minutes)."""
        return [entry[0] for entry in list(self._open.values())]

    def model_ended(
        self, run_id: UUID, response: LLMResult | None, error: BaseException | None = None
    ) -> None:
        started, queued, call = self._open.pop(
            run_id, (time.perf_counter(), queued_seconds(), ModelCall(model=self.model_name))
        )
        # the model's time: not the wait in line for the episode's next turn (tools.baton)
        call.latency_s = round(time.perf_counter() - started - (queued_seconds() - queued), 6)
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
            call.raw_output = gen.text or (
                message.content if message is not None and isinstance(message.content, str) else ""
            )
            if message is not None:
                usage = getattr(message, "usage_metadata", None) or {}
                call.input_tokens = int(usage.get("input_tokens", 0) or 0)
                call.output_tokens = int(usage.get("output_tokens", 0) or 0)
                for tc in getattr(message, "tool_calls", None) or []:
                    call.tool_calls.append({"name": tc["name"], "args": tc["args"]})
                if message.id:
                    self._by_message[message.id] = call
                    early = self._early.pop(message.id, None)
                    if early is not None:
                        self._apply_parse(call, early)
        self._pending_models.append(call)
        self.last_model_call = call
        if self.watch is not None and error is None:
            self.watch.call_ended(call)

    # -- events from restgraph.tools and roles ----------------------------------------------------------
    def on_event(self, event: Event) -> None:
        """The listener ``set_recorder`` registers: turn one ``restgraph.tools.events`` event into trace data."""
        if isinstance(event, ModelParsed):
            self.model_parsed(event)
        elif isinstance(event, EpisodeNote):
            self.partial_extra[event.key] = event.value
        elif (call := tool_call_of(event)) is not None:
            self.tool_called(call)

    def model_parsed(self, event: ModelParsed) -> None:
        """Attach a parse outcome to the model call that produced ``event.message_id``."""
        if not event.message_id:
            return  # a reply without an id cannot be attributed; guessing would misattribute
        call = self._by_message.get(event.message_id)
        if call is None:
            self._early[event.message_id] = event
        else:
            self._apply_parse(call, event)

    def _apply_parse(self, call: ModelCall, event: ModelParsed) -> None:
        _apply_parse(call, event)
        if call.parse_error and self.watch is not None:
            self.watch.parse_failed(call)

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


def _apply_parse(call: ModelCall, event: ModelParsed) -> None:
    if event.parsed is not None:
        call.parsed = event.parsed
    if event.parse_error is not None:
        call.parse_error = event.parse_error[:2000]
    if event.role:
        call.role = event.role


def tool_call_of(event: Event) -> ToolCall | None:
    """The trace record of a tool event (None for events that are not tool calls)."""
    if isinstance(event, HttpExchange):
        return ToolCall(
            kind="http",
            name=event.name,
            method=event.method,
            url=event.url,
            path=event.path,
            params=event.params,
            body=event.body,
            status=event.status,
            response=event.response,
            error=event.error,
            latency_s=event.latency_s,
            extra=dict(event.details),
        )
    if isinstance(event, ProgramRun):
        return ToolCall(
            kind="python",
            name=event.name,
            body=event.code,
            response=event.output,
            error=event.error,
            latency_s=event.latency_s,
            extra=dict(event.details),
        )
    if isinstance(event, BrowserStep):
        return ToolCall(
            kind="browser",
            name=event.action,
            url=event.url,
            params=event.params,
            response=event.observation,
            error=event.error,
            latency_s=event.latency_s,
            extra=dict(event.details),
        )
    return None


def current_recorder() -> EpisodeRecorder | None:
    return _current.get()


@dataclass(frozen=True)
class RecorderToken:
    """What ``set_recorder`` returns; hand it back to ``reset_recorder``."""

    recorder: contextvars.Token[EpisodeRecorder | None]
    listener: contextvars.Token[Any] | None


def set_recorder(recorder: EpisodeRecorder | None) -> RecorderToken:
    """Make ``recorder`` the current one and a listener of ``restgraph.tools.events`` in this context."""
    listener = add_listener(recorder.on_event) if recorder is not None else None
    return RecorderToken(_current.set(recorder), listener)


def reset_recorder(token: RecorderToken) -> None:
    if token.listener is not None:
        remove_listener(token.listener)
    _current.reset(token.recorder)


class TraceCallbackHandler(BaseCallbackHandler):
    """Feeds every chat-model call of an episode into its recorder.

    Synchronous and ``run_inline``: the recorder only appends to in-memory buffers, and LangChain
    calls such a handler directly, where an async handler costs a task and a gather per event (two
    events per model call) and a non-inline sync one a thread hop."""

    #: the recorder's watch ends a stuck or over-budget episode by raising from these callbacks
    raise_error = True
    run_inline = True

    def __init__(self, recorder: EpisodeRecorder):
        self.recorder = recorder

    def on_chat_model_start(
        self,
        serialized: dict[str, Any] | None,
        messages: list[list[BaseMessage]],
        *,
        run_id: UUID,
        tags: list[str] | None = None,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        role = (metadata or {}).get("role") or (metadata or {}).get("langgraph_node", "")
        self.recorder.model_started(
            run_id, messages[0] if messages else [], role=role, settings=kwargs.get("invocation_params")
        )

    def on_llm_end(self, response: LLMResult, *, run_id: UUID, **kwargs: Any) -> None:
        self.recorder.model_ended(run_id, response)

    def on_llm_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        self.recorder.model_ended(run_id, None, error)


def recorded_model(model: BaseChatModel | None, recorder: EpisodeRecorder) -> BaseChatModel | None:
    """The episode's model with the recorder's callback as its own (local) callback.

    Only model calls record anything; a callback in the run config instead would be inherited by
    every runnable of the graph (each node, each branch), and LangChain then builds and notifies a
    callback manager for each of them: a tenth of the harness's time per model call. A copy, so
    a model shared by a custom ``model_factory`` keeps one recorder per episode."""
    if model is None:
        return None
    handler = TraceCallbackHandler(recorder)
    callbacks: Any = (
        [*(model.callbacks or []), handler]
        if not isinstance(model.callbacks, BaseCallbackManager)
        else model.callbacks.copy()
    )
    if isinstance(callbacks, BaseCallbackManager):  # a model built with a callback manager keeps its handlers
        callbacks.add_handler(handler, inherit=False)
    return model.model_copy(update={"callbacks": callbacks})
