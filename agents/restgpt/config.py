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

from pydantic import BaseModel, ConfigDict, Field, create_model, field_validator

from restgraph.agents.restgpt.template_names import template_name
from restgraph.tools.options import AutoBool, Options

#: scenarios the original RestGPT has in-context examples for
UPSTREAM_SCENARIOS = ("tmdb", "spotify")


class Budget(BaseModel):
    """Loop caps. Episode-level caps end the episode; per-sub-task caps end only that sub-task."""

    model_config = ConfigDict(extra="forbid")

    planner_steps: int = Field(
        15,
        ge=1,
        description="planner calls per episode (RestGPT: 15 outer iterations, Continue rounds uncounted upstream)",
    )
    selector_retries: int = Field(
        3,
        ge=0,
        description="selector re-asks after an unknown endpoint or unparseable output, per sub-task (upstream: unbounded)",
    )
    caller_iterations: int = Field(
        15,
        ge=1,
        description="caller LLM steps per API plan (upstream: 15 operations); on hit, the sub-task result says 'step limit reached' (defect 11)",
    )
    parser_attempts: int = Field(
        3,
        ge=1,
        description="parser LLM attempts per response (schema code, sample code, direct reading; repair is extra)",
    )
    agent_steps: int = Field(
        10,
        ge=1,
        description="decision steps of the baselines' loops (ReAct steps, DEPS rounds, offline plan length)",
    )
    reflexion_trials: int = Field(2, ge=1, description="Reflexion trials (the paper: at most 2)")
    llm_calls: int = Field(80, ge=1, description="LLM calls per episode, over all roles")


class BudgetExceeded(RuntimeError):
    """Raised inside a node when a budget is spent; the node turns it into ``budget_exhausted``."""

    def __init__(self, budget: str, limit: int, detail: str = ""):
        self.budget, self.limit = budget, limit
        super().__init__(f"budget {budget}={limit} exhausted" + (f": {detail}" if detail else ""))


class RestGPTConfig(BaseModel):
    """Everything a RestGPT-family graph is built from, besides the model and the environment.

    ``prompt_pack`` picks the ready-made role set: ``upstream`` (default for TMDB and Spotify;
    RestGPT's own texts, read from the pinned original files, ``agents/restgpt/upstream/``) or
    ``restgraph`` (this project's rewrite, ``agents/restgpt/prompts/``). ``prompts`` overrides single
    templates by name, in any letter case: upstream names (``PLANNER_PROMPT``, ``API_SELECTOR_PROMPT``,
    ``CALLER_PROMPT``, the parser's ``*_TEMPLATE``; ``{variables}``) or restgraph names (``planner``,
    ``selector``, ``caller``, ``parser_code_schema``...; ``$variables``), as text or a path to a file.
    An override moves only the role its template belongs to onto that template's pack; every other
    role keeps ``prompt_pack`` (``agents/restgpt/packs.py``). ``-A prompts=upstream``, ``-A
    prompts=restgraph`` or ``-A prompts=PATH`` (a JSON object of overrides, or a folder of
    ``NAME.txt`` files) set the pack or the overrides. ``structured`` forces (True) or forbids
    (False) structured output; None asks the model whether it supports it (upstream-pack roles use
    the text protocol unless it is True).
    """

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)

    budget: Budget = Field(
        default_factory=Budget, description="every loop cap at once (JSON); a single cap by name overrides it"
    )
    use_planner: bool = Field(True, description="run the coarse planner (off: the no-planner ablation)")
    use_parser: bool = Field(
        True, description="parse responses with model-written code (off: the model reads raw JSON)"
    )
    structured: AutoBool = Field(
        None,
        description="structured output (1), the plain-text protocol (0), or ask the model (auto; the upstream pack uses text unless 1)",
    )
    prompt_pack: Literal["upstream", "restgraph"] | None = Field(
        None,
        description="upstream: RestGPT's own texts; restgraph: this project's rewrite; unset: upstream for tmdb/spotify, else restgraph",
    )
    prompts: dict[str, str] = Field(
        default_factory=dict,
        description="template name (any case) -> replacement text or a .txt/.md path; moves only that template's role",
    )
    reflexion_reset: bool = Field(
        True,
        description="Reflexion: every trial starts from a fresh environment state (the sandbox's initial state)",
    )
    faithful_reduction: bool = Field(
        False, description="reproduce upstream's reducer pitfalls (path-level params dropped, only 200 kept)"
    )
    caller_doc_tokens: int = Field(1500, ge=1, description="caller's API doc cut (tokens; §3.5)")
    parser_schema_tokens: int = Field(2500, ge=1, description="parser's response-schema cut (tokens)")
    parser_sample_tokens: int = Field(500, ge=1, description="parser's response-sample cut (tokens)")
    parser_read_tokens: int = Field(2000, ge=1, description="parser's direct-reading cut (tokens)")
    parser_output_tokens: int = Field(500, ge=1, description="cut of the parser's output (tokens)")
    simple_parser_tokens: int = Field(
        1000, ge=1, description="raw JSON the no-parser ablation reads (tokens)"
    )
    code_timeout_s: float = Field(5.0, gt=0, description="sandbox time limit for parser code (seconds)")
    code_memory_mb: int = Field(256, ge=16, description="sandbox memory limit for parser code (MiB)")

    @classmethod
    def from_options(cls, options: dict[str, Any] | None) -> RestGPTConfig:
        """Build from registry/CLI agent options (``-A planner_steps=8 -A use_parser=0``, nested
        ``budget``, ``prompts=upstream|restgraph|PATH|{...}``); unknown names and bad values raise
        (see :data:`RestGPTOptions`)."""
        options = dict(options or {})
        if isinstance(options.get("config"), RestGPTConfig):
            return options["config"]
        opts: Any = RestGPTOptions.model_validate(options)  # a model made by create_model: fields are dynamic
        budget = opts.budget.model_dump() if opts.budget is not None else {}
        budget.update({k: getattr(opts, k) for k in Budget.model_fields if k in opts.model_fields_set})
        fields = {k: getattr(opts, k) for k in cls.model_fields if k not in ("budget", "prompts")}
        if opts.prompts is not None:
            fields.update(prompt_options(opts.prompts))
        return cls(budget=Budget(**budget), **fields)

    def for_scenario(self, scenario: str) -> RestGPTConfig:
        """This config with ``prompt_pack`` resolved for ``scenario`` (what the trace records)."""
        if self.prompt_pack is not None:
            return self
        return self.model_copy(
            update={"prompt_pack": "upstream" if scenario in UPSTREAM_SCENARIOS else "restgraph"}
        )

    def graph_steps(self) -> int:
        """A LangGraph step budget no default episode reaches before its own budgets are spent.

        Every graph step but ``start``/``finish`` either makes an LLM call or follows one (a
        caller at its step cap, an executor step with nothing to parse, the offline plan's
        bookkeeping), so two steps per allowed LLM call plus the loops' own caps bound an episode."""
        b = self.budget
        return 2 * b.llm_calls + b.planner_steps + b.agent_steps * b.reflexion_trials + 10

    @field_validator("prompts")
    @classmethod
    def _canonical_names(cls, value: dict[str, str]) -> dict[str, str]:
        """Every key spelled as its template is (``planner_prompt`` -> ``PLANNER_PROMPT``); an
        unknown name is an error here, before any episode."""
        out: dict[str, str] = {}
        for key, text in value.items():
            name = template_name(key).name
            if name in out:
                raise ValueError(f"prompts: {name} is given twice (as {key!r} and another spelling)")
            out[name] = text
        return out

    def prompt_override(self, name: str) -> str | None:
        text = self.prompts.get(name)
        if text is None:
            return None
        path = Path(text)
        if "\n" not in text and len(text) < 400 and path.suffix in (".txt", ".md") and path.is_file():
            return path.read_text(encoding="utf-8")
        return text


