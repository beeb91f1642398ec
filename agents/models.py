"""Model factory: turn a model spec string into a LangChain chat model.

Specs:
- ``scripted:<name>[?k=v&...]``: deterministic models (``restgraph.agents.scripted``); common options
  ``latency`` (seconds per call), ``faults`` (rate of injected failures), ``structured=0``.
- ``local`` / ``local:/path/model.gguf``: the embedded llama.cpp server (``restgraph.agents.local_model``)
  with SmolLM2-135M-Instruct by default.
- ``replay:RUN_DIR``: each task's model outputs recorded in an earlier run's ``traces.jsonl``, in
  order (re-drive a changed graph with the same model behaviour and compare the traces).
- ``openai:<model>``: OpenAI or any OpenAI-compatible server (``base_url=`` for vLLM, Ollama,
  llama.cpp); ``<provider>:<model>``: anything LangChain's ``init_chat_model`` knows.
- ``api=completions`` (``-M``): the raw prompt to ``/v1/completions`` as the original RestGPT sent
  it (``restgraph.agents.completions``); the default for completion-only models (text-davinci-003),
  else ``chat``.

Every model comes back with bounded retries (``restgraph.agents.retry``).
"""

from __future__ import annotations

import hashlib
from typing import Any
from urllib.parse import parse_qsl

from langchain_core.language_models import BaseChatModel

from restgraph.agents.retry import RetryPolicy, retrying_class, with_retries
from restgraph.tools.redact import register_secret
from restgraph.tools.trace_schema import Task


class ModelSpecError(ValueError):
    """A model spec that cannot be turned into a model; the message says what would work."""


def parse_spec(spec: str) -> tuple[str, str, dict[str, str]]:
    """``"scripted:replay?latency=1"`` -> ``("scripted", "replay", {"latency": "1"})``."""
    spec = spec.strip()
    if not spec:
        raise ModelSpecError("empty model spec; try 'local', 'scripted:constant' or 'openai:gpt-4o-mini'")
    head, _, query = spec.partition("?")
    provider, _, name = head.partition(":")
    return provider, name, dict(parse_qsl(query, keep_blank_values=True))


def _policy_factory(name: str) -> Any:
    """The scripted policy's factory, found through its ``restgraph.scripted`` entry point."""
    from restgraph.agents.scripted import get_policy_factory

    try:
        return get_policy_factory(name)
    except KeyError as exc:
        raise ModelSpecError(exc.args[0]) from None


def check_spec(spec: str) -> None:
    """Reject a spec that could never build a model, before a run starts (the CLI's usage check).

    Only what can be known without building is checked (no network, no task): the scripted
    model's name and numeric options. Other providers are checked when they are built.
    """
    provider, name, params = parse_spec(spec)
    if provider == "replay":
        import os

        if not os.path.isfile(os.path.join(name, "traces.jsonl")):
            raise ModelSpecError(
                f"replay:{name}: no traces.jsonl in that folder; give the folder of an earlier run"
            )
        return
    if provider != "scripted":
        return
    _policy_factory(name)
    for key in ("latency", "faults", "retry_wait"):
        try:
            value = float(params.get(key, 0) or 0)
        except ValueError:
            raise ModelSpecError(f"scripted:{name}: {key} must be a number, got {params[key]!r}") from None
        if value < 0 or (key == "faults" and value > 1):
            raise ModelSpecError(f"scripted:{name}: {key}={value} is out of range")


def _policy_seed(task: Task | None, seed: int) -> int:
    key = f"{task.id if task else ''}:{seed}"
    return int(hashlib.sha256(key.encode()).hexdigest()[:8], 16)


