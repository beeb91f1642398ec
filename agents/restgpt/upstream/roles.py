"""The RestGPT roles with the original prompts (the ``upstream`` pack, the default for TMDB/Spotify).

Each act builds upstream's exact prompt (``assembly.py``) and sends it as one user message with
upstream's stop sequences, reads the reply with upstream's rules (``protocol.py``), and shows
official base URLs, as the original deployment did (the HTTP tool maps them onto the sandbox).
The graph's state supplies what the original kept in local variables (planner history, the
selector's rounds and rejected outputs, the caller's steps), so the assembled text is the same.
The executor conventions of the pack (endpoint matching, caller transcript, which responses are
parsed) are here too; ``packs.py`` puts them on the roles.
"""

from __future__ import annotations

import copy
from collections.abc import Collection, Sequence
from typing import Any
from urllib.parse import parse_qs, urlsplit

from restgraph.agents.restgpt.context import RoleContext
from restgraph.agents.restgpt.llm import RoleReply
from restgraph.agents.restgpt.protocol import CallerDecision, PlannerDecision, SelectorDecision
from restgraph.agents.restgpt.upstream import assembly, protocol
from restgraph.agents.restgpt.upstream import parser as upstream_parser
from restgraph.agents.restgpt.upstream.episode import api_url, ask, docs, listing, override
from restgraph.agents.restgpt.upstream.episode import endpoints as endpoints_of
from restgraph.tools.openapi.client import HttpResult
from restgraph.tools.openapi.matching import matched_endpoints
from restgraph.tools.openapi.reduce import ReducedEndpoint


async def planner(ep: RoleContext, *, query: str, history: Sequence[tuple[str, str]], **_: Any) -> RoleReply:
    prompt = assembly.planner_prompt(ep.scenario, query, history, template=override(ep, "PLANNER_PROMPT"))
    return await ask(
        ep,
        "planner",
        prompt,
        schema=PlannerDecision,
        text_parser=protocol.parse_planner,
        stop=assembly.PLANNER_STOP,
    )


async def selector(
    ep: RoleContext,
    *,
    subtask: str,
    background: str,
    rounds: Sequence[tuple[str, str, str]] = (),
    instruction: str | None = None,
    failures: Sequence[str] = (),
    allow_final: bool = False,
    endpoints: Collection[str] | None = None,
    **_: Any,
) -> RoleReply:
    """Upstream's selector; without a planner (``allow_final``) its "No API call needed. <answer>"
    is the episode's answer, as in the original ReAct loop. ``endpoints``: the keys to list."""
    pad = assembly.selector_scratchpad(rounds, instruction) + "".join(
        assembly.selector_retry(f) for f in failures
    )
    prompt = assembly.selector_prompt(
        ep.scenario,
        listing(ep, endpoints),
        plan=subtask,
        background=background,
        scratchpad=pad,
        template=override(ep, "API_SELECTOR_PROMPT"),
    )
    reply = await ask(
        ep,
        "selector",
        prompt,
        schema=SelectorDecision,
        text_parser=protocol.parse_selector,
        stop=assembly.SELECTOR_STOP,
    )
    if allow_final and reply.ok and reply.parsed.kind == "no_api_call":
        reply.parsed = reply.parsed.model_copy(update={"kind": "final_answer"})
    if endpoints is not None:
        reply.shown = tuple(e.name for e in endpoints_of(ep) if e.name in endpoints)
    return reply


async def caller(
    ep: RoleContext,
    *,
    api_plan: str,
    background: str,
    endpoint: ReducedEndpoint,
    scratch: Sequence[str],
    **_: Any,
) -> RoleReply:
    prompt = assembly.caller_prompt(
        api_url=api_url(ep),
        api_docs=assembly.caller_docs(endpoint.key, docs(ep, endpoint.key)),
        background=background,
        api_plan=api_plan,
        scratchpad="".join(scratch),
        template=override(ep, "CALLER_PROMPT"),
    )
    return await ask(
        ep,
        "caller",
        prompt,
        schema=CallerDecision,
        text_parser=protocol.parse_caller,
        stop=assembly.CALLER_STOP,
    )


async def parse(
    ep: RoleContext,
    *,
    decision: CallerDecision,
    result: HttpResult,
    plan_endpoint: str | None = None,
    **_: Any,
) -> str:
    """Upstream's ``ResponseParser`` (or ``SimpleResponseParser`` with ``use_parser=0``) on one response."""
    name = result.template or ""
    shown = docs(ep, name)
    if ep.scenario == "spotify" and name == "GET /search" and plan_endpoint == "GET /search":
        shown = _narrow_search(shown, decision)
    args: dict[str, Any] = {
        "api_path": api_url(ep) + name.split(" ", 1)[-1],
        "docs": shown,
        "body": result.text,
        "query": decision.output_instructions,
        "description": decision.description,
        "api_param": assembly.api_param(decision.params, decision.data),
    }
    if not ep.config.use_parser:
        return await upstream_parser.simple_parse(ep, **args)
    return await upstream_parser.parse(ep, data=result.json, **args)


# -- the pack's executor conventions ------------------------------------------------------------
def match(plan: str, keys: Sequence[str]) -> str | None:
    """Upstream's endpoint matching: the first endpoint template the plan's text names."""
    found = matched_endpoints(plan, keys)
    return found[0] if found else None


def transcript(raw: str, decision: CallerDecision | None, observation: str) -> str:
    """Upstream's caller scratchpad: the raw reply, then ``Response:``."""
    return assembly.caller_scratchpad([(raw, observation)])


def accepts(ep: RoleContext, result: HttpResult) -> bool:
    """Upstream hands every response to the parser; one without a JSON body only when it is
    summarised (no ``200`` schema), as code cannot run on it."""
    return result.json is not None or assembly.response_content(docs(ep, result.template or "")) is None


def _narrow_search(shown: dict[str, Any], decision: CallerDecision) -> dict[str, Any]:
    """Spotify ``GET /search``: the parser sees only the searched ``{type}s`` (on a copy; several types allowed)."""
    wanted = (decision.params or {}).get("type") or (
        parse_qs(urlsplit(decision.url or "").query).get("type") or [""]
    )[0]
    content = assembly.response_content(shown)
    if not wanted or content is None:
        return shown
    props = (content.get("schema") or {}).get("properties") or {}
    kept = {
        f"{t.strip()}s": props[f"{t.strip()}s"] for t in str(wanted).split(",") if f"{t.strip()}s" in props
    }
    if not kept:
        return shown
    shown = copy.deepcopy(shown)
    narrowed = assembly.response_content(shown)
    if narrowed is not None:  # (it is: the original had content)
        narrowed["schema"]["properties"] = kept
    return shown
