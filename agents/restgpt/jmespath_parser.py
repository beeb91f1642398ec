"""A parser role that asks the model for one JMESPath expression instead of Python code.

Why: RestGPT's parser runs model-written Python (in a sandbox here). A JMESPath expression
(https://jmespath.org) cannot loop, import or print; it only selects and reshapes JSON, and the
``jmespath`` library evaluates it in process. It is an ablation a researcher can run by name
(agent ``restgpt-jmespath-parser``) or plug into any RestGPT-family builder
(``roles={"parser": JMESPATH_PARSER}``); it replaces the parser and nothing else.

One call per attempt: the model sees the response schema, a sample of the response and what the
caller wants (``output_instructions``), and writes an expression. A multiselect hash
(``{name: expr, ...}``) is shown as one ``name = value`` line per key, anything else as JSON. An
expression that does not compile, fails or selects nothing is retried with the error shown, at
most ``budget.parser_attempts`` times; a response without a JSON body goes back as text.
"""

from __future__ import annotations

import json
from typing import Any

import jmespath
from jmespath.exceptions import JMESPathError
from pydantic import BaseModel

from restgraph.agents.parsing import ParseError, strip_fences
from restgraph.agents.restgpt.context import RoleContext
from restgraph.agents.restgpt.parser import request_context, response_schema, schema_text
from restgraph.agents.restgpt.protocol import CallerDecision
from restgraph.agents.restgpt.role import Role
from restgraph.tools.openapi.client import HttpResult
from restgraph.tools.openapi.reduce import cut_tokens

SYSTEM = """You extract information from a JSON response of the {scenario} API with one JMESPath expression.
Write only the expression, on one line, no code fences and no explanation.
Prefer a multiselect hash that names each value, e.g. {{"id": results[0].id, "title": results[0].title}}.
Quote keys that are not plain identifiers with double quotes."""

#: where the reply ends (the model must not go on to invent the result)
STOP = ("\nResult:",)


class JMESPathExpression(BaseModel):
    """One JMESPath expression over the response's JSON."""

    expression: str


def parse_expression(text: str) -> JMESPathExpression:
    """The model's reply as an expression that compiles (``ParseError`` otherwise)."""
    expr = strip_fences(text).strip()
    if expr.lower().startswith("jmespath:"):
        expr = expr.split(":", 1)[1].strip()
    if expr.startswith("`") and expr.endswith("`") and expr.count("`") == 2:
        expr = expr[1:-1].strip()
    if not expr:
        raise ParseError("no JMESPath expression in parser output")
    try:
        jmespath.compile(expr)
    except JMESPathError as exc:
        raise ParseError(f"not a JMESPath expression: {str(exc).splitlines()[0]}") from exc
    return JMESPathExpression(expression=expr)


def shown(value: Any) -> str:
    """What the caller reads: ``name = value`` lines for a multiselect hash, else the JSON."""
    if isinstance(value, dict) and value:
        return "\n".join(f"{key} = {json.dumps(item, ensure_ascii=False)}" for key, item in value.items())
    return json.dumps(value, ensure_ascii=False)


async def parse(
    ep: RoleContext,
    *,
    decision: CallerDecision,
    result: HttpResult,
    plan_endpoint: str | None = None,
    **_: Any,
) -> str:
    """The role's act: ask for an expression, evaluate it on the response, retry on failure."""
    config = ep.config
    if result.json is None:
        return cut_tokens(result.text, config.parser_read_tokens)
    params = decision.params if decision.params else decision.data
    schema = response_schema(ep.spec.get(result.template or ""), params if isinstance(params, dict) else None)
    user = (
        (f"Schema: {schema_text(schema, config.parser_schema_tokens)}\n" if schema else "")
        + f"Response sample: {cut_tokens(result.text, config.parser_sample_tokens)}\n"
        + request_context(decision.description, decision.output_instructions or "", params)
    )
    system = SYSTEM.format(scenario=ep.scenario)
    note = ""
    for _attempt in range(config.budget.parser_attempts):
        reply = await ep.call(
            "parser",
            system,
            f"{user}{note}JMESPath:",
            structured=config.structured,
            schema=JMESPathExpression,
            text_parser=parse_expression,
            stop=STOP,
        )
        if not reply.ok:
            note = f"Your last reply was not usable ({reply.error}).\n"
            continue
        expr = reply.parsed.expression
        try:
            value = jmespath.search(expr, result.json)
        except JMESPathError as exc:
            note = f"{expr} failed: {str(exc).splitlines()[0]}\n"
            continue
        if value is None or value == [] or value == {}:
            note = f"{expr} selected nothing; check the names against the schema.\n"
            continue
        return cut_tokens(shown(value), config.parser_output_tokens)
    return (
        f"The response could not be parsed within {config.budget.parser_attempts} parser attempts "
        f"(budget parser_attempts). Start of the response: {cut_tokens(result.text, 100)}"
    )


#: the role, with this project's conventions (JSON bodies go to the parser); recorded with the
#: hash of its source, as it belongs to neither ready-made pack
JMESPATH_PARSER = Role(parse, pack="jmespath", name="jmespath.parser")
