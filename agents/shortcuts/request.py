"""The request ShortcutsBench's original script sends, per provider (upstream_vectors/meta.json).

- OpenAI-style clients (OpenAI, Together, DeepSeek, Moonshot, GLM, ...) and DashScope send
  ``model`` and ``[system, user]`` messages only: no temperature, top_p, max_tokens or seed, so the
  provider's defaults apply.
- Gemini sends one user turn, ``"System: " + system + "\\nUser: " + user`` (the concatenation is read
  from upstream's code by ``restgraph.tools.shortcuts.upstream_prompts``); its generation config was built
  but never passed, so provider defaults apply there too.

So the faithful request adds nothing the user did not ask for: the harness's automatic ``seed`` on
OpenAI models is dropped, while a temperature or token cap the user set explicitly is kept (and
recorded). The embedded local model is a smoke-test server, not one of upstream's providers; it
keeps its own settings. ``describe_request`` is what ``config.json`` records.
"""

from __future__ import annotations

from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_openai.chat_models.base import BaseChatOpenAI

from restgraph.agents.models import parse_spec

OPENAI_STYLE, GOOGLE_STYLE = "openai", "google"
#: provider prefixes of ``--model`` whose upstream counterpart is Gemini's single-turn chat
GOOGLE_PROVIDERS = ("google_genai", "google_vertexai", "google", "gemini")
#: the automatic settings the harness adds that upstream never sent
HARNESS_ADDED = ("seed",)


def provider_style(model: Any) -> str:
    """``google`` for Gemini chat models (single-turn request), ``openai`` for everything else."""
    name = type(model).__name__.lower()
    return GOOGLE_STYLE if "google" in name or "gemini" in name or "vertex" in name else OPENAI_STYLE


def _is_local(model: Any) -> bool:
    from restgraph.agents.local_model import LocalChatOpenAI

    return isinstance(model, LocalChatOpenAI)


def upstream_request(model: BaseChatModel) -> BaseChatModel:
    """``model`` as upstream would call it: without the settings the harness adds on its own."""
    if isinstance(model, BaseChatOpenAI) and not _is_local(model):
        return model.model_copy(update=dict.fromkeys(HARNESS_ADDED))
    return model


def describe_request(
    options: dict[str, Any], model_spec: str, model_options: dict[str, Any]
) -> dict[str, Any]:
    """What one next-action request carries, for ``config.json``."""
    provider, name, _ = parse_spec(model_spec)
    faithful = str(options.get("request", "upstream")) == "upstream"
    style = GOOGLE_STYLE if provider in GOOGLE_PROVIDERS else OPENAI_STYLE
    explicit = {
        k: model_options[k]
        for k in ("temperature", "max_tokens", "top_p")
        if model_options.get(k) is not None
    }
    if provider == "local":
        sent: dict[str, Any] = {
            "model": f"local:{name or 'default'}",
            "temperature": model_options.get("temperature", 0.0),
            "max_tokens": model_options.get("max_tokens", 512),
            "seed": "run seed",
        }
    else:
        sent = {"model": name or model_spec, **explicit}
        if not faithful and provider == "openai":
            sent["seed"] = "run seed"
    structured = str(options.get("structured", "0")).lower() in ("1", "true", "yes", "on")
    return {
        "request": "upstream" if faithful else "as_built",
        "provider_style": style,
        "messages": "one user turn: 'System: ' + system + '\\nUser: ' + user"
        if style == GOOGLE_STYLE and options.get("prompts", "upstream") == "upstream"
        else "[system, user]",
        "params": sent,
        "response_format": "json_schema (NextAction)" if structured else None,
        "parse": "structured output, else upstream's {...} span"
        if structured
        else "upstream's {...} span; json_error when it does not parse",
    }
