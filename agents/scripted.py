"""Deterministic chat models for tests and benchmarks (``scripted:<name>?opt=value``).

A scripted model answers through a *policy*: a function from the prompt messages to the reply
text. Policies are registered by name; a benchmark can register a task-aware one (an oracle that
knows the gold action) because factories receive the episode's ``Task``. Every scripted model
- reports ``usage_metadata`` in p50k_base tokens (text-davinci-003's tokenizer, the one RestBench
  runs already load), so a scripted run's token figures are tokens, comparable with a real model's;
  where the tokenizer table cannot be had (offline, no data folder) the counts fall back to
  whitespace-separated words and each reply says so (``response_metadata['token_count']``);
- can sleep a fixed simulated latency per call (``?latency=0.2``);
- supports ``with_structured_output(include_raw=True)`` by parsing its reply as JSON, unless
  created with ``?structured=0`` to exercise the plain-text protocol of the roles;
- raises real ``openai`` errors when faults are injected, so the retry layer sees exactly what it
  would see from a server.
"""

from __future__ import annotations

import asyncio
import functools
import json
import pkgutil
import random
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import httpx
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable, RunnableLambda
from pydantic import BaseModel, ConfigDict, Field

from restgraph.tools.plugins import Registry, import_all
from restgraph.tools.trace_schema import Task

Policy = Callable[[list[BaseMessage]], "str | AIMessage"]
PolicyFactory = Callable[[Task | None, dict[str, str]], Policy]


def _adopt(name: str, obj: Any) -> PolicyFactory | None:
    """An entry point naming a policy factory registers it under the entry point's name."""
    return obj if callable(obj) else None


def _load_builtins() -> None:
    from restgraph import agents

    import_all(m.name for m in pkgutil.walk_packages(agents.__path__, prefix="restgraph.agents."))


#: ``scripted:<name>`` policies: the ``restgraph.scripted`` entry points plus in-process registrations
_POLICIES: Registry[PolicyFactory] = Registry(
    "restgraph.scripted", "scripted model", adopt=_adopt, builtins=_load_builtins
)


def register_scripted(name: str, factory: PolicyFactory) -> None:
    """Register ``scripted:<name>``. ``factory(task, params)`` returns the reply policy."""
    _POLICIES.register(name, factory)


def scripted_names() -> list[str]:
    return _POLICIES.names()


def get_policy_factory(name: str) -> PolicyFactory:
    """The factory of ``scripted:<name>``, loading its entry point; ``KeyError`` names the known ones."""
    return _POLICIES.get(name)


#: how a scripted reply's tokens were counted, in ``response_metadata["token_count"]``
TOKENS_EXACT = "p50k_base"
TOKENS_ESTIMATE = "whitespace-words (estimate: the p50k_base table was unavailable)"


@functools.cache
def _encoder() -> Any:
    """p50k_base, or None when its table cannot be had (offline without a data folder or cache)."""
    from restgraph.tools.datafiles import DatasetUnavailable
    from restgraph.tools.tokenizer import p50k_base

    try:
        return p50k_base()
    except DatasetUnavailable:
        return None


def count_tokens(text: str) -> int:
    """Tokens of ``text`` as text-davinci-003 counts them (whitespace words if the table is missing)."""
    encoder = _encoder()
    return len(encoder.encode_ordinary(text)) if encoder is not None else len(text.split())


def token_count_kind() -> str:
    return TOKENS_EXACT if _encoder() is not None else TOKENS_ESTIMATE


def _prompt_text(messages: Sequence[BaseMessage]) -> str:
    return "\n".join(m.content if isinstance(m.content, str) else json.dumps(m.content) for m in messages)


