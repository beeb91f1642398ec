"""RestGPT's program-aided response parser (restbench.md §3.5), and the w/o-parser reader.

Stages, each one model call, at most ``budget.parser_attempts`` of them per response:
1. no schema or no ``output_instructions``: the model summarises the raw JSON, done;
2. the model writes Python from the (narrowed) schema alone, run on ``data`` in the sandbox;
3. if that printed nothing or failed: new code from a 500-token sample of the actual JSON;
4. if that failed too: the model reads the JSON, cut to 2,000 tokens *of the original body*
   (upstream reused the 500-token cut, defect 7), and answers in prose;
5. output over 500 tokens is cut and repaired by the postprocess prompt (one extra call).

Model-written code runs only through ``restgraph.tools.pyexec.run_python`` (subprocess, time and memory
limits, no network, no file writes, imports limited to json/re/math) and each run is recorded in
the trace as a ``python`` tool call (defect 5: upstream used in-process ``exec``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from restgraph.agents.restgpt.context import RoleContext
from restgraph.agents.restgpt.protocol import CallerDecision, ParserCode, parse_code
from restgraph.agents.restgpt.templates import render
from restgraph.tools.openapi.client import HttpResult
from restgraph.tools.openapi.reduce import ReducedEndpoint, cut_tokens, narrow_search_schema
from restgraph.tools.pyexec import run_python

ALLOWED_MODULES = {"json", "re", "math"}


@dataclass
class Parsed:
    text: str
    stage: str  # summary | code_schema | code_sample | read | simple | limit
    attempts: int


def response_schema(endpoint: ReducedEndpoint | None, params: dict[str, Any] | None) -> dict[str, Any] | None:
    """The schema the parser sees; Spotify ``GET /search`` is narrowed to the requested types (on a copy)."""
    if endpoint is None:
        return None
    if endpoint.key == "GET /search":
        return narrow_search_schema(endpoint.response_schema, (params or {}).get("type"))
    return endpoint.response_schema


def schema_text(schema: dict[str, Any], tokens: int) -> str:
    body = schema.get("properties", schema) if isinstance(schema, dict) else schema
    if isinstance(schema, dict) and schema.get("type") == "array":
        body = {"(array of)": schema.get("items", {})}
    return cut_tokens(json.dumps(body, ensure_ascii=False), tokens)


def request_context(description: str, instructions: str, params: Any) -> str:
    return f"Description: {description}\nParameters: {json.dumps(params, ensure_ascii=False, default=str)}\nQuery: {instructions}\n"


async def _call(ep: RoleContext, template: str, user: str, **kwargs: Any) -> Any:
    system = render(template, ep.config, scenario=ep.scenario)
    return await ep.call("parser", system, user, structured=ep.config.structured, **kwargs)


async def _run_code(ep: RoleContext, code: str, data: Any, name: str) -> str | None:
    result = await run_python(
        code,
        inputs={"data": data},
        timeout_s=ep.config.code_timeout_s,
        memory_mb=ep.config.code_memory_mb,
        allowed_modules=ALLOWED_MODULES,
        name=name,
    )
    out = result.stdout.strip()
    return out if result.ok and out else None


async def _read(ep: RoleContext, prompt: str, body: str, context: str, tokens: int) -> str:
    reply = await _call(ep, prompt, f"{context}Response: {cut_tokens(body, tokens)}\nAnswer:")
    return str(reply.parsed or reply.raw).strip()


async def _postprocess(ep: RoleContext, text: str) -> str:
    limit = ep.config.parser_output_tokens
    if len(text) <= limit * 4:
        return text
    reply = await _call(ep, "parser_postprocess", f"Text: {cut_tokens(text, limit, suffix='')}\nRewritten:")
    return str(reply.parsed or reply.raw).strip() or cut_tokens(text, limit)


async def parse_response(
    ep: RoleContext,
    *,
    endpoint: ReducedEndpoint | None,
    result: HttpResult,
    params: Any,
    description: str,
    output_instructions: str,
) -> Parsed:
    """Turn one successful JSON response into the short text the caller reads."""
    cap = ep.config.budget.parser_attempts
    attempts = 0
    data, body = result.json, result.text
    context = request_context(description, output_instructions, params)
    schema = response_schema(endpoint, params if isinstance(params, dict) else None)
    if data is None:  # not JSON: nothing to run code on
        return Parsed(cut_tokens(body, ep.config.parser_read_tokens), "raw", 0)
    if schema is None or not (output_instructions or "").strip():
        text = await _read(ep, "parser_summarize", body, context, ep.config.parser_read_tokens)
        return Parsed(await _postprocess(ep, text), "summary", 1)
    stages = [
        (
            "code_schema",
            "parser_code_schema",
            f"Schema: {schema_text(schema, ep.config.parser_schema_tokens)}\n",
        ),
        (
            "code_sample",
            "parser_code_response",
            f"Schema: {schema_text(schema, ep.config.parser_schema_tokens)}\n"
            f"Response sample: {cut_tokens(body, ep.config.parser_sample_tokens)}\n",
        ),
    ]
    for stage, prompt, extra in stages:
        if attempts >= cap:
            break
        attempts += 1
        reply = await _call(ep, prompt, f"{extra}{context}Code:", schema=ParserCode, text_parser=parse_code)
        if reply.ok:
            out = await _run_code(ep, reply.parsed.code, data, name=f"restgpt-parser:{stage}")
            if out:
                return Parsed(await _postprocess(ep, out), stage, attempts)
    if attempts < cap:
        attempts += 1
        text = await _read(ep, "parser_llm_read", body, context, ep.config.parser_read_tokens)
        if text:
            return Parsed(await _postprocess(ep, text), "read", attempts)
    return Parsed(
        f"The response could not be parsed within {cap} parser attempts (budget parser_attempts). Start of the response: {cut_tokens(body, 100)}",
        "limit",
        attempts,
    )


async def simple_parse(
    ep: RoleContext, *, result: HttpResult, params: Any, description: str, output_instructions: str
) -> Parsed:
    """The w/o-parser ablation (``SimpleResponseParser``): the model reads the JSON *text* (not token
    ids, defect 6), cut to 1,000 tokens."""
    if result.json is None and not result.text.strip():
        return Parsed("success, no content", "simple", 0)
    text = await _read(
        ep,
        "parser_simple",
        result.text,
        request_context(description, output_instructions, params),
        ep.config.simple_parser_tokens,
    )
    return Parsed(text, "simple", 1)


async def parse(
    ep: RoleContext,
    *,
    decision: CallerDecision,
    result: HttpResult,
    plan_endpoint: str | None = None,
    **_: Any,
) -> str:
    """The parser role's act: the program-aided parser, or the w/o-parser reader (``use_parser=0``)."""
    args: dict[str, Any] = {
        "result": result,
        "params": decision.params if decision.params else decision.data,
        "description": decision.description,
        "output_instructions": decision.output_instructions or "",
    }
    if ep.config.use_parser:
        return (await parse_response(ep, endpoint=ep.spec.get(result.template or ""), **args)).text
    return (await simple_parse(ep, **args)).text
