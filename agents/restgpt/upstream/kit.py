"""The RestGPT roles with the original prompts (``-A prompts=upstream``, the default).

``UpstreamKit`` is a ``RoleKit`` whose planner, selector, caller and parser build upstream's exact
prompt (``assembly.py``) and send it as one user message with upstream's stop sequences, read the
reply with upstream's rules (``protocol.py``), and show official base URLs, as the original
deployment did (the HTTP tool maps them onto the sandbox). The graph's state supplies what the
original kept in local variables (planner history, the selector's rounds and rejected outputs,
the caller's steps), so the assembled text is the same.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

from restgraph.agents.restgpt.llm import RoleReply
from restgraph.agents.restgpt.protocol import CallerDecision, PlannerDecision, SelectorDecision
from restgraph.agents.restgpt.roles import RoleKit
from restgraph.agents.restgpt.upstream import assembly, protocol, source
from restgraph.agents.restgpt.upstream import parser as upstream_parser
from restgraph.agents.restgpt.upstream.reduce import UpstreamEndpoint, endpoint_listing, reduce_upstream
from restgraph.tools.openapi.client import HttpResult
from restgraph.tools.openapi.reduce import ReducedEndpoint

_REDUCED: dict[tuple[Any, ...], list[UpstreamEndpoint]] = {}


def upstream_endpoints(spec: dict[str, Any], scenario: str) -> list[UpstreamEndpoint]:
    """Upstream's reduction of the environment's spec, once per process and spec (Spotify merges ``allOf``)."""
    info = spec.get("info") or {}
    key = (scenario, info.get("title"), info.get("version"), tuple(spec.get("paths", {})))
    if key not in _REDUCED:
        if len(_REDUCED) > 16:
            _REDUCED.clear()
        _REDUCED[key] = reduce_upstream(spec, merge_allof=scenario == "spotify")
    return _REDUCED[key]


@dataclass
class UpstreamKit(RoleKit):
    endpoints: list[UpstreamEndpoint] = field(default_factory=list)
    #: without a planner the selector's "No API call needed. <answer>" is the episode's answer
    final_on_no_call: bool = True

    def attach(self, env: Any) -> None:
        self.endpoints = upstream_endpoints(env.spec, self.scenario)

    @property
    def structured(self) -> bool:
        return bool(self.config.structured)  # the text protocol unless -A structured=1

    @property
    def api_url(self) -> str:
        servers = self.spec.servers or [{"url": self.base_url}]
        return str(servers[0].get("url") or self.base_url)

    def docs(self, name: str) -> dict[str, Any]:
        return next((e.docs for e in self.endpoints if e.name == name), {"description": None})

    def template(self, variable: str) -> str | None:
        return self.config.prompts.get(variable) and self.config.prompt_override(variable)

    def upstream_template(self, file: str, variable: str, **values: Any) -> str:
        return assembly.fill(self.template(variable) or source.template(file, variable), **values)

    async def call(self, role: str, system: str, user: str, **kwargs: Any) -> RoleReply:
        kwargs.setdefault("structured", self.structured)
        return await super().call(role, system, user, **kwargs)

    async def ask(
        self, role: str, prompt: str, *, schema: Any, text_parser: Any, stop: Sequence[str]
    ) -> RoleReply:
        return await self.call(role, "", prompt, schema=schema, text_parser=text_parser, stop=stop)

    # -- roles ----------------------------------------------------------------------------------
    async def planner(self, *, query: str, history: Sequence[tuple[str, str]], **_: Any) -> RoleReply:
        prompt = assembly.planner_prompt(
            self.scenario, query, history, template=self.template("PLANNER_PROMPT")
        )
        return await self.ask(
            "planner",
            prompt,
            schema=PlannerDecision,
            text_parser=protocol.parse_planner,
            stop=assembly.PLANNER_STOP,
        )

    async def selector(
        self,
        *,
        subtask: str,
        background: str,
        rounds: Sequence[tuple[str, str, str]] = (),
        instruction: str | None = None,
        failures: Sequence[str] = (),
        **_: Any,
    ) -> RoleReply:
        pad = assembly.selector_scratchpad(rounds, instruction) + "".join(
            assembly.selector_retry(f) for f in failures
        )
        prompt = assembly.selector_prompt(
            self.scenario,
            endpoint_listing(self.endpoints),
            plan=subtask,
            background=background,
            scratchpad=pad,
            template=self.template("API_SELECTOR_PROMPT"),
        )
        return await self.ask(
            "selector",
            prompt,
            schema=SelectorDecision,
            text_parser=protocol.parse_selector,
            stop=assembly.SELECTOR_STOP,
        )

    async def caller(
        self, *, api_plan: str, background: str, endpoint: ReducedEndpoint, scratch: Sequence[str], **_: Any
    ) -> RoleReply:
        prompt = assembly.caller_prompt(
            api_url=self.api_url,
            api_docs=assembly.caller_docs(endpoint.key, self.docs(endpoint.key)),
            background=background,
            api_plan=api_plan,
            scratchpad="".join(scratch),
            template=self.template("CALLER_PROMPT"),
        )
        return await self.ask(
            "caller",
            prompt,
            schema=CallerDecision,
            text_parser=protocol.parse_caller,
            stop=assembly.CALLER_STOP,
        )

    # -- executor hooks -------------------------------------------------------------------------
    def scratch_entry(self, raw: str, decision: CallerDecision | None, observation: str) -> str:
        return assembly.caller_scratchpad([(raw, observation)])

    def parses(self, result: HttpResult) -> bool:
        """Upstream hands every response to the parser; one without a JSON body only when it is
        summarised (no ``200`` schema), as code cannot run on it."""
        return result.json is not None or assembly.response_content(self.docs(result.template or "")) is None

    async def parse_result(
        self, decision: CallerDecision, result: HttpResult, plan_endpoint: str | None
    ) -> str:
        name = result.template or ""
        docs = self.docs(name)
        if self.scenario == "spotify" and name == "GET /search" and plan_endpoint == "GET /search":
            docs = _narrow_search(docs, decision)
        args: dict[str, Any] = {
            "api_path": self.api_url + name.split(" ", 1)[-1],
            "docs": docs,
            "body": result.text,
            "query": decision.output_instructions,
            "description": decision.description,
            "api_param": assembly.api_param(decision.params, decision.data),
        }
        if not self.config.use_parser:
            return await upstream_parser.simple_parse(self, **args)
        return await upstream_parser.parse(self, data=result.json, **args)


def _narrow_search(docs: dict[str, Any], decision: CallerDecision) -> dict[str, Any]:
    """Spotify ``GET /search``: the parser sees only the searched ``{type}s`` (on a copy; several types allowed)."""
    wanted = (decision.params or {}).get("type") or (
        parse_qs(urlsplit(decision.url or "").query).get("type") or [""]
    )[0]
    content = assembly.response_content(docs)
    if not wanted or content is None:
        return docs
    props = (content.get("schema") or {}).get("properties") or {}
    kept = {
        f"{t.strip()}s": props[f"{t.strip()}s"] for t in str(wanted).split(",") if f"{t.strip()}s" in props
    }
    if not kept:
        return docs
    docs = copy.deepcopy(docs)
    narrowed = assembly.response_content(docs)
    if narrowed is not None:  # (it is: the original had content)
        narrowed["schema"]["properties"] = kept
    return docs
