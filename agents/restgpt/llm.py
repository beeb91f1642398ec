"""Calling a chat model for one role: structured output when possible, a text protocol otherwise.

Why both: hosted chat models and the embedded llama.cpp server return schema-valid JSON through
``with_structured_output(schema, include_raw=True)``, which removes RestGPT's fragile regex routing
(restbench.md §4 defect 13); plain-text models (and ``scripted:...?structured=0``) follow the paper's
text protocol instead. In text mode the reply is cut client-side at the role's stop markers, so a
model that keeps writing ("Response: ...") can never supply its own observation (defect 10, the
fabricated Sofia Coppola id of upstream issue #19).

Every reply is annotated in the trace with what was parsed or why parsing failed; a parse failure is
returned to the caller as data (``RoleReply.error``), never raised.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig
from pydantic import BaseModel

from restgraph.agents.models import supports_structured_output
from restgraph.agents.parsing import ParseError
from restgraph.tools.events import parse_outcome

#: messages carry their role here (not sent to providers); scripted policies read it
ROLE_KEY = "restgraph_role"


@dataclass
class RoleReply:
    parsed: Any
    raw: str
    error: str | None = None
    #: the endpoint keys a selector's prompt listed, when it was given a shortlist (None: the whole
    #: spec); the executor accepts only these, so a choice the selector was not shown gets NOT_IN_LIST
    shown: tuple[str, ...] | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and self.parsed is not None


def cut_at_stops(text: str, stops: Sequence[str]) -> str:
    """Everything before the first stop marker (the model must not continue past it)."""
    cut = len(text)
    for marker in stops:
        at = text.find(marker)
        if at >= 0:
            cut = min(cut, at)
    return text[:cut]


def uses_structured(model: BaseChatModel, preference: bool | None) -> bool:
    if preference is not None:
        return preference
    return supports_structured_output(model)


def role_messages(role: str, system: str, user: str) -> list[Any]:
    """A system and a user message; only the user message when there is no system text (the upstream
    pack sends the original completion prompt as one user message)."""
    tag = {ROLE_KEY: role}
    human = HumanMessage(user, additional_kwargs=tag)
    return [SystemMessage(system, additional_kwargs=tag), human] if system else [human]


def message_role(messages: Sequence[Any]) -> str:
    """The role a prompt was built for ('' if unknown); used by scripted policies."""
    for message in messages:
        role = (getattr(message, "additional_kwargs", None) or {}).get(ROLE_KEY)
        if role:
            return str(role)
    return ""


def _text(message: Any) -> str:
    content = getattr(message, "content", message)
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") if isinstance(p, dict) else str(p) for p in content)
    return str(content or "")


def _dump(value: Any) -> Any:
    return value.model_dump() if isinstance(value, BaseModel) else value


async def call_role(
    model: BaseChatModel,
    *,
    role: str,
    system: str,
    user: str,
    schema: type[BaseModel] | None = None,
    text_parser: Callable[[str], Any] | None = None,
    stop: Sequence[str] = (),
    structured: bool | None = None,
) -> RoleReply:
    """One model call for ``role``; returns the parsed decision or the parse error (recorded)."""
    messages = role_messages(role, system, user)
    config: RunnableConfig = {"metadata": {"role": role}, "run_name": role}
    if schema is not None and uses_structured(model, structured):
        out = await model.with_structured_output(schema, include_raw=True).ainvoke(messages, config=config)
        raw_msg = out.get("raw") if isinstance(out, dict) else None
        raw = _text(raw_msg) if raw_msg is not None else ""
        parsed = out.get("parsed") if isinstance(out, dict) else out
        if parsed is not None:
            if isinstance(parsed, dict):
                try:
                    parsed = schema.model_validate(parsed)
                except ValueError as exc:
                    return _fallback(raw_msg, raw, text_parser, stop, f"schema: {exc}")
            parse_outcome(raw_msg, parsed=_dump(parsed), role=role)
            return RoleReply(parsed, raw)
        error = out.get("parsing_error") if isinstance(out, dict) else None
        return _fallback(raw_msg, raw, text_parser, stop, f"structured output: {error}")
    reply: AIMessage = await model.ainvoke(messages, stop=list(stop) or None, config=config)
    raw = cut_at_stops(_text(reply), stop)
    if text_parser is None:
        parse_outcome(reply, parsed=raw, role=role)
        return RoleReply(raw, raw)
    return _fallback(reply, raw, text_parser, stop, None)


def _fallback(
    reply: Any,
    raw: str,
    text_parser: Callable[[str], Any] | None,
    stop: Sequence[str],
    first_error: str | None,
) -> RoleReply:
    """Parse ``raw`` (the text of the model message ``reply``) with the text protocol (also the
    rescue path for malformed structured replies); the outcome is reported for ``reply``."""
    if text_parser is not None:
        try:
            parsed = text_parser(cut_at_stops(raw, stop))
        except (ParseError, ValueError) as exc:
            error = f"{first_error}; text protocol: {exc}" if first_error else str(exc)
            parse_outcome(reply, parse_error=error)
            return RoleReply(None, raw, error)
        parse_outcome(reply, parsed=_dump(parsed), parse_error=first_error)
        return RoleReply(parsed, raw)
    parse_outcome(reply, parse_error=first_error or "no parser")
    return RoleReply(None, raw, first_error or "no parser")
