"""Bounded retries with exponential backoff for any chat model.

Retries live *inside* the model rather than in a ``Runnable.with_retry`` wrapper, so the result is
still a ``BaseChatModel``: ``with_structured_output``, ``bind`` and callbacks keep working, and
every role gets retries for free. Two compositions, both around the same retry loop:

- ``retrying_class(cls, policy)``: a subclass of a class we instantiate ourselves (the scripted
  models, ``ChatOpenAI``, the embedded llama.cpp client) whose generation calls retry;
- ``with_retries(model, policy)``: an instance somebody else built (``init_chat_model``) wrapped in
  ``RetryingChatModel``, which delegates generation to it and retries; the instance is not
  modified (its class used to be swapped in place).

What is retried: rate limits (429), server errors (5xx), timeouts and dropped connections.
Everything else (bad request, auth) fails at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

import httpx
from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatResult
from langchain_core.runnables import Runnable, RunnableBinding, RunnableParallel, RunnableSequence
from langchain_core.runnables.fallbacks import RunnableWithFallbacks
from langchain_core.runnables.passthrough import RunnableAssign
from pydantic import ConfigDict, Field

from restgraph.agents.connection_limit import request_slot
from restgraph.tools.baton import io_wait


@dataclass(frozen=True)
class RetryPolicy:
    attempts: int = 5
    initial_s: float = 0.5
    max_s: float = 20.0


def is_retryable(exc: BaseException) -> bool:
    # an openai error exists only once something imported openai: no need to import it (0.3 s) here
    openai = sys.modules.get("openai")
    if openai is not None and isinstance(
        exc,
        openai.RateLimitError
        | openai.APITimeoutError
        | openai.APIConnectionError
        | openai.InternalServerError,
    ):
        return True
    if openai is not None and isinstance(exc, openai.APIStatusError):
        return exc.status_code == 429 or exc.status_code >= 500
    return isinstance(
        exc,
        httpx.TimeoutException | httpx.TransportError | asyncio.TimeoutError | TimeoutError | ConnectionError,
    )


def wait_s(policy: RetryPolicy, attempt: int) -> float:
    """Seconds to wait after failed try number ``attempt`` (1-based): exponential from
    ``initial_s``, capped at ``max_s``, plus up to ``initial_s`` of jitter (tenacity's
    ``wait_exponential + wait_random``, which this loop replaced)."""
    if policy.initial_s <= 0:
        return 0.0
    return min(policy.initial_s * 2 ** (attempt - 1), policy.max_s) + random.uniform(0, policy.initial_s)


def _give_up(policy: RetryPolicy, attempt: int, exc: BaseException, failures: list[str]) -> bool:
    """Note failed try ``attempt``; True (and the tries marked on ``exc``) when it is the last."""
    if isinstance(exc, Exception):  # the trace shows the retries, not only the last outcome
        failures.append(f"{type(exc).__name__}: {exc}"[:300])
    if attempt >= policy.attempts or not isinstance(exc, Exception) or not is_retryable(exc):
        _mark_attempts(exc, failures)
        return True
    return False


# A plain loop, not tenacity: an ``AsyncRetrying`` per call (its iterator, attempt objects, its
# predicates' coroutine checks) cost about a tenth of a zero-latency model call, on every call,
# although nearly all calls succeed at once.
def generate_with_retries(policy: RetryPolicy, generate: Callable[[], ChatResult]) -> ChatResult:
    """``generate()`` under ``policy``; the result (or the error) says how many tries it took."""
    failures: list[str] = []
    attempt = 1
    while True:
        try:
            return _with_attempts(generate(), attempt, failures)
        except BaseException as exc:
            if _give_up(policy, attempt, exc, failures):
                raise
        time.sleep(wait_s(policy, attempt))
        attempt += 1


async def agenerate_with_retries(
    policy: RetryPolicy, generate: Callable[[], Awaitable[ChatResult]], model: Any = None
) -> ChatResult:
    """The async twin; each attempt holds one of ``model``'s endpoint slots (``--max-connections``),
    and hands the episode's turn to run CPU work to the next episode while it waits (``restgraph.tools.baton``)."""
    failures: list[str] = []
    attempt = 1
    while True:
        try:
            async with io_wait(), request_slot(model):  # other episodes run meanwhile (tools.baton)
                result = await generate()
            return _with_attempts(result, attempt, failures)
        except BaseException as exc:
            if _give_up(policy, attempt, exc, failures):
                raise
        async with io_wait():
            await asyncio.sleep(wait_s(policy, attempt))
        attempt += 1


