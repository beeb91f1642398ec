"""An in-process OpenAI chat endpoint (httpx ``MockTransport``) that records every request body.

Tests use it to check what a role actually *sends* (messages, temperature, seed, response_format)
through the real ``ChatOpenAI`` client, with no network.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import httpx
from langchain_openai import ChatOpenAI


def recording_openai(replies: Sequence[str], **model_kwargs: Any) -> tuple[ChatOpenAI, list[dict[str, Any]]]:
    """A ``ChatOpenAI`` answering with ``replies`` in turn (the last one repeats) and the list that
    collects each request's JSON body."""
    requests: list[dict[str, Any]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        requests.append(body)
        text = replies[min(len(requests) - 1, len(replies) - 1)]
        return httpx.Response(200, json={
            "id": f"chatcmpl-{len(requests)}", "object": "chat.completion", "created": 0, "model": body.get("model", "m"),
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        })

    client = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    model = ChatOpenAI(model=model_kwargs.pop("model", "gpt-3.5-turbo"), api_key="test", base_url="http://fake.invalid/v1", max_retries=0, http_async_client=client, **model_kwargs)
    return model, requests


class InFlightCounter:
    """Counts requests in flight and holds each one until a second is in flight too.

    Holding on an event (not a sleep) makes the test exact on a loaded machine: with a limit of
    N >= 2 the peak reaches 2 and never passes N; without a limit, episodes that are all ready
    pile in while the first pair is held (``yields`` loop turns after release)."""

    def __init__(self, pair: int = 2, yields: int = 10):
        import asyncio

        self.pair, self.yields = pair, yields
        self.in_flight = self.peak = self.total = 0
        self._paired = asyncio.Event()

    async def hold(self) -> None:
        import asyncio

        self.in_flight += 1
        self.total += 1
        self.peak = max(self.peak, self.in_flight)
        try:
            if self.in_flight >= self.pair:
                self._paired.set()
            await asyncio.wait_for(self._paired.wait(), timeout=60)  # a bound, not a pace: fails loudly
            for _ in range(self.yields):
                await asyncio.sleep(0)  # one loop turn each: whoever is ready to send, sends now
        finally:
            self.in_flight -= 1


def counting_openai(counter: InFlightCounter, text: str = "42") -> httpx.AsyncClient:
    """An ``AsyncClient`` for ``ChatOpenAI(http_async_client=...)`` whose fake endpoint passes every
    request through ``counter`` and answers ``text``."""

    async def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        await counter.hold()
        return httpx.Response(200, json={
            "id": f"chatcmpl-{counter.total}", "object": "chat.completion", "created": 0, "model": body.get("model", "m"),
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        })

    return httpx.AsyncClient(transport=httpx.MockTransport(handler))
