"""Usage checks for names the CLI takes that no registry owns: model providers, ``--format`` and
``--layout`` values, ``list --options NAME``. Each returns the one-line message of a usage error
(with a "did you mean", ``restgraph.tools.suggest``) or None, so the CLI can refuse before any work starts.

Benchmark, agent, scripted-model, sandbox, option and task-id names get theirs from their own
registries (``restgraph.tools.plugins``, ``restgraph.tools.options``, ``restgraph.evals.selection``).
"""

from __future__ import annotations

from collections.abc import Sequence

from restgraph.tools.suggest import did_you_mean, unknown_name

#: model spec prefixes restgraph itself understands (agents.models)
OWN_PROVIDERS = ("local", "scripted", "replay", "openai", "none")


def providers() -> list[str]:
    """Ours plus every provider langchain's ``init_chat_model`` knows by name."""
    try:
        from langchain.chat_models.base import _BUILTIN_PROVIDERS  # private: a rename only loses suggestions

        known = list(_BUILTIN_PROVIDERS)
    except ImportError:
        known = []
    return sorted({*OWN_PROVIDERS, *known})


def provider_error(spec: str, base_url: str | None) -> str | None:
    """``opnai:gpt-4o`` is refused naming ``openai``. Skipped with ``--base-url`` (any OpenAI-compatible
    server then serves the model, whatever its name) and for specs without a provider prefix."""
    head = spec.strip().partition("?")[0]
    if base_url or ":" not in head:
        return None
    provider = head.partition(":")[0]
    known = providers()
    if provider in known or "/" in provider:  # a path-like name ("org/model:tag") is not a provider
        return None
    return unknown_name("model provider", provider, known) + " (form: <provider>:<model>)"


def choice_error(option: str, value: str, choices: Sequence[str]) -> str | None:
    """``--format parqet`` -> ``--format must be one of parquet, csv, not 'parqet' (did you mean 'parquet'?)``."""
    if value in choices:
        return None
    return f"{option} must be one of {', '.join(choices)}, not {value!r}{did_you_mean(value, choices)}"


def listing_names() -> list[str]:
    """Everything ``restgraph list --options NAME`` answers for."""
    from restgraph.agents.model_options import MODEL_KINDS
    from restgraph.evals.benchmark import benchmark_names
    from restgraph.graphs.registry import agent_names

    return [*benchmark_names(), *agent_names(), *(k for k in MODEL_KINDS if not k.startswith("<"))]
