"""This project's RestGPT roles (the ``restgraph`` pack): planner, API selector and caller acts.

Each act renders its prompt from its template (``prompts/``): the system message is the
instructions plus the scenario's worked examples, the user message is the live transcript in the
paper's format (``User query:`` / ``Plan step n:`` / ``API response:``...). They are plain
functions of the episode (``restgraph.agents.restgpt.context.RoleContext``); ``packs.py`` makes them
roles. The parser's act is in ``parser.py``.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

import yaml

from restgraph.agents.restgpt.context import RoleContext, endpoint_lines, json_hint
from restgraph.agents.restgpt.llm import RoleReply
from restgraph.agents.restgpt.protocol import (
    CallerDecision,
    PlannerDecision,
    SelectorDecision,
    parse_caller,
    parse_planner,
    parse_selector,
)
from restgraph.agents.restgpt.templates import examples, render
from restgraph.tools.openapi.reduce import ReducedEndpoint, cut_tokens

PLANNER_STOP = ("\nAPI response:",)
SELECTOR_STOP = ("\nAPI response:",)
CALLER_STOP = ("\nResponse:",)


def transcript(pairs: Sequence[tuple[str, str]], ask: str, answer: str) -> str:
    return "".join(f"{ask} {i}: {a}\n{answer}: {b}\n" for i, (a, b) in enumerate(pairs, start=1))


def render_for(ep: RoleContext, name: str, **values: Any) -> str:
    return render(name, ep.config, scenario=ep.scenario, **values)


async def planner(ep: RoleContext, *, query: str, history: Sequence[tuple[str, str]], **_: Any) -> RoleReply:
    system = render_for(ep, "planner", examples=examples("planner", ep.scenario, ep.config))
    user = f"User query: {query}\n{transcript(history, 'Plan step', 'API response')}Plan step {len(history) + 1}:"
    user += json_hint(ep, '{"kind": "next_step" | "continue" | "final_answer", "text": "..."}')
    return await ep.call(
        "planner",
        system,
        user,
        structured=ep.config.structured,
        schema=PlannerDecision,
        text_parser=parse_planner,
        stop=PLANNER_STOP,
    )


async def selector(
    ep: RoleContext,
    *,
    subtask: str,
    background: str,
    history: Sequence[tuple[str, str]],
    instruction: str | None = None,
    feedback: str | None = None,
    allow_final: bool = False,
    endpoints: Collection[str] | None = None,
    **_: Any,
) -> RoleReply:
    """``endpoints``: the keys to list (a shortlist), all of the spec's when None."""
    final_rule = (
        '- When the user query is fully answered, write "Final Answer:" followed by the answer.\n'
        if allow_final
        else ""
    )
    system = render_for(
        ep,
        "selector",
        endpoints=endpoint_lines(ep, endpoints),
        examples=examples("selector", ep.scenario, ep.config),
        final_rule=final_rule,
    )
    user = f"Background: {background or 'No background'}\nUser query: {subtask}\n{transcript(history, 'API calling', 'API response')}"
    if instruction:
        user += f"Instruction: {instruction}\n"
    if feedback:
        user += f"Note: {feedback}\n"
    user += f"API calling {len(history) + 1}:"
    kinds = '"api_call" | "no_api_call"' + (' | "final_answer"' if allow_final else "")
    user += json_hint(ep, '{"kind": ' + kinds + ', "plan": "METHOD /concrete/path purpose, or the answer"}')
    reply = await ep.call(
        "selector",
        system,
        user,
        structured=ep.config.structured,
        schema=SelectorDecision,
        text_parser=parse_selector,
        stop=SELECTOR_STOP,
    )
    if endpoints is not None:
        reply.shown = tuple(e.key for e in ep.spec.endpoints if e.key in endpoints)
    return reply


def caller_docs(ep: RoleContext, endpoint: ReducedEndpoint) -> str:
    """The endpoint's docs as YAML without responses, cut to ``caller_doc_tokens`` (once per episode)."""
    key = f"caller_docs:{endpoint.key}"
    if key not in ep.cache:
        docs = yaml.safe_dump({endpoint.key: endpoint.docs()}, sort_keys=False, allow_unicode=True, width=120)
        ep.cache[key] = cut_tokens(docs, ep.config.caller_doc_tokens)
    return str(ep.cache[key])


async def caller(
    ep: RoleContext,
    *,
    api_plan: str,
    background: str,
    endpoint: ReducedEndpoint,
    scratch: Sequence[str],
    **_: Any,
) -> RoleReply:
    system = render_for(ep, "caller", base_url=ep.base_url, api_docs=caller_docs(ep, endpoint))
    user = f"Background: {background or 'No background'}\nPlan: {api_plan}\n" + "".join(scratch) + "Thought:"
    user += json_hint(
        ep,
        '{"kind": "operation" | "execution_result", "thought": "...", "method": "GET", "url": "...", "params": {}, "data": null, '
        '"description": "...", "output_instructions": "...", "result": "the summary, for execution_result"}',
    )
    return await ep.call(
        "caller",
        system,
        user,
        structured=ep.config.structured,
        schema=CallerDecision,
        text_parser=parse_caller,
        stop=CALLER_STOP,
    )


__all__ = ["CALLER_STOP", "PLANNER_STOP", "SELECTOR_STOP", "caller", "caller_docs", "planner", "selector"]
