"""What a role sees of the running episode: :class:`RoleContext` (a protocol) and :class:`Episode`.

Why a protocol: roles and the parsers are plain functions of the episode (``act(ep, **inputs)``),
so a user's role, a test's fake and the two ready-made packs need no common base class; they need
the model, the episode's config (resolved for its scenario), its reduced spec and environment, and
one way to call the model that counts the call against the episode's budget. :class:`Episode` is
the one the graphs make, once per episode, from LangGraph's runtime context
(``restgraph.graphs.restgpt_executor``).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any, Protocol

from langchain_core.language_models import BaseChatModel

from restgraph.agents.restgpt.config import RestGPTConfig
from restgraph.agents.restgpt.llm import RoleReply, call_role, uses_structured
from restgraph.agents.restgpt.meter import spend_llm_call
from restgraph.agents.restgpt.role import Role, RoleSet
from restgraph.tools.openapi.reduce import ReducedSpec


class RoleContext(Protocol):
    """The episode as a role sees it."""

    model: BaseChatModel
    config: RestGPTConfig
    scenario: str
    spec: ReducedSpec
    base_url: str
    env: Any
    #: per-episode memo for a role's derived texts (the caller's cut API docs...)
    cache: dict[str, Any]

    async def call(
        self, role: str, system: str, user: str, *, structured: bool | None, **kwargs: Any
    ) -> RoleReply: ...


@dataclass
class Episode:
    """One episode's model, config, spec and environment, and the role set its graph runs."""

    model: BaseChatModel
    config: RestGPTConfig
    scenario: str
    spec: ReducedSpec
    base_url: str
    env: Any
    roles: RoleSet
    cache: dict[str, Any] = field(default_factory=dict)

    async def call(
        self, role: str, system: str, user: str, *, structured: bool | None, **kwargs: Any
    ) -> RoleReply:
        """One model call for ``role``: spends one ``llm_calls`` of the budget first."""
        spend_llm_call(role)
        return await call_role(
            self.model, role=role, system=system, user=user, structured=structured, **kwargs
        )

    def role(self, name: str) -> Role:
        return self.roles[name]

    async def run(self, name: str, **inputs: Any) -> Any:
        """Run role ``name`` on ``inputs`` (what the graph's node hands it)."""
        return await self.roles[name].act(self, **inputs)


def prefers_structured(ep: RoleContext, *, text_unless_forced: bool) -> bool:
    """Whether a role's call asks for structured output: upstream-pack roles keep RestGPT's text
    protocol unless ``structured`` is 1; this project's roles ask the model when it is unset."""
    if text_unless_forced:
        return bool(ep.config.structured)
    return uses_structured(ep.model, ep.config.structured)


def json_hint(ep: RoleContext, fields: str, *, text_unless_forced: bool = False) -> str:
    """The line that tells a structured-output model which JSON object to write (none otherwise)."""
    structured = prefers_structured(ep, text_unless_forced=text_unless_forced)
    return f"\n(Reply with a JSON object: {fields})" if structured else ""


def endpoint_lines(ep: RoleContext, only: Collection[str] | None = None) -> str:
    """``KEY: short description`` per endpoint of the reduced spec (``only``: these keys, in order)."""
    endpoints = ep.spec.endpoints if only is None else [e for e in ep.spec.endpoints if e.key in only]
    return "\n".join(f"{e.key}: {e.short_description}" for e in endpoints)