def make_chat_model(
    spec: str,
    *,
    task: Task | None = None,
    seed: int = 0,
    base_url: str | None = None,
    api_key: str | None = None,
    temperature: float | None = None,
    max_tokens: int | None = None,
    retry: RetryPolicy | None = None,
    **opts: Any,
) -> BaseChatModel:
    """Build the chat model for ``spec``. ``task`` lets task-aware scripted policies see the gold."""
    provider, name, params = parse_spec(spec)
    policy = retry or RetryPolicy()
    opts.pop("context_window", None)  # the harness checks it before each call (agents.context_fit)
    api = opts.pop("api", None)
    if provider not in ("scripted", "replay"):
        api = _check_api(spec, provider, base_url, api)
    if provider == "scripted":
        return _scripted(name, params, task, seed, policy)
    if provider == "replay":  # replay:RUN_DIR, each task's outputs from an earlier run
        from restgraph.agents.scripted import ScriptedChatModel, run_replay_policy

        return ScriptedChatModel(
            policy=run_replay_policy(name, task),
            name_="replay-run",
            structured=params.get("structured", "1") not in ("0", "false"),
        )
    if provider == "local":
        from restgraph.agents.local_model import local_chat_model

        return local_chat_model(
            name or None,
            temperature=temperature,
            max_tokens=max_tokens,
            seed=seed,
            retry=policy,
            api=api,
            **opts,
        )
    register_secret(api_key)
    if api == "completions":
        from restgraph.agents.completions import CompletionsChatModel

        return retrying_class(CompletionsChatModel, policy)(
            model=name,
            base_url=base_url,
            api_key=api_key,
            temperature=temperature,
            max_tokens=max_tokens,
            timeout=opts.pop("timeout", 120),
            **opts,
        )
    if provider == "openai" or base_url:
        from restgraph.agents.openai_compat import CompatibleChatOpenAI

        cls = retrying_class(CompatibleChatOpenAI, policy)
        kwargs: dict[str, Any] = {
            "model": name or "gpt-4o-mini",
            "max_retries": 0,
            "timeout": opts.pop("timeout", 120),
        }
        if base_url:
            kwargs["base_url"] = base_url
        if api_key:
            kwargs["api_key"] = api_key
        elif base_url:
            kwargs["api_key"] = "not-needed"
        if temperature is not None:
            kwargs["temperature"] = temperature
        if max_tokens is not None:
            kwargs["max_tokens"] = max_tokens
        if seed is not None and provider == "openai":
            kwargs["seed"] = seed
        return cls(**kwargs, **opts)
    try:
        from langchain.chat_models import init_chat_model
    except ImportError as exc:  # pragma: no cover - langchain is a dependency
        raise ModelSpecError("provider specs need the 'langchain' package") from exc
    kwargs = {
        k: v
        for k, v in {"temperature": temperature, "max_tokens": max_tokens, "api_key": api_key}.items()
        if v is not None
    }
    try:
        model = init_chat_model(f"{provider}:{name}", **kwargs, **opts)
    except (ImportError, ValueError) as exc:
        raise ModelSpecError(
            f"cannot build model {spec!r}: {exc}. Known forms: local, local:/path.gguf, "
            "scripted:<name>, openai:<model>, <provider>:<model> (with its langchain-<provider> "
            "package installed)"
        ) from exc
    return with_retries(model, policy)


def _check_api(spec: str, provider: str, base_url: str | None, api: str | None) -> str:
    """The protocol: ``-M api=`` when given, else the one the original would have used."""
    from restgraph.agents.completions import APIS, default_api

    if api is None:
        return default_api(spec)
    if api not in APIS:
        from restgraph.tools.suggest import did_you_mean

        raise ModelSpecError(f"unknown api {api!r}{did_you_mean(str(api), APIS)}; valid: {', '.join(APIS)}")
    if api == "completions" and provider not in ("openai", "local") and not base_url:
        raise ModelSpecError(
            f"api=completions needs an OpenAI-compatible endpoint: openai:<model>, local, or --base-url; {spec!r} has none"
        )
    return api


def _scripted(
    name: str, params: dict[str, str], task: Task | None, seed: int, retry: RetryPolicy
) -> BaseChatModel:
    from restgraph.agents.scripted import ScriptedChatModel, faulty

    factory = _policy_factory(name)
    try:
        policy = factory(task, params)
        latency = float(params.get("latency", 0) or 0)
        fault_rate = float(params.get("faults", 0) or 0)
    except (ValueError, KeyError) as exc:
        raise ModelSpecError(f"bad options for scripted:{name}: {exc}") from exc
    if fault_rate:
        policy = faulty(policy, fault_rate, _policy_seed(task, seed))
        retry = RetryPolicy(
            attempts=retry.attempts, initial_s=float(params.get("retry_wait", 0.01)), max_s=0.05
        )
    cls = retrying_class(ScriptedChatModel, retry)
    return cls(
        policy=policy,
        name_=name,
        latency=latency,
        structured=params.get("structured", "1") not in ("0", "false"),
    )


def supports_structured_output(model: BaseChatModel) -> bool:
    """Whether ``with_structured_output`` is usable; roles fall back to a text protocol if not."""
    try:
        model.with_structured_output({"title": "Probe", "type": "object", "properties": {}}, include_raw=True)
    except (NotImplementedError, ValueError, TypeError, AttributeError):
        return False
    return True
