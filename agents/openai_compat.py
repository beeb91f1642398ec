"""``ChatOpenAI`` whose reply cap reaches any OpenAI-compatible server.

Why: langchain-openai renames ``max_tokens`` to ``max_completion_tokens`` in every request (OpenAI
deprecated the old name in 2024, and its reasoning models refuse it). Servers that implement the
older API (Ollama and older vLLM or llama.cpp builds among them) ignore the new name and decode
until their own limit, so a benchmark's published cap (RestBench: 256 / 700 tokens) silently did
not apply. The original RestGPT sent ``max_tokens``; every OpenAI-compatible server honours it.
So: ``max_tokens`` wherever the endpoint is not OpenAI's own, ``max_completion_tokens`` there.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from langchain_openai import ChatOpenAI

#: hosts that are OpenAI's own API (where ``max_completion_tokens`` is the current name)
OPENAI_HOSTS = ("api.openai.com",)


def is_openai_endpoint(base_url: str | None) -> bool:
    """No base URL (the SDK's default) or OpenAI's own host."""
    if not base_url:
        return True
    host = (urlsplit(base_url).hostname or "").lower()
    return host in OPENAI_HOSTS


def cap_field(payload: dict[str, Any], base_url: str | None) -> dict[str, Any]:
    """``payload`` with its reply cap under the name ``base_url``'s server honours."""
    if not is_openai_endpoint(base_url) and "max_completion_tokens" in payload:
        payload["max_tokens"] = payload.pop("max_completion_tokens")
    return payload


class CompatibleChatOpenAI(ChatOpenAI):
    """``ChatOpenAI`` sending ``max_tokens`` to servers other than OpenAI's (see the module doc)."""

    def _get_request_payload(self, input_: Any, *, stop: list[str] | None = None, **kwargs: Any) -> dict:
        return cap_field(super()._get_request_payload(input_, stop=stop, **kwargs), self.openai_api_base)
