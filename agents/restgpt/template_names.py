"""Which role each prompt template belongs to, in which pack: the names ``-A prompts={...}`` accepts.

Why a table: an override must replace exactly the template it names and move exactly the role that
template belongs to onto that template's pack (its prompt assembly and syntax), whatever the case
the user wrote the name in. Guessing the pack for every role from the keys' letter case switched
all four roles when one lower-case key was given (issue 26). Unknown names are an error before the
run, never a silently ignored override.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal, NamedTuple

Pack = Literal["upstream", "restgraph"]

PROMPT_DIR = Path(__file__).with_name("prompts")

#: the roles of the RestGPT family, in the order records list them
ROLE_NAMES = (
    "planner",
    "selector",
    "caller",
    "parser",
    "reflect",
    "deps_plan",
    "deps_select",
    "deps_describe",
    "deps_explain",
    "offline_plan",
    "offline_answer",
)

#: upstream RestGPT's template variables (``model/*.py``, ``{format}`` syntax) and their role
UPSTREAM_TEMPLATES: dict[str, str] = {
    "PLANNER_PROMPT": "planner",
    "API_SELECTOR_PROMPT": "selector",
    "CALLER_PROMPT": "caller",
    "CODE_PARSING_SCHEMA_TEMPLATE": "parser",
    "CODE_PARSING_RESPONSE_TEMPLATE": "parser",
    "LLM_PARSING_TEMPLATE": "parser",
    "LLM_SUMMARIZE_TEMPLATE": "parser",
    "POSTPROCESS_TEMPLATE": "parser",
}

#: this project's template files (``prompts/NAME.txt``, ``$name`` syntax) whose role is not their prefix
_RESTGRAPH_ROLE = {"reflexion": "reflect"}


class TemplateName(NamedTuple):
    name: str  # canonical spelling (upstream: upper case; restgraph: the file's stem)
    pack: Pack
    role: str


def _restgraph_role(stem: str) -> str | None:
    if stem in _RESTGRAPH_ROLE:
        return _RESTGRAPH_ROLE[stem]
    for role in sorted(ROLE_NAMES, key=len, reverse=True):
        if stem == role or stem.startswith(role + "_"):
            return role
    return None


@cache
def restgraph_templates() -> dict[str, str]:
    """``prompts/*.txt`` stems -> role."""
    out = {}
    for path in sorted(PROMPT_DIR.glob("*.txt")):
        role = _restgraph_role(path.stem)
        if role is not None:
            out[path.stem] = role
    return out


def template_name(key: str) -> TemplateName:
    """The template ``key`` names (any letter case). Worked examples for a scenario without shipped
    ones (``planner_examples_myapi``) are restgraph templates of their role. ``ValueError`` names
    the known templates otherwise."""
    if key.upper() in UPSTREAM_TEMPLATES:
        return TemplateName(key.upper(), "upstream", UPSTREAM_TEMPLATES[key.upper()])
    stem = key.lower()
    ours = restgraph_templates()
    if stem in ours:
        return TemplateName(stem, "restgraph", ours[stem])
    for role in ("planner", "selector"):
        if stem.startswith(f"{role}_examples_") and len(stem) > len(role) + 10:
            return TemplateName(stem, "restgraph", role)
    known = ", ".join([*UPSTREAM_TEMPLATES, *ours])
    raise ValueError(f"no prompt template {key!r}; known: {known}")