def prompt_options(value: Any) -> dict[str, Any]:
    """``prompts=upstream|restgraph|PATH|{...}`` -> ``prompt_pack`` or ``prompts`` overrides (the
    overrides leave the pack alone: each moves only its own role, ``agents/restgpt/packs.py``)."""
    if isinstance(value, str) and value in ("upstream", "restgraph"):
        return {"prompt_pack": value}
    if isinstance(value, str):
        path = Path(value)
        if path.is_dir():
            value = {p.stem: p.read_text(encoding="utf-8") for p in sorted(path.glob("*.txt"))}
        elif path.is_file():
            value = json.loads(path.read_text(encoding="utf-8"))
        else:
            raise ValueError(
                f"prompts={value!r}: use upstream, restgraph, a JSON file of overrides or a folder of NAME.txt files"
            )
    if not isinstance(value, dict):
        raise ValueError(
            f"prompts must be upstream, restgraph, a path or an object, got {type(value).__name__}"
        )
    for key in value:
        template_name(str(key))  # an unknown name is an error before the run
    return {"prompts": {str(k): str(v) for k, v in value.items()}}


def _check_prompts(value: Any) -> Any:
    if value is not None:
        prompt_options(value)  # a missing path is an error before the run, not in every episode
    return value


#: The flat ``-A`` view of :class:`RestGPTConfig`: each budget cap by name (``planner_steps``...),
#: every switch, ``budget`` (all caps at once) and ``prompts`` (a pack name, a path or an object).
RestGPTOptions: type[Options] = create_model(  # type: ignore[call-overload]
    "RestGPTOptions",
    __base__=Options,
    __doc__="Agent options of the RestGPT family (RestGPT, its ablations and the baselines).",
    __validators__={"_prompts": field_validator("prompts")(_check_prompts)},
    budget=(Budget | None, Field(None, description=RestGPTConfig.model_fields["budget"].description)),
    **{name: (f.annotation, f) for name, f in Budget.model_fields.items()},
    **{
        name: (f.annotation, f)
        for name, f in RestGPTConfig.model_fields.items()
        if name not in ("budget", "prompts")
    },
    prompts=(
        str | dict[str, str] | None,
        Field(
            None,
            description="upstream | restgraph | a JSON file of overrides | a folder of NAME.txt files | an object of overrides (JSON)",
        ),
    ),
)