class RetryMixin:
    """Put before a ``BaseChatModel`` subclass in the bases to retry its generation calls."""

    retry_policy: ClassVar[RetryPolicy] = RetryPolicy()

    def _generate(self, *args: Any, **kwargs: Any) -> ChatResult:
        return generate_with_retries(
            self.retry_policy,
            lambda: super(RetryMixin, self)._generate(*args, **kwargs),  # type: ignore[misc]
        )

    async def _agenerate(self, *args: Any, **kwargs: Any) -> ChatResult:
        return await agenerate_with_retries(
            self.retry_policy,
            lambda: super(RetryMixin, self)._agenerate(*args, **kwargs),  # type: ignore[misc]
            self,
        )


def _mark_attempts(exc: BaseException, failures: list[str]) -> None:
    with contextlib.suppress(AttributeError, TypeError):
        exc.restgraph_attempts = len(failures)  # type: ignore[attr-defined]
        exc.restgraph_retried_errors = failures[:-1]  # type: ignore[attr-defined]


def _with_attempts(result: ChatResult, attempts: int, failures: list[str] | None = None) -> ChatResult:
    """Put the attempt count (and the errors retried past) where the trace callback reads them."""
    result.llm_output = {
        **(result.llm_output or {}),
        "attempts": attempts,
        "retried_errors": list(failures or []),
    }
    return result


_CLASS_CACHE: dict[tuple[type, RetryPolicy], type] = {}
M = TypeVar("M", bound=BaseChatModel)


def retrying_class(cls: type[M], policy: RetryPolicy) -> type[M]:
    """A subclass of ``cls`` whose generation calls retry under ``policy`` (cached per pair)."""
    if issubclass(cls, RetryMixin) and cls.__module__ == __name__:
        cls = cls.__bases__[1]
    key = (cls, policy)
    if key not in _CLASS_CACHE:
        _CLASS_CACHE[key] = type(
            f"Retrying{cls.__name__}",
            (RetryMixin, cls),
            {
                "retry_policy": policy,
                "__module__": __name__,
                "__annotations__": {"retry_policy": ClassVar[RetryPolicy]},
            },
        )
    return _CLASS_CACHE[key]


class RetryingChatModel(BaseChatModel):
    """``inner`` with bounded retries, by composition: generation is delegated to ``inner`` (under
    this model's run, so one call is traced once) inside the retry loop. Tool binding and
    structured output are ``inner``'s own, re-pointed at this model, so a provider's structured
    output method (JSON schema, tool calling...) is kept and still retried."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    inner: BaseChatModel
    policy: RetryPolicy = Field(default_factory=RetryPolicy)

    @property
    def _llm_type(self) -> str:
        return self.inner._llm_type

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {**self.inner._identifying_params, "retry_attempts": self.policy.attempts}

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return generate_with_retries(
            self.policy, lambda: self.inner._generate(messages, stop=stop, run_manager=run_manager, **kwargs)
        )

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return await agenerate_with_retries(
            self.policy,
            lambda: self.inner._agenerate(messages, stop=stop, run_manager=run_manager, **kwargs),
            self.inner,
        )

    def bind_tools(self, tools: Any, **kwargs: Any) -> Runnable[LanguageModelInput, AIMessage]:
        return repoint(self.inner.bind_tools(tools, **kwargs), self.inner, self)

    def with_structured_output(self, schema: Any, **kwargs: Any) -> Runnable[LanguageModelInput, Any]:
        return repoint(self.inner.with_structured_output(schema, **kwargs), self.inner, self)


def repoint(runnable: Any, old: BaseChatModel, new: BaseChatModel) -> Any:
    """``runnable`` with every use of the model ``old`` replaced by ``new`` (LangChain builds
    tool binding and structured output from bindings, sequences and maps around the model)."""
    if runnable is old:
        return new
    if isinstance(runnable, RunnableBinding):
        return runnable.model_copy(update={"bound": repoint(runnable.bound, old, new)})
    if isinstance(runnable, RunnableSequence):
        return RunnableSequence(*(repoint(step, old, new) for step in runnable.steps), name=runnable.name)
    if isinstance(runnable, RunnableParallel):
        return RunnableParallel({key: repoint(step, old, new) for key, step in runnable.steps__.items()})
    if isinstance(runnable, RunnableAssign):
        return runnable.model_copy(update={"mapper": repoint(runnable.mapper, old, new)})
    if isinstance(runnable, RunnableWithFallbacks):
        return runnable.model_copy(
            update={
                "runnable": repoint(runnable.runnable, old, new),
                "fallbacks": [repoint(f, old, new) for f in runnable.fallbacks],
            }
        )
    return runnable


def with_retries(model: BaseChatModel, policy: RetryPolicy) -> BaseChatModel:
    """An existing model instance with retries (``RetryingChatModel``); the instance is unchanged."""
    return RetryingChatModel(inner=model, policy=policy)
