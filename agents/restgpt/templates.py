"""Prompt templates: the files in ``prompts/`` (``string.Template`` syntax, ``$name``), overridable.

``string.Template`` rather than ``str.format`` because the caller's examples are full of JSON
braces. A ``RestGPTConfig.prompts`` entry replaces a file's text (or names a file), so a notebook
user can try a different planner prompt without editing the package.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from restgraph.agents.prompt_template import fill
from restgraph.agents.restgpt.config import RestGPTConfig

PROMPT_DIR = Path(__file__).with_name("prompts")
SCENARIO_NAMES = {"tmdb": "TMDB (The Movie Database)", "spotify": "Spotify"}


@cache
def _shipped(name: str) -> str:
    path = PROMPT_DIR / f"{name}.txt"
    if not path.is_file():
        known = ", ".join(sorted(p.stem for p in PROMPT_DIR.glob("*.txt")))
        raise KeyError(f"no prompt template {name!r}; known: {known}")
    return path.read_text(encoding="utf-8")


def template_text(name: str, config: RestGPTConfig | None = None) -> str:
    override = config.prompt_override(name) if config is not None else None
    return override if override is not None else _shipped(name)


def examples(role: str, scenario: str, config: RestGPTConfig | None = None) -> str:
    """The role's worked examples for the scenario (none for scenarios without shipped examples)."""
    name = f"{role}_examples_{scenario}"
    if config is not None and name in config.prompts:
        return template_text(name, config)
    return _shipped(name) if (PROMPT_DIR / f"{name}.txt").is_file() else "(none)"


def render(name: str, config: RestGPTConfig | None = None, **values: object) -> str:
    """Fill a template (``restgraph.agents.prompt_template.fill``): a ``$name`` without a value is an error,
    never left in the prompt. A shipped template uses every value it is given; a user's override
    may use fewer."""
    values.setdefault(
        "scenario_name",
        SCENARIO_NAMES.get(str(values.get("scenario", "")), str(values.get("scenario", "the API"))),
    )
    overridden = config is not None and config.prompt_override(name) is not None
    optional = set(values) if overridden else {"scenario", "scenario_name"}
    return fill(template_text(name, config), values, syntax="dollar", name=name, optional=optional).strip()
