"""Bounded retries with exponential backoff for any chat model (tenacity).

Retries live *inside* the model (a mixin over ``_generate``/``_agenerate``) rather than in a
``with_retry`` wrapper, so the result is still a ``BaseChatModel``: ``with_structured_output``,
``bind`` and callbacks keep working, and every role gets retries for free. What is retried:
rate limits (429), server errors (5xx), timeouts and dropped connections. Everything else
(bad request, auth) fails at once.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

import httpx
import openai
from langchain_core.language_models import BaseChatModel
from langchain_core.outputs import ChatResult
from tenacity import (
    AsyncRetrying,
    Retrying,
    retry_if_exception,
    stop_after_attempt,
    wait_exponential,
    wait_random,
)


@dataclass(frozen=True)
class RetryPolicy:
    attempts: int = 5
    initial_s: float = 0.5
    max_s: float = 20.0


def is_retryable(exc: BaseException) -> bool:
    if isinstance(exc, openai.RateLimitError | openai.APITimeoutError | openai.APIConnectionError | openai.InternalServerError):
        return True
    if isinstance(exc, openai.APIStatusError):
        return exc.status_code == 429 or exc.status_code >= 500
    return isinstance(exc, httpx.TimeoutException | httpx.TransportError | asyncio.TimeoutError | TimeoutError | ConnectionError)


class RetryMixin:
    """Put before a ``BaseChatModel`` subclass in the bases to retry its generation calls."""

    retry_policy: ClassVar[RetryPolicy] = RetryPolicy()

    def _retrying_kwargs(self) -> dict[str, Any]:
        p = self.retry_policy
        return {
            "stop": stop_after_attempt(p.attempts),
            "wait": (wait_exponential(multiplier=p.initial_s, max=p.max_s) + wait_random(0, p.initial_s)) if p.initial_s > 0 else None,
            "retry": retry_if_exception(is_retryable),
            "reraise": True,
        }

    def _generate(self, *args: Any, **kwargs: Any) -> ChatResult:
        opts = {k: v for k, v in self._retrying_kwargs().items() if v is not None}
        failures: list[str] = []
        try:
            for attempt in Retrying(**opts):
                with attempt, _noting(failures):
                    result = super()._generate(*args, **kwargs)  # type: ignore[misc]
        except BaseException as exc:
            _mark_attempts(exc, failures)
            raise
        return _with_attempts(result, attempt.retry_state.attempt_number, failures)

    async def _agenerate(self, *args: Any, **kwargs: Any) -> ChatResult:
        opts = {k: v for k, v in self._retrying_kwargs().items() if v is not None}
        failures: list[str] = []
        try:
            async for attempt in AsyncRetrying(**opts):
                with attempt, _noting(failures):
                    result = await super()._agenerate(*args, **kwargs)  # type: ignore[misc]
        except BaseException as exc:
            _mark_attempts(exc, failures)
            raise
        return _with_attempts(result, attempt.retry_state.attempt_number, failures)


@contextlib.contextmanager
def _noting(failures: list[str]) -> Iterator[None]:
    """Remember each failed attempt so the trace shows the retries, not only the last outcome."""
    try:
        yield
    except Exception as exc:
        failures.append(f"{type(exc).__name__}: {exc}"[:300])
        raise


def _mark_attempts(exc: BaseException, failures: list[str]) -> None:
    with contextlib.suppress(AttributeError, TypeError):
        exc.restgraph_attempts = len(failures)  # type: ignore[attr-defined]
        exc.restgraph_retried_errors = failures[:-1]  # type: ignore[attr-defined]


def _with_attempts(result: ChatResult, attempts: int, failures: list[str] | None = None) -> ChatResult:
    """Put the attempt count (and the errors retried past) where the trace callback reads them."""
    result.llm_output = {**(result.llm_output or {}), "attempts": attempts, "retried_errors": list(failures or [])}
    return result


_CLASS_CACHE: dict[tuple[type, RetryPolicy], type] = {}
M = TypeVar("M", bound=BaseChatModel)


def retrying_class(cls: type[M], policy: RetryPolicy) -> type[M]:
    """A subclass of ``cls`` whose generation calls retry under ``policy`` (cached per pair)."""
    if issubclass(cls, RetryMixin) and cls.__module__ == __name__:
        cls = cls.__bases__[1]
    key = (cls, policy)
    if key not in _CLASS_CACHE:
        _CLASS_CACHE[key] = type(f"Retrying{cls.__name__}", (RetryMixin, cls), {
            "retry_policy": policy,
            "__module__": __name__,
            "__annotations__": {"retry_policy": ClassVar[RetryPolicy]},
        })
    return _CLASS_CACHE[key]


def with_retries(model: M, policy: RetryPolicy) -> M:
    """Give an existing model instance retries by moving it to the retrying subclass."""
    object.__setattr__(model, "__class__", retrying_class(type(model), policy))
    return model
