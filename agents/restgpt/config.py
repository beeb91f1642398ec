"""One config object for a RestGPT-family episode: loop budgets, ablation switches, prompt overrides.

It is recorded in the trace (the graphs put ``config.model_dump()`` in their first state update), so
a run's budgets are always visible next to its results. Every loop of every graph is bounded by a
field here; an episode that runs out ends with status ``budget_exhausted`` and the budget's name
in ``error`` (restbench.md §4 defect 3: upstream's Continue loop and selector retry were unbounded).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

#: scenarios the original RestGPT has in-context examples for
UPSTREAM_SCENARIOS = ("tmdb", "spotify")


class Budget(BaseModel):
    """Loop caps. Episode-level caps end the episode; per-sub-task caps end only that sub-task."""

    model_config = ConfigDict(extra="forbid")

    #: planner calls per episode (RestGPT: 15 outer iterations, Continue rounds uncounted upstream)
    planner_steps: int = Field(15, ge=1)
    #: selector re-asks after an unknown endpoint or unparseable output, per sub-task (upstream: unbounded)
    selector_retries: int = Field(3, ge=0)
    #: caller LLM steps per API plan (upstream: 15 operations); on hit, the sub-task result says
    #: "step limit reached" (defect 11)
    caller_iterations: int = Field(15, ge=1)
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

    ``prompt_pack`` picks the prompts: ``upstream`` (default; RestGPT's own texts, read from the
    pinned original files, ``agents/restgpt/upstream/``) or ``restgraph`` (this project's rewrite,
    ``agents/restgpt/prompts/``). ``prompts`` overrides single templates of the pack they belong to:
    upstream names (``PLANNER_PROMPT``, ``API_SELECTOR_PROMPT``, ``CALLER_PROMPT``, the parser's
    ``*_TEMPLATE``; ``{variables}``) or restgraph names (``planner``, ``selector``, ``caller``,
    ``parser_code_schema``...; ``$variables``), as text or a path to a file. ``-A prompts=upstream``,
    ``-A prompts=restgraph`` or ``-A prompts=PATH`` (a JSON object of overrides, or a folder of
    ``NAME.txt`` files) set both. ``structured`` forces (True) or forbids (False) structured
    output; None asks the model whether it supports it (the upstream pack uses the text protocol
    unless it is True).
    """

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)

    budget: Budget = Field(default_factory=Budget)
    use_planner: bool = True
    use_parser: bool = True
    structured: bool | None = None
    #: None: ``upstream`` for the scenarios upstream wrote prompts for (tmdb, spotify), else ``restgraph``
    prompt_pack: Literal["upstream", "restgraph"] | None = None
    prompts: dict[str, str] = Field(default_factory=dict)
    #: Reflexion: every trial starts from a fresh environment state (the sandbox's initial state)
    reflexion_reset: bool = True
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
        if "prompts" in options:
            options.update(prompt_options(options.pop("prompts")))
        budget = dict(options.pop("budget", {}) or {})
        for name in Budget.model_fields:
            if name in options:
                budget[name] = options.pop(name)
        fields = {k: _coerce(v) for k, v in options.items() if k in cls.model_fields and k != "budget"}
        return cls(budget=Budget(**{k: int(v) for k, v in budget.items()}), **fields)

    def for_scenario(self, scenario: str) -> RestGPTConfig:
        """This config with ``prompt_pack`` resolved for ``scenario`` (what the trace records)."""
        if self.prompt_pack is not None:
            return self
        return self.model_copy(update={"prompt_pack": "upstream" if scenario in UPSTREAM_SCENARIOS else "restgraph"})

    def graph_steps(self) -> int:
        """A LangGraph step budget no default episode reaches before its own budgets are spent.

        Every graph step but ``start``/``finish`` either makes an LLM call or follows one (a
        caller at its step cap, an executor step with nothing to parse, the offline plan's
        bookkeeping), so two steps per allowed LLM call plus the loops' own caps bound an episode."""
        b = self.budget
        return 2 * b.llm_calls + b.planner_steps + b.agent_steps * b.reflexion_trials + 10

    def prompt_override(self, name: str) -> str | None:
        text = self.prompts.get(name)
        if text is None:
            return None
        path = Path(text)
        if "\n" not in text and len(text) < 400 and path.suffix in (".txt", ".md") and path.is_file():
            return path.read_text(encoding="utf-8")
        return text


def prompt_options(value: Any) -> dict[str, Any]:
    """``prompts=upstream|restgraph|PATH|{...}`` -> ``prompt_pack`` and ``prompts`` overrides."""
    if isinstance(value, str) and value in ("upstream", "restgraph"):
        return {"prompt_pack": value}
    if isinstance(value, str):
        path = Path(value)
        if path.is_dir():
            value = {p.stem: p.read_text(encoding="utf-8") for p in sorted(path.glob("*.txt"))}
        elif path.is_file():
            value = json.loads(path.read_text(encoding="utf-8"))
        else:
            raise ValueError(f"prompts={value!r}: use upstream, restgraph, a JSON file of overrides or a folder of NAME.txt files")
    if not isinstance(value, dict):
        raise ValueError(f"prompts must be upstream, restgraph, a path or an object, got {type(value).__name__}")
    upstream = any(name.isupper() for name in value)
    return {"prompt_pack": "upstream" if upstream else "restgraph", "prompts": {str(k): str(v) for k, v in value.items()}}


def _coerce(value: Any) -> Any:
    if isinstance(value, str) and value.lower() in ("0", "false", "no", "off"):
        return False
    if isinstance(value, str) and value.lower() in ("1", "true", "yes", "on"):
        return True
    return value