class ScriptedChatModel(BaseChatModel):
    """A chat model whose replies come from a policy function."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    policy: Any = Field(exclude=True)
    name_: str = "scripted"
    latency: float = 0.0
    structured: bool = True

    @functools.cached_property
    def _serialized(self) -> dict[str, Any]:
        """What callbacks get as the model's description. LangChain's default serialises the whole
        model (a repr of every field, ~3 ms), per model, i.e. per episode."""
        return {
            "lc": 1,
            "type": "not_implemented",
            "id": ["agents", "scripted", type(self).__name__],
            "name": self.name_,
        }

    @property
    def _llm_type(self) -> str:
        return f"scripted:{self.name_}"

    def _reply(self, messages: list[BaseMessage], stop: list[str] | None) -> ChatResult:
        reply = self.policy(messages)
        # a copy with no id: a policy may hand back one AIMessage object many times, and each call's
        # reply needs its own id (parse outcomes attach to the call by message id)
        message = (
            reply.model_copy(update={"id": None})
            if isinstance(reply, AIMessage)
            else AIMessage(content=str(reply))
        )
        text = message.content if isinstance(message.content, str) else json.dumps(message.content)
        if stop:
            for marker in stop:
                if marker in text:
                    text = text[: text.index(marker)]
            message = AIMessage(content=text, tool_calls=message.tool_calls)
        input_tokens, output_tokens = count_tokens(_prompt_text(messages)), count_tokens(text)
        message.response_metadata = {**message.response_metadata, "token_count": token_count_kind()}
        message.usage_metadata = {
            "input_tokens": input_tokens,
            "output_tokens": output_tokens,
            "total_tokens": input_tokens + output_tokens,
        }
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        if self.latency:
            time.sleep(self.latency)
        return self._reply(messages, stop)

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        if self.latency:
            await asyncio.sleep(self.latency)
        return self._reply(messages, stop)

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Runnable[LanguageModelInput, AIMessage]:
        """Tools are offered as an OpenAI-style schema (so traces show what a real model would
        get); the policy decides the reply, tool calls included."""
        from langchain_core.utils.function_calling import convert_to_openai_tool

        return self.bind(
            tools=[
                t if isinstance(t, dict) and t.get("type") == "function" else convert_to_openai_tool(t)
                for t in tools
            ],
            **kwargs,
        )

    def with_structured_output(
        self, schema: Any, *, include_raw: bool = False, **kwargs: Any
    ) -> Runnable[LanguageModelInput, Any]:
        if not self.structured:
            raise NotImplementedError(
                "this scripted model was created with structured=0 (plain-text protocol)"
            )

        def parse(message: AIMessage) -> Any:
            from restgraph.agents.parsing import extract_json

            is_model = isinstance(schema, type) and issubclass(schema, BaseModel)
            wants_object = is_model or (isinstance(schema, dict) and schema.get("type", "object") == "object")
            data = extract_json(
                message.content if isinstance(message.content, str) else "",
                want=dict if wants_object else None,
            )
            if is_model:
                return schema.model_validate(data)
            return data

        def run(message: AIMessage) -> Any:
            if not include_raw:
                return parse(message)
            try:
                return {"raw": message, "parsed": parse(message), "parsing_error": None}
            except Exception as exc:  # a malformed reply is data, not a crash
                return {"raw": message, "parsed": None, "parsing_error": exc}

        return self | RunnableLambda(run)


# -- fault injection ----------------------------------------------------------------------------
def _fault(kind: str) -> Exception:
    import openai  # the provider's own error classes; only fault-injecting runs pay for the import

    request = httpx.Request("POST", "http://scripted.invalid/v1/chat/completions")
    if kind == "rate_limit":
        # (openai 2.x annotates its errors with httpx2 types; the httpx objects behave the same)
        return openai.RateLimitError(
            "scripted rate limit",
            response=httpx.Response(429, request=request),  # type: ignore[arg-type]
            body=None,
        )
    if kind == "server":
        return openai.InternalServerError(
            "scripted server error",
            response=httpx.Response(500, request=request),  # type: ignore[arg-type]
            body=None,
        )
    return openai.APITimeoutError(request=request)  # type: ignore[arg-type]


FAULT_KINDS = ("rate_limit", "server", "timeout", "malformed")


def faulty(policy: Policy, rate: float, seed: int, kinds: Sequence[str] = FAULT_KINDS) -> Policy:
    """Wrap a policy so that a seeded fraction ``rate`` of calls fail or return garbage."""
    rng = random.Random(seed)

    def wrapped(messages: list[BaseMessage]) -> str | AIMessage:
        if rng.random() < rate:
            kind = rng.choice(list(kinds))
            if kind == "malformed":
                return "}}{{ not json, no Final Answer, <|garbage|> ```"
            raise _fault(kind)
        return policy(messages)

    return wrapped


# -- built-in policies --------------------------------------------------------------------------
def replay_policy(replies: Sequence[str | AIMessage], *, cycle: bool = False) -> Policy:
    """Reply with the given texts in order; past the end, repeat the last one (or cycle)."""
    if not replies:
        raise ValueError("scripted:replay needs at least one reply")
    state: dict[str, Iterator[int]] = {}

    def policy(messages: list[BaseMessage]) -> str | AIMessage:
        index = next(state.setdefault("i", iter(range(10**9))))
        if cycle:
            return replies[index % len(replies)]
        return replies[min(index, len(replies) - 1)]

    return policy


class ReplayExhausted(RuntimeError):
    """A replayed model was asked for more outputs than were recorded."""


def strict_replay_policy(replies: Sequence[str], source: str) -> Policy:
    """Reply with the recorded outputs in order; one call too many is an error, never an invented reply."""
    position = iter(range(10**9))

    def policy(messages: list[BaseMessage]) -> str:
        index = next(position)
        if index >= len(replies):
            raise ReplayExhausted(
                f"{source}: all {len(replies)} recorded outputs were used; the graph asked for output {index + 1}"
            )
        return replies[index]

    return policy


def replies_from_file(path: str, task: Task | None) -> list[str]:
    """``file=PATH``: a JSON list of outputs, or an object mapping task id to such a list."""
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    if isinstance(data, dict):
        if task is None or task.id not in data:
            raise KeyError(
                f"{path} has no outputs for task {task.id if task else '(none)'!r}; it maps {len(data)} task ids"
            )
        data = data[task.id]
    if not isinstance(data, list) or not all(isinstance(r, str) for r in data):
        raise ValueError(f"{path}: expected a list of strings (or an object of such lists by task id)")
    return data


def _run_outputs(traces: str, mtime: float) -> dict[str, list[str]]:
    """task id -> the model outputs of that episode, in call order (calls that failed are skipped)."""
    out: dict[str, list[str]] = {}
    with open(traces, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            try:
                trace = json.loads(line)
            except json.JSONDecodeError:
                continue  # a torn last line of a killed run
            calls = [c for step in trace.get("steps") or [] for c in step.get("model_calls") or []]
            out[str(trace.get("task_id"))] = [
                str(c.get("raw_output") or "") for c in calls if not c.get("error")
            ]
    return out


_RUNS: dict[tuple[str, float], dict[str, list[str]]] = {}


def run_replay_policy(run_dir: str, task: Task | None) -> Policy:
    """``replay:RUN_DIR``: the task's model outputs recorded in ``RUN_DIR/traces.jsonl``, in order."""
    import os

    traces = os.path.join(run_dir, "traces.jsonl")
    if not os.path.isfile(traces):
        raise FileNotFoundError(
            f"replay:{run_dir}: no traces.jsonl there (give the folder of an earlier run)"
        )
    key = (traces, os.path.getmtime(traces))
    if key not in _RUNS:
        _RUNS.clear()
        _RUNS[key] = _run_outputs(*key)
    outputs = _RUNS[key]
    if task is None or task.id not in outputs:
        raise KeyError(f"replay:{run_dir} has no episode for task {task.id if task else '(none)'!r}")
    return strict_replay_policy(outputs[task.id], f"replay:{run_dir} task {task.id}")


def _replay_factory(task: Task | None, params: dict[str, str]) -> Policy:
    if "file" in params:
        return strict_replay_policy(replies_from_file(params["file"], task), params["file"])
    replies = (
        json.loads(params["replies"])
        if "replies" in params
        else [params.get("text", "Final Answer: I don't know.")]
    )
    return replay_policy(replies, cycle=params.get("cycle") in ("1", "true"))


def _constant_factory(task: Task | None, params: dict[str, str]) -> Policy:
    text = params.get("text", "I don't know.")
    return lambda messages: text


def _echo_factory(task: Task | None, params: dict[str, str]) -> Policy:
    return lambda messages: messages[-1].content if messages and isinstance(messages[-1].content, str) else ""


def _garbage_factory(task: Task | None, params: dict[str, str]) -> Policy:
    return lambda messages: "}}{{ <|garbage|> ``` not json"


register_scripted("replay", _replay_factory)
register_scripted("constant", _constant_factory)
register_scripted("echo", _echo_factory)
register_scripted("garbage", _garbage_factory)
