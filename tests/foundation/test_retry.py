"""The retry layer: retryable openai errors are retried with bounded attempts; others are not."""

from __future__ import annotations

import httpx
import openai
import pytest
from langchain_core.messages import HumanMessage

from restgraph.agents.retry import RetryPolicy, is_retryable, retrying_class, with_retries
from restgraph.agents.scripted import ScriptedChatModel

FAST = RetryPolicy(attempts=4, initial_s=0.001, max_s=0.002)
REQ = httpx.Request("POST", "http://x.invalid/v1/chat/completions")


def _status(cls: type, code: int) -> Exception:
    return cls(f"status {code}", response=httpx.Response(code, request=REQ), body=None)


RETRYABLE = [
    _status(openai.RateLimitError, 429),
    _status(openai.InternalServerError, 500),
    _status(openai.APIStatusError, 503),
    openai.APITimeoutError(request=REQ),
    openai.APIConnectionError(request=REQ),
    httpx.ReadTimeout("slow"),
]
NOT_RETRYABLE = [
    _status(openai.BadRequestError, 400),
    _status(openai.AuthenticationError, 401),
    _status(openai.NotFoundError, 404),
    ValueError("bug"),
]


def _failing(errors: list[Exception], reply: str = "ok"):
    calls: list[int] = []

    def policy(messages):
        calls.append(1)
        if len(calls) <= len(errors):
            raise errors[len(calls) - 1]
        return reply

    return policy, calls


@pytest.mark.parametrize("exc", RETRYABLE, ids=lambda e: type(e).__name__)
async def test_retryable_errors_are_retried_until_success(exc: Exception) -> None:
    assert is_retryable(exc)
    policy, calls = _failing([exc, exc])
    model = retrying_class(ScriptedChatModel, FAST)(policy=policy)
    result = await model._agenerate([HumanMessage("q")])  # the per-call result the trace callback sees
    assert result.generations[0].text == "ok" and len(calls) == 3
    assert result.llm_output["attempts"] == 3 and len(result.llm_output["retried_errors"]) == 2


@pytest.mark.parametrize("exc", NOT_RETRYABLE, ids=lambda e: type(e).__name__)
async def test_other_errors_fail_at_once(exc: Exception) -> None:
    assert not is_retryable(exc)
    policy, calls = _failing([exc])
    model = retrying_class(ScriptedChatModel, FAST)(policy=policy)
    with pytest.raises(type(exc)):
        await model.ainvoke([HumanMessage("q")])
    assert len(calls) == 1


async def test_attempts_are_bounded_and_the_last_error_surfaces() -> None:
    policy, calls = _failing([_status(openai.RateLimitError, 429)] * 10)
    model = retrying_class(ScriptedChatModel, FAST)(policy=policy)
    with pytest.raises(openai.RateLimitError) as err:
        await model.ainvoke([HumanMessage("q")])
    assert len(calls) == FAST.attempts
    assert (
        err.value.restgraph_attempts == FAST.attempts
        and len(err.value.restgraph_retried_errors) == FAST.attempts - 1
    )


def test_sync_path_retries_too() -> None:
    policy, calls = _failing([openai.APITimeoutError(request=REQ)])
    model = retrying_class(ScriptedChatModel, FAST)(policy=policy)
    assert model.invoke([HumanMessage("q")]).content == "ok" and len(calls) == 2


async def test_with_retries_wraps_an_existing_instance_and_keeps_structured_output() -> None:
    policy, calls = _failing([_status(openai.InternalServerError, 502)], reply='{"a": 1}')
    inner = ScriptedChatModel(policy=policy)
    model = with_retries(inner, FAST)
    out = await model.with_structured_output({"type": "object"}, include_raw=True).ainvoke(
        [HumanMessage("q")]
    )
    assert out["parsed"] == {"a": 1} and len(calls) == 2
    assert type(inner) is ScriptedChatModel  # composed, not mutated (its class used to be swapped)
    assert (await model.ainvoke([HumanMessage("q")])).content == '{"a": 1}' and len(calls) == 3


async def test_with_retries_keeps_the_providers_tool_binding() -> None:
    from langchain_openai import ChatOpenAI

    inner = ChatOpenAI(model="gpt-4o-mini", api_key="not-needed", base_url="http://127.0.0.1:9/v1")
    model = with_retries(inner, FAST)

    def add(a: int, b: int) -> int:
        """Add two numbers."""
        return a + b

    bound = model.bind_tools([add])
    assert bound.bound is model and bound.kwargs["tools"][0]["function"]["name"] == "add"
    structured = model.with_structured_output(
        {"title": "A", "type": "object", "properties": {"x": {"type": "integer"}}}
    )
    assert model in [getattr(step, "bound", step) for step in structured.steps]


def test_scripted_fault_model_built_by_the_factory_retries() -> None:
    import restgraph.evals.benchmarks.smoke  # noqa: F401  (registers scripted:smoke-oracle)
    from restgraph.agents.models import make_chat_model
    from restgraph.evals.trace import Task

    task = Task(id="t", benchmark="b", instruction="What is 2 + 3?")
    model = make_chat_model("scripted:smoke-oracle?faults=0.5", task=task, seed=1)
    replies = [model.invoke([HumanMessage("What is 2 + 3?")]) for _ in range(20)]
    assert sum(r.content == "5" for r in replies) >= 8  # faults were retried away, malformed text was not


def test_waits_grow_exponentially_capped_with_bounded_jitter() -> None:
    """The plain loop waits as tenacity's ``wait_exponential(initial, max) + wait_random(0, initial)`` did."""
    from restgraph.agents.retry import wait_s

    policy = RetryPolicy(attempts=8, initial_s=0.5, max_s=3.0)
    for attempt, base in [(1, 0.5), (2, 1.0), (3, 2.0), (4, 3.0), (7, 3.0)]:
        waits = [wait_s(policy, attempt) for _ in range(200)]
        assert all(base <= w <= base + 0.5 for w in waits) and max(waits) > base
    assert wait_s(RetryPolicy(initial_s=0), 3) == 0.0
