"""RestGPT's ``ResponseParser`` and ``SimpleResponseParser`` (``model/parser.py``) with upstream prompts.

Same stages, same prompts, same token cuts as the original, so a model sees the same text:

1. no ``200`` body schema, or no ``output_instructions``: one LLM call reads the whole JSON
   (``LLM_SUMMARIZE_TEMPLATE`` / ``LLM_PARSING_TEMPLATE``), returned as is;
2. code from the schema (properties as JSON, cut to 2,500 tokens + '...'), run on ``data``;
3. nothing printed or an exception: code from the JSON cut to 500 tokens + '...', run again;
4. still nothing: the LLM reads the JSON (``LLM_PARSING_TEMPLATE``);
5. output over 500 tokens: cut to 500 and repaired with ``POSTPROCESS_TEMPLATE``.

Differences, all from restbench.md §4: code runs in ``restgraph.tools.pyexec``'s sandbox, not ``exec`` in
process (defect 5); stage 4 shows the body cut to 2,000 tokens of the *original* JSON (upstream
reused the 500-token sample when the body had 500-2,000 tokens, defect 7); the w/o-parser reader
sends the JSON text, never token ids (defect 6); Markdown fences around code are removed.
"""

from __future__ import annotations

from typing import Any

from restgraph.agents.parsing import strip_fences
from restgraph.agents.restgpt.context import RoleContext
from restgraph.agents.restgpt.protocol import ParserCode
from restgraph.agents.restgpt.upstream import assembly
from restgraph.agents.restgpt.upstream.episode import ask, template
from restgraph.tools import tokenizer
from restgraph.tools.pyexec import run_python

ALLOWED_MODULES = {"json", "re", "math"}


async def _llm(ep: RoleContext, prompt: str) -> str:
    reply = await ask(ep, "parser", prompt)
    return reply.raw


async def _code(ep: RoleContext, prompt: str) -> str:
    """A code-writing call: the reply is recorded in the trace as ``{"code": ...}``, and run as written."""
    reply = await ask(ep, "parser", prompt, text_parser=lambda raw: ParserCode(code=raw))
    return reply.raw


async def _run(ep: RoleContext, code: str, data: Any, stage: str) -> str | None:
    """What the code printed (untrimmed, as upstream's REPL returned it), None if it raised."""
    result = await run_python(
        strip_fences(code) if "```" in code else code,
        inputs={"data": data},
        timeout_s=ep.config.code_timeout_s,
        memory_mb=ep.config.code_memory_mb,
        allowed_modules=ALLOWED_MODULES,
        name=f"restgpt-parser:{stage}",
    )
    return result.stdout if result.ok else None


async def parse(
    ep: RoleContext,
    *,
    api_path: str,
    docs: dict[str, Any],
    body: str,
    data: Any,
    query: str | None,
    description: str,
    api_param: str,
) -> str:
    """``ResponseParser._call`` for one response (``data`` is the parsed JSON of ``body``)."""
    common = {"api_path": api_path, "api_description": docs.get("description"), "api_param": api_param}
    content = assembly.response_content(docs)
    if content is None or query is None:
        variable = "LLM_SUMMARIZE_TEMPLATE" if content is None else "LLM_PARSING_TEMPLATE"
        return await _llm(
            ep,
            template(
                ep,
                assembly.PARSER,
                variable,
                query=query,
                json=body,
                response_description=description,
                **common,
            ),
        )
    schema = assembly.schema_text(content)
    budget = ep.config.budget.parser_attempts
    prompt = template(
        ep,
        assembly.PARSER,
        "CODE_PARSING_SCHEMA_TEMPLATE",
        response_schema=schema,
        response_example="No example provided",
        response_description=description,
        query=query,
        **common,
    )
    output = await _run(ep, await _code(ep, prompt), data, "code_schema")
    if not output and budget >= 2:
        sample = tokenizer.cut(body, assembly.SAMPLE_TOKENS, "...")
        prompt = template(
            ep,
            assembly.PARSER,
            "CODE_PARSING_RESPONSE_TEMPLATE",
            response_schema=schema,
            json=sample,
            query=query,
            **common,
        )
        output = await _run(ep, await _code(ep, prompt), data, "code_sample")
    if not output and budget < 3:
        return f"The response could not be parsed within {budget} parser attempts (budget parser_attempts)."
    if not output:
        shown = tokenizer.cut(body, assembly.READ_TOKENS, "...")
        output = await _llm(
            ep,
            template(
                ep,
                assembly.PARSER,
                "LLM_PARSING_TEMPLATE",
                json=shown,
                query=query,
                response_description=description,
                **common,
            ),
        )
    return await postprocess(ep, output)


async def postprocess(ep: RoleContext, output: str) -> str:
    """Output over 500 tokens: its first 500 tokens, repaired by ``POSTPROCESS_TEMPLATE``."""
    if tokenizer.n_tokens(output) <= assembly.OUTPUT_TOKENS:
        return output
    truncated = tokenizer.cut(output, assembly.OUTPUT_TOKENS)
    return await _llm(ep, template(ep, assembly.PARSER, "POSTPROCESS_TEMPLATE", truncated_str=truncated))


async def simple_parse(
    ep: RoleContext,
    *,
    api_path: str,
    docs: dict[str, Any],
    body: str,
    query: str | None,
    description: str,
    api_param: str,
) -> str:
    """``SimpleResponseParser._call``: the LLM reads the JSON, cut to 1,000 tokens + '...' (text, not token ids)."""
    variable = "LLM_SUMMARIZE_TEMPLATE" if assembly.response_content(docs) is None else "LLM_PARSING_TEMPLATE"
    shown = body if query is None else tokenizer.cut(body, assembly.SIMPLE_TOKENS, "...")
    return await _llm(
        ep,
        template(
            ep,
            assembly.PARSER,
            variable,
            api_path=api_path,
            api_description=docs.get("description"),
            api_param=api_param,
            json=shown,
            query=query,
            response_description=description,
        ),
    )
