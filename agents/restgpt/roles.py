"""RestGPT's coarse-to-fine roles: planner, API selector and caller (the parser is in ``parser.py``).

``RoleKit`` holds what every role needs (model, config, scenario, reduced spec) and renders each
role's prompt from its template: the system message is the instructions plus the scenario's worked
examples, the user message is the live transcript in the paper's format (``User query:`` /
``Plan step n:`` / ``API response:``...). A user replaces a role by passing
``roles={"selector": my_selector}`` to the graph builder; ``my_selector(kit, **same_kwargs)`` must
return a ``RoleReply`` like the method it replaces.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import yaml
from langchain_core.language_models import BaseChatModel

from restgraph.agents.restgpt.config import RestGPTConfig
from restgraph.agents.restgpt.llm import RoleReply, call_role, uses_structured
from restgraph.agents.restgpt.meter import spend_llm_call
from restgraph.agents.restgpt.protocol import (
    CallerDecision,
    PlannerDecision,
    SelectorDecision,
    parse_caller,
    parse_planner,
    parse_selector,
)
from restgraph.agents.restgpt.templates import examples, render
from restgraph.tools.openapi.client import HttpResult
from restgraph.tools.openapi.reduce import ReducedEndpoint, ReducedSpec, cut_tokens

RoleFn = Callable[..., Awaitable[RoleReply]]

PLANNER_STOP = ("\nAPI response:",)
SELECTOR_STOP = ("\nAPI response:",)
CALLER_STOP = ("\nResponse:",)


def transcript(pairs: Sequence[tuple[str, str]], ask: str, answer: str) -> str:
    return "".join(f"{ask} {i}: {a}\n{answer}: {b}\n" for i, (a, b) in enumerate(pairs, start=1))


@dataclass
class RoleKit:
    model: BaseChatModel
    config: RestGPTConfig
    scenario: str
    spec: ReducedSpec
    base_url: str
    overrides: dict[str, RoleFn] = field(default_factory=dict)
    _docs: dict[str, str] = field(default_factory=dict, repr=False)

    @property
    def structured(self) -> bool:
        return uses_structured(self.model, self.config.structured)

    def endpoint_list(self) -> str:
        return "\n".join(f"{e.key}: {e.short_description}" for e in self.spec.endpoints)

    def render(self, name: str, **values: Any) -> str:
        return render(name, self.config, scenario=self.scenario, **values)

    async def run(self, role: str, **kwargs: Any) -> RoleReply:
        """Dispatch to a user override if one is registered for ``role``, else to the method."""
        if role in self.overrides:
            return await self.overrides[role](self, **kwargs)
        return await getattr(self, role)(**kwargs)

    def _json_hint(self, fields: str) -> str:
        return f"\n(Reply with a JSON object: {fields})" if self.structured else ""

    async def call(self, role: str, system: str, user: str, **kwargs: Any) -> RoleReply:
        spend_llm_call(role)
        kwargs.setdefault("structured", self.config.structured)
        return await call_role(self.model, role=role, system=system, user=user, **kwargs)

    # -- executor hooks (the upstream pack overrides them: agents/restgpt/upstream/kit.py) --------
    #: without a planner, does the selector's "No API call needed. <answer>" end the episode?
    final_on_no_call = False

    def attach(self, env: Any) -> None:
        """Called once by the graph builder with the episode's environment."""

    def scratch_entry(self, raw: str, decision: CallerDecision | None, observation: str) -> str:
        """How one caller step and what came back appear in the caller's transcript."""
        if decision is None:
            return f"Thought: {raw[:300]}\nResponse: {observation}\n"
        return caller_scratch_entry(decision, observation)

    def parses(self, result: HttpResult) -> bool:
        """Whether a successful response goes to the parser (else the caller reads the observation)."""
        return result.json is not None

    async def parse_result(
        self, decision: CallerDecision, result: HttpResult, plan_endpoint: str | None
    ) -> str:
        from restgraph.agents.restgpt.parser import parse_response, simple_parse

        args: dict[str, Any] = {
            "result": result,
            "params": decision.params if decision.params else decision.data,
            "description": decision.description,
            "output_instructions": decision.output_instructions or "",
        }
        if self.config.use_parser:
            return (await parse_response(self, endpoint=self.spec.get(result.template or ""), **args)).text
        return (await simple_parse(self, **args)).text

    # -- planner --------------------------------------------------------------------------------
    async def planner(self, *, query: str, history: Sequence[tuple[str, str]], **_: Any) -> RoleReply:
        system = self.render("planner", examples=examples("planner", self.scenario, self.config))
        user = f"User query: {query}\n{transcript(history, 'Plan step', 'API response')}Plan step {len(history) + 1}:"
        user += self._json_hint('{"kind": "next_step" | "continue" | "final_answer", "text": "..."}')
        return await self.call(
            "planner", system, user, schema=PlannerDecision, text_parser=parse_planner, stop=PLANNER_STOP
        )

    # -- selector -------------------------------------------------------------------------------
    async def selector(
        self,
        *,
        subtask: str,
        background: str,
        history: Sequence[tuple[str, str]],
        instruction: str | None = None,
        feedback: str | None = None,
        allow_final: bool = False,
        **_: Any,
    ) -> RoleReply:
        final_rule = (
            '- When the user query is fully answered, write "Final Answer:" followed by the answer.\n'
            if allow_final
            else ""
        )
        system = self.render(
            "selector",
            endpoints=self.endpoint_list(),
            examples=examples("selector", self.scenario, self.config),
            final_rule=final_rule,
        )
        user = f"Background: {background or 'No background'}\nUser query: {subtask}\n{transcript(history, 'API calling', 'API response')}"
        if instruction:
            user += f"Instruction: {instruction}\n"
        if feedback:
            user += f"Note: {feedback}\n"
        user += f"API calling {len(history) + 1}:"
        kinds = '"api_call" | "no_api_call"' + (' | "final_answer"' if allow_final else "")
        user += self._json_hint(
            '{"kind": ' + kinds + ', "plan": "METHOD /concrete/path purpose, or the answer"}'
        )
        return await self.call(
            "selector", system, user, schema=SelectorDecision, text_parser=parse_selector, stop=SELECTOR_STOP
        )

    # -- caller ---------------------------------------------------------------------------------
    def caller_docs(self, endpoint: ReducedEndpoint) -> str:
        """The endpoint's docs as YAML without responses, cut to ``caller_doc_tokens`` (cached per kit)."""
        if endpoint.key not in self._docs:
            docs = yaml.safe_dump(
                {endpoint.key: endpoint.docs()}, sort_keys=False, allow_unicode=True, width=120
            )
            self._docs[endpoint.key] = cut_tokens(docs, self.config.caller_doc_tokens)
        return self._docs[endpoint.key]

    async def caller(
        self, *, api_plan: str, background: str, endpoint: ReducedEndpoint, scratch: Sequence[str], **_: Any
    ) -> RoleReply:
        system = self.render("caller", base_url=self.base_url, api_docs=self.caller_docs(endpoint))
        user = (
            f"Background: {background or 'No background'}\nPlan: {api_plan}\n" + "".join(scratch) + "Thought:"
        )
        user += self._json_hint(
            '{"kind": "operation" | "execution_result", "thought": "...", "method": "GET", "url": "...", "params": {}, "data": null, '
            '"description": "...", "output_instructions": "...", "result": "the summary, for execution_result"}'
        )
        return await self.call(
            "caller", system, user, schema=CallerDecision, text_parser=parse_caller, stop=CALLER_STOP
        )


def caller_scratch_entry(decision: CallerDecision, observation: str) -> str:
    """How one executed operation appears in the caller's transcript."""
    payload: dict[str, Any] = {
        "url": decision.url,
        "description": decision.description,
        "output_instructions": decision.output_instructions,
    }
    if decision.params:
        payload["params"] = decision.params
    if decision.data is not None:
        payload["data"] = decision.data
    return f"Thought: {decision.thought}\nOperation: {decision.method}\nInput: {json.dumps(payload, ensure_ascii=False)}\nResponse: {observation}\n"


__all__ = [
    "CALLER_STOP",
    "PLANNER_STOP",
    "SELECTOR_STOP",
    "CallerDecision",
    "PlannerDecision",
    "RoleKit",
    "SelectorDecision",
    "caller_scratch_entry",
]
