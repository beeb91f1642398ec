"""The async HTTP tool every RestBench agent acts through.

One ``HttpTool`` per episode wraps an ``httpx.AsyncClient``: in-process (``ASGITransport`` over a
sandbox app), against a loopback server, or against the live API. Any 2xx is success (RestGPT
crashed on 201/204); 4xx/5xx and transport errors come back as results for the model to read,
never as exceptions. Every request is recorded in the trace with its ``METHOD /template``.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterable
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx

from restgraph.tools.baton import io_wait
from restgraph.tools.events import HttpExchange, emit
from restgraph.tools.http_shared import ssl_context
from restgraph.tools.openapi.matching import to_template
from restgraph.tools.redact import register_secret

_PLACEHOLDER = re.compile(r"\{[^{}/]+\}")


@dataclass
class HttpResult:
    status: int
    text: str
    headers: dict[str, str] = field(default_factory=dict)
    json: Any = None
    error: str | None = None
    template: str | None = None

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

    def observation(self, limit: int = 4000) -> str:
        """What the model is shown: status plus a short body, or "success, no content"."""
        if self.error:
            return f"Request failed: {self.error}"
        if self.ok and not self.text.strip():
            return f"Status {self.status}: success, no content."
        body = self.text if len(self.text) <= limit else self.text[:limit] + "...(truncated)"
        return body if self.ok else f"Status {self.status}: {body}"


class HttpTool:
    def __init__(
        self,
        base_url: str,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        token: str | None = None,
        auth_style: str = "bearer",
        endpoint_keys: Iterable[str] = (),
        timeout: float = 30.0,
        default_headers: dict[str, str] | None = None,
    ):
        self.base_url = base_url.rstrip("/")
        self.base_path = urlsplit(self.base_url).path.rstrip("/")
        self.endpoint_keys = list(endpoint_keys)
        headers = dict(default_headers or {})
        self._auth_params: dict[str, str] = {}
        if token:
            register_secret(token)
            if auth_style == "bearer":
                headers["Authorization"] = f"Bearer {token}"
            else:
                self._auth_params["api_key"] = token
        # a shared TLS context: a client per episode must not build its own (tools.http_shared)
        self.client = httpx.AsyncClient(
            base_url=self.base_url,
            transport=transport,
            headers=headers,
            timeout=timeout,
            follow_redirects=True,
            verify=ssl_context() if transport is None else True,
        )
        self.history: list[HttpResult] = []
        #: requests leave the process (an in-process ASGI app runs its handler in this task instead)
        self._remote = transport is None

    async def aclose(self) -> None:
        await self.client.aclose()

    def template_of(self, method: str, path: str) -> str | None:
        return to_template(method, path, self.endpoint_keys, self.base_path)

    def _relative(self, path_or_url: str) -> str:
        if "://" in path_or_url:
            parts = urlsplit(path_or_url)
            path = parts.path
            if self.base_path and path.startswith(self.base_path):
                path = path[len(self.base_path) :]
            return path + (f"?{parts.query}" if parts.query else "")
        return path_or_url if path_or_url.startswith("/") else "/" + path_or_url

    async def request(
        self, method: str, path: str, params: dict[str, Any] | None = None, body: Any = None
    ) -> HttpResult:
        method = method.upper()
        rel = self._relative(path)
        template = self.template_of(method, rel)
        started = time.perf_counter()
        details: dict[str, Any] = {"template": template}
        if _PLACEHOLDER.search(rel.split("?", 1)[0]):
            # never sent: kept in the trace (the model tried it) but not an API call (restbench.md §6)
            details["sent"] = False
            result = HttpResult(
                status=0,
                text="",
                error=f"the path {rel} still contains a {{placeholder}}; replace it with a concrete value",
            )
        else:
            try:
                query = {**(params or {}), **self._auth_params} or None
                async with (
                    io_wait() if self._remote else nullcontext()
                ):  # a real server: others run meanwhile (tools.baton)
                    response = await self.client.request(
                        method, rel, params=query, json=body if body is not None else None
                    )
                text = response.text
                try:
                    parsed = response.json() if text.strip() else None
                except (json.JSONDecodeError, ValueError):
                    parsed = None
                result = HttpResult(
                    status=response.status_code, text=text, headers=dict(response.headers), json=parsed
                )
            except httpx.HTTPError as exc:
                result = HttpResult(status=0, text="", error=f"{type(exc).__name__}: {exc}")
        result.template = template
        emit(
            HttpExchange(
                name=template or f"{method} {rel}",
                method=method,
                url=self.base_url + rel,
                path=rel.split("?", 1)[0],
                params=params or None,
                body=body,
                status=result.status,
                response=result.text,
                error=result.error,
                latency_s=round(time.perf_counter() - started, 6),
                details=details,
            )
        )
        self.history.append(result)
        return result
