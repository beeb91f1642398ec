"""Roles of the paper's baselines (restbench.md §5): ReAct step, Reflexion reflector, DEPS
describe / explain / plan / select, and the Offline planner and answer writer.

They plug into the same executor as RestGPT (``graphs/restgpt_executor.py``), so only planning
differs between agents, as in the paper. Same conventions as ``roles.py``: templates in
``prompts/``, structured output or a text protocol, parse failures returned as data.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel

from restgraph.agents.parsing import ParseError
from restgraph.agents.prompt_template import placeholders
from restgraph.agents.restgpt.llm import RoleReply
from restgraph.agents.restgpt.protocol import (
    Reflection,
    StepList,
    call_start,
    endpoint_in_plan,
    parse_reflection,
    parse_steps,
)
from restgraph.agents.restgpt.roles import RoleKit
from restgraph.agents.restgpt.templates import template_text

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


class BaselineKit(RoleKit):
    async def plan_call(self, role: str, user: str, **kwargs: Any) -> RoleReply:
        """A planning role's call (``deps_plan``, ``deps_select``, ``offline_plan``): the role's
        template, with the endpoint list, as the system message (the upstream pack overrides this)."""
        shows_endpoints = "endpoints" in placeholders(
            template_text(role, self.config), "dollar"
        )  # deps_select plans from the steps
        values = {"endpoints": self.endpoint_list()} if shows_endpoints else {}
        return await self.call(role, self.render(role, **values), user, **kwargs)

    async def reflect(
        self, *, query: str, transcript: Sequence[tuple[str, str]], answer: str | None
    ) -> RoleReply:
        user = (
            f"Query: {query}\n"
            + "".join(f"{step}\nObservation: {obs}\n" for step, obs in transcript)
            + f"Answer given: {answer or '(none)'}\n"
        )
        user += self._json_hint('{"success": true | false, "reflection": "..."}')
        return await self.call(
            "reflect", self.render("reflexion"), user, schema=Reflection, text_parser=parse_reflection
        )

    async def deps_describe(self, *, query: str, step: str, result: str) -> RoleReply:
        return await self.call(
            "deps_describe",
            self.render("deps_describe"),
            f"Query: {query}\nStep: {step}\nExecutor report: {result}\nDescription:",
        )

    async def deps_explain(self, *, query: str, step: str, description: str) -> RoleReply:
        return await self.call(
            "deps_explain",
            self.render("deps_explain"),
            f"Query: {query}\nFailed step: {step}\nDescription: {description}\nExplanation:",
        )

    async def deps_plan(
        self, *, query: str, descriptions: Sequence[str], explanation: str | None
    ) -> RoleReply:
        user = (
            f"Query: {query}\n"
            + _listing("Done so far", descriptions)
            + (f"Explanation of the last failure: {explanation}\n" if explanation else "")
            + "Remaining plan:"
        )
        user += self._json_hint('{"steps": ["METHOD /path purpose", "..."]}')
        return await self.plan_call("deps_plan", user, schema=StepList, text_parser=parse_steps)

    async def deps_select(self, *, query: str, plan: Sequence[str], descriptions: Sequence[str]) -> RoleReply:
        user = (
            f"Query: {query}\n"
            + _listing("Done so far", descriptions)
            + _listing("Current plan", plan)
            + "Next step:"
        )
        user += self._json_hint(
            '{"kind": "action" | "final_answer", "action": "METHOD /concrete/path purpose", "answer": "..."}'
        )
        return await self.plan_call("deps_select", user, schema=ReactDecision, text_parser=parse_select_line)

    async def offline_plan(self, *, query: str) -> RoleReply:
        user = f"Query: {query}\nPlan:" + self._json_hint('{"steps": ["METHOD /path purpose", "..."]}')
        return await self.plan_call("offline_plan", user, schema=StepList, text_parser=parse_steps)

    async def offline_answer(self, *, query: str, results: Sequence[tuple[str, str]]) -> RoleReply:
        user = f"Query: {query}\n" + "".join(f"Step: {s}\nResult: {r}\n" for s, r in results) + "Answer:"
        return await self.call("offline_answer", self.render("offline_answer"), user)
