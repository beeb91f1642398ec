"""One cheap model call before a run starts, so a broken model setting fails in seconds, not as 0%.

Why: a missing API key, a dead ``--base-url``, an unknown provider or a missing provider package
made every episode fail with the same error, exit 0, and a table of zeros. ``preflight`` builds
the model exactly as the runner will (same spec, same ``-M`` options), sends one short prompt with
no retries and a short timeout, and turns whatever goes wrong into one line naming the cause.

Scripted and local models are not checked here: scripted ones need no network, and the CLI
already starts the embedded llama.cpp server before the run.
"""

from __future__ import annotations

import asyncio
from typing import Any

PREFLIGHT_PROMPT = "Reply with the single word OK."
NO_PREFLIGHT_PROVIDERS = ("scripted", "local", "replay", "none")


class PreflightError(RuntimeError):
    """The model cannot answer; the message is the one line the CLI prints."""


def needs_preflight(spec: str) -> bool:
    return spec.partition(":")[0] not in NO_PREFLIGHT_PROVIDERS


def _explain(spec: str, options: dict[str, Any], exc: BaseException) -> str:
    where = options.get("base_url") or spec.partition(":")[0]
    name = type(exc).__name__
    first = (str(exc).strip().splitlines() or [""])[0][:300]
    if name == "AuthenticationError" or "api_key" in first.lower() or "api key" in first.lower():
        return (
            f"model {spec!r}: credentials rejected or missing at {where} ({name}: {first}); set "
            "--api-key, $RESTGRAPH_API_KEY or the provider's key variable"
        )
    if "Connection" in name or "Connect" in name or "Timeout" in name:
        return f"model {spec!r}: cannot reach {where} ({name}: {first or 'no answer'}); check --base-url and that the server is up"
    if name == "NotFoundError":
        return f"model {spec!r}: {where} does not serve this model ({first})"
    return f"model {spec!r} failed its preflight call ({name}: {first})"


def preflight(spec: str, model_options: dict[str, Any], *, timeout_s: float = 30.0) -> None:
    """Build ``spec`` and make one call; raise ``PreflightError`` with a one-line reason."""
    from restgraph.agents.models import ModelSpecError, make_chat_model
    from restgraph.agents.retry import RetryPolicy

    options = dict(model_options)
    if spec.startswith("openai:") or options.get("base_url"):  # the OpenAI client takes a request timeout
        options["timeout"] = min(timeout_s, float(options.get("timeout", timeout_s)))
    try:
        model = make_chat_model(spec, retry=RetryPolicy(attempts=1), **options)
    except ModelSpecError as exc:
        raise PreflightError(str(exc).splitlines()[0]) from None
    except Exception as exc:  # missing key or package at construction
        raise PreflightError(_explain(spec, model_options, exc)) from None

    async def call() -> Any:
        return await asyncio.wait_for(model.ainvoke(PREFLIGHT_PROMPT), timeout_s)

    try:
        asyncio.run(call())
    except Exception as exc:
        raise PreflightError(_explain(spec, model_options, exc)) from None
