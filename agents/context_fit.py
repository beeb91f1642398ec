"""Refuse a model call whose prompt cannot fit the model's context window, before it is sent.

Why: a prompt over the window is an HTTP 400 from the server at best (after the upload, and a
ShortcutsBench episode recorded it as ``finished``), and at worst a reply silently cut where the
context ran out. OpenAI's completion API, which RestGPT and ShortcutsBench were written against,
refuses a request whose prompt plus ``max_tokens`` exceeds the window; refusing here does the
same, by name (``ContextOverflow``, whose message carries OpenAI's ``context_length_exceeded``
code, so code that recognises provider context errors recognises this one too).

The window: ``-M context_window=N`` for any model; else the embedded llama.cpp server's cells per
slot (``n_ctx / parallel``: 8,192 by default); else a small table of well-known models; else
unknown, and nothing is checked. Prompt tokens are counted with ``restgraph.tools.tokenizer`` (p50k_base)
plus a few tokens per message for the chat template: exact for text-davinci-003, an estimate for
other tokenizers; a server that still refuses a prompt as too long is recognised by its message
(``is_context_overflow``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

#: prompt-template tokens per message and per reply (role markers, separators), roughly what
#: OpenAI's and ChatML templates (SmolLM2's) add
PER_MESSAGE = 4
PER_REPLY = 3

#: context windows of well-known models (tokens), matched by the longest prefix of the model name
KNOWN_WINDOWS: dict[str, int] = {
    "text-davinci-003": 4097,
    "gpt-3.5-turbo": 16385,
    "gpt-4": 8192,
    "gpt-4-turbo": 128000,
    "gpt-4o": 128000,
    "gpt-4.1": 1047576,
    "o1": 200000,
    "o3": 200000,
    "o4-mini": 200000,
    "claude": 200000,
}


#: how servers say a prompt is over the window (OpenAI, vLLM, llama.cpp, Anthropic)
OVERFLOW_MARKERS = (
    "context_length_exceeded",
    "maximum context length",
    "exceed_context_size",
    "exceeds the available context size",
    "context size has been exceeded",
    "prompt is too long",
    "input is too long",
)


def is_context_overflow(message: str) -> bool:
    lowered = message.lower()
    return any(marker in lowered for marker in OVERFLOW_MARKERS)


class ContextOverflow(ValueError):
    """The prompt plus the reply budget does not fit the model's context window (not sent)."""


def _model_name(spec: str) -> str:
    head = spec.strip().partition("?")[0]
    return head.partition(":")[2] or head


def context_window(spec: str, model_options: Mapping[str, Any] | None = None) -> int | None:
    """The context window (tokens) of the model ``spec`` with ``-M`` options, or None if unknown."""
    options = dict(model_options or {})
    if options.get("context_window"):
        return int(options["context_window"])
    provider = spec.strip().partition(":")[0]
    if provider == "local":
        from restgraph.agents.local_settings import ServerSettings

        defaults = ServerSettings()
        n_ctx = int(options.get("n_ctx") or options.get("ctx") or defaults.n_ctx)
        return n_ctx // max(1, int(options.get("parallel") or defaults.parallel))
    if provider in ("scripted", "replay"):
        return None
    name = _model_name(spec)
    matches = [prefix for prefix in KNOWN_WINDOWS if name.startswith(prefix)]
    return KNOWN_WINDOWS[max(matches, key=len)] if matches else None


def reply_budget(settings: Mapping[str, Any] | None) -> int:
    """The reply tokens a call reserves (``max_tokens`` or its provider aliases; 0 if unset)."""
    for key in ("max_tokens", "max_completion_tokens", "max_output_tokens", "num_predict", "n_predict"):
        value = (settings or {}).get(key)
        if isinstance(value, int) and value > 0:
            return value
    return 0


def prompt_tokens(messages: Sequence[Mapping[str, Any]]) -> int:
    """p50k_base tokens of the messages' text plus the template's per-message overhead."""
    from restgraph.tools.tokenizer import n_tokens

    return sum(n_tokens(str(m.get("content") or "")) + PER_MESSAGE for m in messages) + PER_REPLY


def check_fit(
    messages: Sequence[Mapping[str, Any]], settings: Mapping[str, Any] | None, window: int | None
) -> None:
    """Raise ``ContextOverflow`` if ``messages`` plus the reply budget exceed ``window``."""
    if not window:
        return
    budget = reply_budget(settings)
    # a token is at least one byte: a prompt with fewer bytes than the room left needs no count
    if (
        sum(len(str(m.get("content") or "").encode()) + PER_MESSAGE for m in messages) + PER_REPLY + budget
        <= window
    ):
        return
    used = prompt_tokens(messages)
    if used + budget > window:
        raise ContextOverflow(
            f"context_length_exceeded: the prompt has ~{used} tokens and the reply may take {budget}, "
            f"over the model's context window of {window} tokens; refused before sending"
        )
