"""The online search backend: the Brave Search web API.

``GET {base_url}/res/v1/web/search?q=...&count=k`` with the key in the ``X-Subscription-Token``
header; the reply's ``web.results[]`` carry ``title``, ``url`` and ``description`` (HTML with
``<strong>`` highlights, stripped here). The key comes from ``BRAVE_SEARCH_API_KEY`` (or the
constructor) and is registered with ``restgraph.tools.redact`` before the first request, so no trace, log or
error message can carry it; errors name the status, never the request headers.

Transient failures (connection errors, 429, 5xx) are retried a bounded number of times with
exponential back-off (tenacity); anything else raises ``SearchError`` at once.
"""

from __future__ import annotations

import html
import os
import re
from typing import Any

import httpx
from tenacity import retry, retry_if_exception, stop_after_attempt, wait_exponential

from restgraph.tools.redact import register_secret
from restgraph.tools.search.base import SearchError, SearchResult

ENV_KEY = "BRAVE_SEARCH_API_KEY"
DEFAULT_BASE_URL = "https://api.search.brave.com"
#: Brave's ``count`` maximum
MAX_COUNT = 20
_TAG = re.compile(r"<[^>]+>")


class _Transient(SearchError):
    """Worth retrying (connection error, 429, 5xx); a SearchError once the attempts are spent."""

    pass


def _clean(text: Any) -> str:
    return " ".join(html.unescape(_TAG.sub("", str(text or ""))).split())


class BraveSearch:
    name = "brave"

    def __init__(
        self,
        api_key: str | None = None,
        *,
        base_url: str = DEFAULT_BASE_URL,
        timeout: float = 15.0,
        attempts: int = 3,
        transport: httpx.BaseTransport | None = None,
    ):
        key = api_key or os.environ.get(ENV_KEY, "")
        if not key:
            raise SearchError(f"the brave search backend needs an API key: set {ENV_KEY}")
        register_secret(key)
        self._client = httpx.Client(
            base_url=base_url.rstrip("/"),
            timeout=timeout,
            transport=transport,
            headers={"Accept": "application/json", "X-Subscription-Token": key},
        )
        self.attempts = max(1, attempts)

    def search(self, query: str, k: int = 10) -> list[SearchResult]:
        if not query.strip() or k <= 0:
            return []
        payload = retry(
            retry=retry_if_exception(lambda e: isinstance(e, _Transient)),
            stop=stop_after_attempt(self.attempts),
            wait=wait_exponential(multiplier=0.5, max=8),
            reraise=True,
        )(self._get)(query, min(int(k), MAX_COUNT))
        web = payload.get("web") if isinstance(payload, dict) else None
        results = web.get("results") if isinstance(web, dict) else []
        if not isinstance(results, list):
            raise SearchError("brave search: malformed reply (web.results is not a list)")
        out = [
            SearchResult(
                title=_clean(r.get("title")), url=str(r.get("url", "")), snippet=_clean(r.get("description"))
            )
            for r in results
            if isinstance(r, dict) and r.get("url")
        ]
        return out[:k]

    def _get(self, query: str, count: int) -> Any:
        try:
            response = self._client.get("/res/v1/web/search", params={"q": query, "count": count})
        except httpx.HTTPError as exc:
            raise _Transient(f"brave search: {type(exc).__name__}") from None
        if response.status_code == 429 or response.status_code >= 500:
            raise _Transient(f"brave search: HTTP {response.status_code}")
        if response.status_code != 200:
            raise SearchError(f"brave search: HTTP {response.status_code}")
        try:
            return response.json()
        except ValueError:
            raise SearchError("brave search: the reply is not JSON") from None

    def close(self) -> None:
        self._client.close()
