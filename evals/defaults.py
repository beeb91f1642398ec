"""Run options a benchmark or an agent fills in when the user did not: published decoding, step budget.

- ``Benchmark.decoding``: the model options the paper used (RestBench: temperature 0, ``max_tokens``
  256 for TMDB and 700 for Spotify, as RestGPT's run scripts set them); ``-M key=value`` (and
  ``--temperature``) override them.
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
    if options.max_steps is None:
        budget = agent.step_budget(options.agent_options) if agent.step_budget is not None else None
        update["max_steps"] = int(budget or DEFAULT_MAX_STEPS)
    return options.model_copy(update=update) if update else options
