"""Run options a benchmark or an agent fills in when the user did not: published decoding, step budget.

- ``Benchmark.decoding``: the model options the paper used (RestBench: temperature 0, ``max_tokens``
  256 for TMDB and 700 for Spotify, as RestGPT's run scripts set them); ``-M key=value`` (and
  ``--temperature``) override them.
- ``api`` (models spoken to over the OpenAI protocol): ``chat``, or ``completions`` where the
  original would have used it (``restgraph.agents.completions.default_api``), so config.json says
  which protocol a run used.
- ``max_steps`` unset: the agent's own ``step_budget`` (derived from its loop budgets, so an episode
  spends its own budgets before LangGraph's recursion limit), else ``DEFAULT_MAX_STEPS``.

The resolved values are what ``config.json`` records.
"""

from __future__ import annotations

from typing import Any

DEFAULT_MAX_STEPS = 60


def resolve_run_options(options: Any, benchmark: Any, agent: Any) -> Any:
    update: dict[str, Any] = {}
    decoding = dict(getattr(benchmark, "decoding", {}) or {})
    if decoding and agent.needs_model:
        update["model_options"] = {**decoding, **options.model_options}
    model_options = update.get("model_options", options.model_options)
    if agent.needs_model and "api" not in model_options and _speaks_openai(options.model, model_options):
        from restgraph.agents.completions import default_api

        update["model_options"] = {**model_options, "api": default_api(options.model)}
    if options.max_steps is None:
        budget = agent.step_budget(options.agent_options) if agent.step_budget is not None else None
        update["max_steps"] = int(budget or DEFAULT_MAX_STEPS)
    return options.model_copy(update=update) if update else options


def _speaks_openai(spec: str, model_options: dict[str, Any]) -> bool:
    """Models reached over the OpenAI protocol, whose ``api`` (chat or completions) is recorded."""
    from restgraph.agents.model_options import model_kind

    kind = model_kind(spec)
    return kind in ("local", "openai") or (kind == "<provider>" and bool(model_options.get("base_url")))
