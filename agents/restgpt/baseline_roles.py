"""Roles of the paper's baselines (restbench.md §5): ReAct step, Reflexion reflector, DEPS
describe / explain / plan / select, and the Offline planner and answer writer.

They plug into the same executor as RestGPT (``graphs/restgpt_executor.py``), so only planning
differs between agents, as in the paper. Same conventions as ``roles.py``: templates in
``prompts/``, structured output or a text protocol, parse failures returned as data. The upstream
pack reuses these acts with RestGPT's text protocol (``text_protocol=True``) and, for the three
planning roles, a prompt framed from RestGPT's selector (``frame=``, ``upstream/baselines.py``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, Literal

from pydantic import BaseModel

from restgraph.agents.parsing import ParseError
from restgraph.agents.prompt_template import placeholders
from restgraph.agents.restgpt.context import RoleContext, endpoint_lines, json_hint
from restgraph.agents.restgpt.llm import RoleReply
from restgraph.agents.restgpt.protocol import (
    Reflection,
    StepList,
    call_start,
    endpoint_in_plan,
    parse_reflection,
    parse_steps,
)
from restgraph.agents.restgpt.templates import render, template_text

_FINAL = re.compile(r"final\s+answer\s*[:：]?\s*", re.IGNORECASE)


class ReactDecision(BaseModel):
    """One decision: either one API call (``action``) or the final answer (DEPS select)."""

    kind: Literal["action", "final_answer"]
    thought: str = ""
    action: str = ""
    answer: str = ""


def parse_select_line(text: str) -> ReactDecision:
    """DEPS select: one 'METHOD /path purpose' line, or 'Final Answer: ...'."""
    text = text.replace("**", "").strip()
    final = _FINAL.search(text)
    if final and endpoint_in_plan(text[: final.start()]) is None:
        return ReactDecision(kind="final_answer", answer=text[final.end() :].strip())
    for line in text.splitlines():
        start = call_start(line)
        if start is not None:
            return ReactDecision(kind="action", action=line[start:].strip())
    raise ParseError(f"no 'METHOD /path' line and no 'Final Answer:' in: {text[:200]!r}")


def _listing(title: str, items: Sequence[str]) -> str:
    return f"{title}:\n" + ("\n".join(f"- {i}" for i in items) if items else "(none)") + "\n"


#: a planning role's prompt: (episode, role, live user text) -> (system message, user message)
PlanFrame = Callable[[RoleContext, str, str], tuple[str, str]]


def template_frame(ep: RoleContext, role: str, user: str) -> tuple[str, str]:
    """This project's planning prompt: the role's template (with the endpoint list when it asks
    for one; ``deps_select`` plans from the steps) as the system message."""
    shows_endpoints = "endpoints" in placeholders(template_text(role, ep.config), "dollar")
    values = {"endpoints": endpoint_lines(ep)} if shows_endpoints else {}
    return render(role, ep.config, scenario=ep.scenario, **values), user


def _structured(ep: RoleContext, text_protocol: bool) -> bool | None:
    return bool(ep.config.structured) if text_protocol else ep.config.structured


def _hint(ep: RoleContext, fields: str, text_protocol: bool) -> str:
    return json_hint(ep, fields, text_unless_forced=text_protocol)


async def _plan_call(
    ep: RoleContext, role: str, user: str, frame: PlanFrame, text_protocol: bool, **kwargs: Any
) -> RoleReply:
    system, prompt = frame(ep, role, user)
    return await ep.call(role, system, prompt, structured=_structured(ep, text_protocol), **kwargs)


async def _plain(ep: RoleContext, role: str, template: str, user: str, text_protocol: bool) -> RoleReply:
    system = render(template, ep.config, scenario=ep.scenario)
    return await ep.call(role, system, user, structured=_structured(ep, text_protocol))


async def reflect(
    ep: RoleContext,
    *,
    query: str,
    transcript: Sequence[tuple[str, str]],
    answer: str | None,
    text_protocol: bool = False,
    **_: Any,
) -> RoleReply:
    user = (
        f"Query: {query}\n"
        + "".join(f"{step}\nObservation: {obs}\n" for step, obs in transcript)
        + f"Answer given: {answer or '(none)'}\n"
    )
    user += _hint(ep, '{"success": true | false, "reflection": "..."}', text_protocol)
    return await ep.call(
        "reflect",
        render("reflexion", ep.config, scenario=ep.scenario),
        user,
        structured=_structured(ep, text_protocol),
        schema=Reflection,
        text_parser=parse_reflection,
    )


async def deps_describe(
    ep: RoleContext, *, query: str, step: str, result: str, text_protocol: bool = False, **_: Any
) -> RoleReply:
    user = f"Query: {query}\nStep: {step}\nExecutor report: {result}\nDescription:"
    return await _plain(ep, "deps_describe", "deps_describe", user, text_protocol)


async def deps_explain(
    ep: RoleContext, *, query: str, step: str, description: str, text_protocol: bool = False, **_: Any
) -> RoleReply:
    user = f"Query: {query}\nFailed step: {step}\nDescription: {description}\nExplanation:"
    return await _plain(ep, "deps_explain", "deps_explain", user, text_protocol)


async def deps_plan(
    ep: RoleContext,
    *,
    query: str,
    descriptions: Sequence[str],
    explanation: str | None,
    frame: PlanFrame = template_frame,
    text_protocol: bool = False,
    **_: Any,
) -> RoleReply:
    user = (
        f"Query: {query}\n"
        + _listing("Done so far", descriptions)
        + (f"Explanation of the last failure: {explanation}\n" if explanation else "")
        + "Remaining plan:"
    )
    user += _hint(ep, '{"steps": ["METHOD /path purpose", "..."]}', text_protocol)
    return await _plan_call(
        ep, "deps_plan", user, frame, text_protocol, schema=StepList, text_parser=parse_steps
    )


async def deps_select(
    ep: RoleContext,
    *,
    query: str,
    plan: Sequence[str],
    descriptions: Sequence[str],
    frame: PlanFrame = template_frame,
    text_protocol: bool = False,
    **_: Any,
) -> RoleReply:
    user = (
        f"Query: {query}\n"
        + _listing("Done so far", descriptions)
        + _listing("Current plan", plan)
        + "Next step:"
    )
    user += _hint(
        ep,
        '{"kind": "action" | "final_answer", "action": "METHOD /concrete/path purpose", "answer": "..."}',
        text_protocol,
    )
    return await _plan_call(
        ep, "deps_select", user, frame, text_protocol, schema=ReactDecision, text_parser=parse_select_line
    )


async def offline_plan(
    ep: RoleContext, *, query: str, frame: PlanFrame = template_frame, text_protocol: bool = False, **_: Any
) -> RoleReply:
    user = f"Query: {query}\nPlan:" + _hint(ep, '{"steps": ["METHOD /path purpose", "..."]}', text_protocol)
    return await _plan_call(
        ep, "offline_plan", user, frame, text_protocol, schema=StepList, text_parser=parse_steps
    )


async def offline_answer(
    ep: RoleContext,
    *,
    query: str,
    results: Sequence[tuple[str, str]],
    text_protocol: bool = False,
    **_: Any,
) -> RoleReply:
    user = f"Query: {query}\n" + "".join(f"Step: {s}\nResult: {r}\n" for s, r in results) + "Answer:"
    return await _plain(ep, "offline_answer", "offline_answer", user, text_protocol)
