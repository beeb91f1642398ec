"""One config object for a RestGPT-family episode: loop budgets, ablation switches, prompt overrides.

It is recorded in the trace (the graphs put ``config.model_dump()`` in their first state update), so
a run's budgets are always visible next to its results. Every loop of every graph is bounded by a
field here; an episode that runs out ends with status ``budget_exhausted`` and the budget's name
in ``error`` (restbench.md §4 defect 3: upstream's Continue loop and selector retry were unbounded).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Budget(BaseModel):
    """Loop caps. Episode-level caps end the episode; per-sub-task caps end only that sub-task."""

    model_config = ConfigDict(extra="forbid")

    #: planner calls per episode (RestGPT: 15 outer iterations, Continue rounds uncounted upstream)
    planner_steps: int = Field(15, ge=1)
    #: selector re-asks after an unknown endpoint or unparseable output, per sub-task (upstream: unbounded)
    selector_retries: int = Field(3, ge=0)
    #: caller LLM steps per API plan; on hit, the sub-task result says "step limit reached" (defect 11)
    caller_iterations: int = Field(5, ge=1)
    #: parser LLM attempts per response (schema code, sample code, direct reading; repair is extra)
    parser_attempts: int = Field(3, ge=1)
    #: decision steps of the baselines' loops (ReAct steps, DEPS rounds, offline plan length)
    agent_steps: int = Field(10, ge=1)
    #: Reflexion trials (the paper: at most 2)
    reflexion_trials: int = Field(2, ge=1)
    #: LLM calls per episode, over all roles
    llm_calls: int = Field(80, ge=1)


class BudgetExceeded(RuntimeError):
    """Raised inside a node when a budget is spent; the node turns it into ``budget_exhausted``."""

    def __init__(self, budget: str, limit: int, detail: str = ""):
        self.budget, self.limit = budget, limit
        super().__init__(f"budget {budget}={limit} exhausted" + (f": {detail}" if detail else ""))


class RestGPTConfig(BaseModel):
    """Everything a RestGPT-family graph is built from, besides the model and the environment.

    ``prompts`` maps a template name (``planner``, ``selector``, ``caller``, ``parser_code_schema``...,
    see ``agents/restgpt/prompts/``) to replacement template text or a path to a file; ``$variables``
    are the same as in the shipped template. ``structured`` forces (True) or forbids (False) structured
    output; None asks the model whether it supports it.
    """

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)

    budget: Budget = Field(default_factory=Budget)
    use_planner: bool = True
    use_parser: bool = True
    structured: bool | None = None
    prompts: dict[str, str] = Field(default_factory=dict)
    #: reproduce upstream's reducer pitfalls (path-level params dropped, only 200 kept)
    faithful_reduction: bool = False
    #: caller docs cut (tokens, chars/4), parser schema cut, sample cut, direct-reading cut (§3.5)
    caller_doc_tokens: int = 1500
    parser_schema_tokens: int = 2500
    parser_sample_tokens: int = 500
    parser_read_tokens: int = 2000
    parser_output_tokens: int = 500
    simple_parser_tokens: int = 1000
    #: sandbox limits for parser code
    code_timeout_s: float = 5.0
    code_memory_mb: int = 256

    @classmethod
    def from_options(cls, options: dict[str, Any] | None) -> RestGPTConfig:
        """Build from registry/CLI agent options (``-A planner_steps=8 -A use_parser=0`` or nested ``budget``)."""
        options = dict(options or {})
        if isinstance(options.get("config"), RestGPTConfig):
            return options["config"]
        budget = dict(options.pop("budget", {}) or {})
        for name in Budget.model_fields:
            if name in options:
                budget[name] = options.pop(name)
        fields = {k: _coerce(v) for k, v in options.items() if k in cls.model_fields and k != "budget"}
        return cls(budget=Budget(**{k: int(v) for k, v in budget.items()}), **fields)

    def prompt_override(self, name: str) -> str | None:
        text = self.prompts.get(name)
        if text is None:
            return None
        path = Path(text)
        if "\n" not in text and len(text) < 400 and path.suffix in (".txt", ".md") and path.is_file():
            return path.read_text(encoding="utf-8")
        return text


def _coerce(value: Any) -> Any:
    if isinstance(value, str) and value.lower() in ("0", "false", "no", "off"):
        return False
    if isinstance(value, str) and value.lower() in ("1", "true", "yes", "on"):
        return True
    return value
