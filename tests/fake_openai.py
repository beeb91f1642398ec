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
