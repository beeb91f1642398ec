"""An in-process OpenAI chat endpoint (httpx ``MockTransport``) that records every request body.

Tests use it to check what a role actually *sends* (messages, temperature, seed, response_format)
through the real ``ChatOpenAI`` client, with no network.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import httpx
from langchain_openai import ChatOpenAI


def completion(text: str, n: int, request: dict[str, Any]) -> dict[str, Any]:
    """The body of a chat completion answering ``text`` (the ``n``-th) to ``request``."""
    return {
        "id": f"chatcmpl-{n}",
        "object": "chat.completion",
        "created": 0,
        "model": request.get("model", "m"),
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def recording_openai(replies: Sequence[str], **model_kwargs: Any) -> tuple[ChatOpenAI, list[dict[str, Any]]]:
    """A ``ChatOpenAI`` answering with ``replies`` in turn (the last one repeats) and the list that
    collects each request's JSON body."""
    requests: list[dict[str, Any]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        requests.append(body)
        text = replies[min(len(requests) - 1, len(replies) - 1)]
        return httpx.Response(200, json=completion(text, len(requests), body))

    client = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    model = ChatOpenAI(
        model=model_kwargs.pop("model", "gpt-3.5-turbo"),
        api_key="test",
        base_url="http://fake.invalid/v1",
        max_retries=0,
        http_async_client=client,
        **model_kwargs,
    )
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
        return httpx.Response(200, json=completion(text, counter.total, body))

    return httpx.AsyncClient(transport=httpx.MockTransport(handler))


class CountingEndpoint:
    """A real OpenAI chat endpoint on loopback (a thread of this process) that counts the requests
    in flight from any process, e.g. a sweep's Ray workers, and holds them so that a leaking
    limiter is *seen*, not just possible: ``with CountingEndpoint(...) as endpoint:`` serves at
    ``endpoint.url``.

    Each request is held until one of: more than ``limit`` requests are in flight (a leak: the
    peak shows it); ``limit`` are in flight and ``limiter_waiting()`` says the limiter is holding
    others back (the limiter, not chance, kept the count at ``limit``); all ``expected`` requests
    have arrived (the tail). Without a limiter (``limiter_waiting=None``) the same endpoint holds
    until ``limit + 1`` meet, so a control run proves the episodes overlap enough to show a leak.
    With one model call per episode nothing else can be blocked behind a held request, so the
    hold always ends; 60 s bound it all the same (``timed_out``) so a bug fails instead of hanging."""

    def __init__(
        self, limit: int, expected: int, limiter_waiting: Callable[[], bool] | None = None, text: str = "42"
    ):
        import threading

        self.limit, self.expected, self.limiter_waiting, self.text = limit, expected, limiter_waiting, text
        self.in_flight = self.peak = self.total = 0
        self.timed_out = False
        self._released_through = 0  # requests 1..this were let go
        self._arrived = threading.Condition()

    def _release_due(self) -> bool:
        if self.in_flight > self.limit or self.total >= self.expected:
            return True
        return self.in_flight == self.limit and self.limiter_waiting is not None and self.limiter_waiting()

    def arrive(self) -> int:
        """Count a request in and hold it; it counts as in flight until ``leave()``."""
        import time

        with self._arrived:
            self.in_flight += 1
            self.total += 1
            n = self.total
            self.peak = max(self.peak, self.in_flight)
            self._arrived.notify_all()
            bound = time.monotonic() + 60
            # arrivals notify; the limiter's queue is another process's state, so it is re-read
            while n > self._released_through:
                if self._release_due():
                    self._released_through = self.total  # everything held now goes, together
                    self._arrived.notify_all()
                elif time.monotonic() > bound:
                    self.timed_out = True
                    break
                else:
                    self._arrived.wait(timeout=0.02)
        return n

    def leave(self) -> None:
        with self._arrived:
            self.in_flight -= 1

    def __enter__(self) -> CountingEndpoint:
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:  # noqa: N802  (http.server's name)
                request = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
                try:
                    payload = json.dumps(completion(endpoint.text, endpoint.arrive(), request)).encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                finally:
                    endpoint.leave()

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._server.handle_error = lambda *args: None  # quiet: a client closing its idle connection
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/v1"
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
