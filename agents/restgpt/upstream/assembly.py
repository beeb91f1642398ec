"""How RestGPT assembled each prompt, rebuilt step by step from ``model/*.py`` (commit d990128).

Every function returns the exact text the original code passed to its completion model. The
templates come from the upstream files (``source.py``) and are filled the way LangChain's
``PromptTemplate`` fills them (``str.format``: ``{{``/``}}`` in a template become braces, values,
including the in-context examples, are inserted verbatim). Token cuts use text-davinci-003's
tokenizer (``restgraph.tools.tokenizer``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import yaml

from restgraph.agents.prompt_template import fill as fill_template
from restgraph.agents.restgpt.upstream import source
from restgraph.tools import tokenizer

PLANNER = "model/planner.py"
SELECTOR = "model/api_selector.py"
CALLER = "model/caller.py"
PARSER = "model/parser.py"

PLANNER_STOP = ("\nAPI response:", "\n\tAPI response:")
SELECTOR_STOP = ("\nAPI response:", "\n\tAPI response:")
CALLER_STOP = ("\nResponse:", "\n\tResponse:")
NOT_IN_LIST = "The API you called is not in the list of available APIs. Please use another API."

#: token limits of the original code (model/caller.py, model/parser.py)
CALLER_DOC_TOKENS = 1500
SCHEMA_TOKENS = 2500
SAMPLE_TOKENS = 500
READ_TOKENS = 2000
OUTPUT_TOKENS = 500
SIMPLE_TOKENS = 1000


def fill(text: str, **values: Any) -> str:
    """``str.format`` as PromptTemplate does, through ``restgraph.agents.prompt_template`` (a placeholder with
    no value is a clear error; an override template may leave values out, as upstream's could)."""
    return fill_template(
        text,
        {k: v if isinstance(v, str) else str(v) for k, v in values.items()},
        syntax="format",
        name="upstream prompt",
        optional=values,
    )


# -- planner ------------------------------------------------------------------------------------
def planner_scratchpad(history: Sequence[tuple[str, str]]) -> str:
    return "".join(
        f"Plan step {i}: {plan}\nAPI response: {result}\n"
        for i, (plan, result) in enumerate(history, start=1)
    )


def planner_prompt(
    scenario: str, query: str, history: Sequence[tuple[str, str]], template: str | None = None
) -> str:
    return fill(
        template or source.template(PLANNER, "PLANNER_PROMPT"),
        input=query,
        agent_scratchpad=planner_scratchpad(history),
        icl_examples=source.examples(PLANNER, scenario),
    )


# -- API selector -------------------------------------------------------------------------------
def selector_scratchpad(history: Sequence[tuple[str, str, str]], instruction: str | None) -> str:
    """``APISelector._construct_scratchpad``: every earlier round with its ``Instruction:`` (not the first's)."""
    if not history:
        return ""
    pad = ""
    for i, (plan, api_plan, result) in enumerate(history):
        if i != 0:
            pad += f"Instruction: {plan}\n"
        pad += f"API calling {i + 1}: {api_plan}\nAPI response: {result}\n"
    return pad + f"Instruction: {instruction}\n"


def selector_retry(raw_output: str) -> str:
    """What one rejected selector output adds to the scratchpad before it is asked again."""
    return raw_output + "\n" + NOT_IN_LIST + "\n"


def selector_prompt(
    scenario: str, endpoints: str, *, plan: str, background: str, scratchpad: str, template: str | None = None
) -> str:
    return fill(
        template or source.template(SELECTOR, "API_SELECTOR_PROMPT"),
        endpoints=endpoints,
        icl_examples=source.examples(SELECTOR, scenario),
        plan=plan,
        background=background,
        agent_scratchpad=scratchpad,
    )


# -- caller -------------------------------------------------------------------------------------
#: caller docs by (endpoint, repr of its docs): the YAML dump and its token cut are ~2-3 ms a call and
#: the same endpoint's docs are shown in every episode that calls it (bench/restgpt_episode_cost.py)
_CALLER_DOCS: dict[tuple[str, str], str] = {}


def caller_docs(name: str, docs: dict[str, Any]) -> str:
    """``== Docs for METHOD /path ==`` plus the reduced docs (without responses) as YAML, cut to 1,500 tokens."""
    shown = {k: v for k, v in docs.items() if k != "responses"}
    key = (name, repr(shown))
    if key not in _CALLER_DOCS:
        if len(_CALLER_DOCS) >= 4096:  # bounded: a spec has at most a few hundred endpoints
            _CALLER_DOCS.clear()
        text = tokenizer.cut(yaml.dump(shown), CALLER_DOC_TOKENS)
        _CALLER_DOCS[key] = f"== Docs for {name} == \n{text}\n"
    return _CALLER_DOCS[key]


def caller_scratchpad(steps: Sequence[tuple[str, str]]) -> str:
    return "".join(f"Thought: {output}\nResponse: {result}\n" for output, result in steps)


def caller_prompt(
    *,
    api_url: str,
    api_docs: str,
    background: str,
    api_plan: str,
    scratchpad: str,
    template: str | None = None,
) -> str:
    return fill(
        template or source.template(CALLER, "CALLER_PROMPT"),
        api_url=api_url,
        api_docs=api_docs,
        background=background,
        api_plan=api_plan,
        agent_scratchpad=scratchpad,
    )


# -- parser -------------------------------------------------------------------------------------
def response_content(docs: dict[str, Any] | None) -> dict[str, Any] | None:
    """The ``200`` response's JSON body description, or None (then upstream summarises with the LLM)."""
    responses = (docs or {}).get("responses")
    if not isinstance(responses, dict) or "content" not in responses:
        return None
    content = responses["content"]
    for media in ("application/json", "application/json; charset=utf-8"):
        if media in content and isinstance(content[media], dict) and "schema" in content[media]:
            return content[media]
    return None


def schema_text(content: dict[str, Any]) -> str:
    """The schema's properties as ``json.dumps(indent=4)``, cut to 2,500 tokens plus '...'."""
    schema = content["schema"]
    shown = schema["properties"] if isinstance(schema, dict) and "properties" in schema else schema
    return _indented_cut(json.dumps(shown))


@lru_cache(maxsize=4096)  # a spec has a few hundred response schemas
def _indented_cut(compact: str) -> str:
    """A schema's parser text, made once per schema (keyed by its compact JSON: ``indent=4`` runs
    json's pure-Python encoder, ~0.15 ms a TMDB response schema and ~2.3 parses an episode; the
    compact key its C one, ~0.01 ms). The same JSON values give the same ``indent=4`` text."""
    return tokenizer.cut(json.dumps(json.loads(compact), indent=4), SCHEMA_TOKENS, "...")


def api_param(params: Any, data: Any) -> str:
    return str(
        {
            "params": params if params is not None else "No parameters",
            "data": data if data is not None else "No request body",
        }
    )


#: which upstream file holds each template (the names ``-A prompts=...`` overrides use)
TEMPLATE_FILES = {
    "PLANNER_PROMPT": PLANNER,
    "API_SELECTOR_PROMPT": SELECTOR,
    "CALLER_PROMPT": CALLER,
    **{
        name: PARSER
        for name in (
            "CODE_PARSING_SCHEMA_TEMPLATE",
            "CODE_PARSING_RESPONSE_TEMPLATE",
            "LLM_PARSING_TEMPLATE",
            "LLM_SUMMARIZE_TEMPLATE",
            "POSTPROCESS_TEMPLATE",
        )
    },
}
