"""The ``-M`` options of each model kind (``scripted``, ``local``, ``openai``, any ``provider:model``).

``restgraph.agents.models.make_chat_model(spec, **options)`` takes them; the harness validates a run's model
options against the kind's model before anything starts. Defaults of ``None`` mean "the model's
own" (the help says which that is), so only what a user sets reaches the model class.
Per-policy settings of scripted models stay in the spec's query (``scripted:replay?text=...``).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from restgraph.tools.options import Options


class ScriptedModelOptions(Options):
    """Scripted and replay models read their settings from the spec (``?latency=0.2&faults=0.1&structured=0``)."""

    temperature: float | None = Field(
        None, description="accepted so --temperature works with every model; scripted replies do not sample"
    )
    max_tokens: int | None = Field(
        None, ge=1, description="accepted so a benchmark's published decoding applies to every model; unused"
    )
    api_key: str | None = Field(
        None, description="accepted so --api-key / $RESTGRAPH_API_KEY work with every model; unused"
    )
    base_url: str | None = Field(None, description="accepted so --base-url works with every model; unused")
    context_window: int | None = Field(
        None, ge=1, description="refuse prompts longer than this (tokens, with max_tokens) before the call"
    )


class _Sampling(Options):
    api: Literal["chat", "completions"] | None = Field(
        None,
        description=(
            "chat (/v1/chat/completions) | completions (the raw prompt to /v1/completions, as the original "
            "RestGPT sent it); default: completions for completion-only models (text-davinci-003), else chat"
        ),
    )
    temperature: float | None = Field(None, ge=0, description="sampling temperature (local default 0)")
    max_tokens: int | None = Field(None, ge=1, description="reply token cap (local default 512)")
    top_p: float | None = Field(None, gt=0, le=1, description="nucleus sampling")
    timeout: float | None = Field(None, gt=0, description="seconds per request (local 300, openai 120)")
    stop: list[str] | None = Field(None, description="stop sequences (JSON list)")
    model_kwargs: dict[str, Any] | None = Field(
        None, description="further request parameters the provider takes (JSON)"
    )
    context_window: int | None = Field(
        None,
        ge=1,
        description=(
            "tokens the model takes (prompt + max_tokens); longer prompts are refused before the "
            "call (default: local n_ctx/parallel, else a table of known models)"
        ),
    )


class LocalModelOptions(_Sampling):
    """The embedded llama.cpp server. Server settings take effect only when the run starts it."""

    n_ctx: int | None = Field(None, ge=512, description="server KV cells over all slots (default 16384)")
    ctx: int | None = Field(None, ge=512, description="alias of n_ctx")
    parallel: int | None = Field(None, ge=1, description="server request slots (default 2)")
    threads: int | None = Field(
        None,
        ge=0,
        description="server CPU threads (default 0: the idle CPUs this process may use, sampled at start)",
    )
    poll: int | None = Field(
        None,
        ge=0,
        le=100,
        description="how hard idle server threads spin-wait for work, 0-100 (default 0: they sleep; llama.cpp's 50 spins)",
    )


class RemoteModelOptions(_Sampling):
    """OpenAI, any OpenAI-compatible server (``base_url``), or any ``provider:model`` LangChain knows."""

    base_url: str | None = Field(
        None, description="OpenAI-compatible endpoint (vLLM, Ollama, llama.cpp); --base-url"
    )
    api_key: str | None = Field(
        None, description="API key (never written to traces); --api-key or $RESTGRAPH_API_KEY"
    )
    frequency_penalty: float | None = Field(None, description="OpenAI frequency penalty")
    presence_penalty: float | None = Field(None, description="OpenAI presence penalty")
    reasoning_effort: str | None = Field(None, description="reasoning models: low | medium | high")


#: ``replay:RUN_DIR`` replays recorded outputs: like a scripted model, it takes no sampling settings
MODEL_KINDS: dict[str, type[Options]] = {
    "scripted": ScriptedModelOptions,
    "replay": ScriptedModelOptions,
    "local": LocalModelOptions,
    "openai": RemoteModelOptions,
    "<provider>": RemoteModelOptions,
}


def model_kind(spec: str) -> str:
    """``scripted:x`` -> ``scripted``; ``local:/m.gguf`` -> ``local``; ``anthropic:claude`` -> ``<provider>``."""
    provider = spec.strip().partition("?")[0].partition(":")[0]
    return provider if provider in MODEL_KINDS else "<provider>"


def model_options_model(spec: str) -> type[Options]:
    return MODEL_KINDS[model_kind(spec)]
