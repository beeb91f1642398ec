"""The browser policy role: from (task, history, observation) to one ``BrowserAction``.

Two protocols, chosen per model: structured output (``with_structured_output(BrowserDecision,
include_raw=True)``, grammar-constrained on the embedded llama.cpp model) and plain text parsed
tolerantly (a JSON object anywhere in the reply, BrowserGym-style aliases such as
``fill``/``go_back``/``send_msg_to_user``, or a one-line command like ``click e12``). A reply that
yields no action is reported with ``parse_outcome(reply, parse_error=...)`` and returned as
``None``; the graph decides what to do about it.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any, cast

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import ConfigDict, ValidationError

from restgraph.agents.parsing import ParseError, extract_json_object
from restgraph.agents.prompt_template import fill
from restgraph.tools.browser.actions import ACTION_NAMES, BrowserAction
from restgraph.tools.events import parse_outcome

PROMPTS = Path(__file__).parent / "prompts"
#: marker the scripted oracle uses to recognise the policy prompt
POLICY_MARKER = "You are a web-browsing assistant."

_ALIASES = {
    "fill": "type",
    "type_text": "type",
    "input": "type",
    "select_option": "select",
    "go_back": "back",
    "navigate": "goto",
    "open": "goto",
    "visit": "goto",
    "send_msg_to_user": "answer",
    "stop": "answer",
    "finish": "answer",
    "final_answer": "answer",
    "respond": "answer",
    "key": "press",
    "press_key": "press",
    "scroll_down": "scroll",
    "scroll_up": "scroll",
    "web_search": "search",
}
_COMMAND = re.compile(
    r"^\W*(?:action\s*:\s*)?("
    + "|".join(sorted({*ACTION_NAMES, *_ALIASES}, key=len, reverse=True))
    + r")\b[\s:(]*(.*)$",
    re.I | re.M,
)
_REF = re.compile(r"\[?(?:ref=)?\b([a-z]?\d*e\d+)\b\]?", re.I)
_QUOTED = re.compile(r"[\"']([^\"']*)[\"']")


def _thought_first(schema: dict[str, Any]) -> None:
    """Put ``thought`` first in the JSON schema's properties: structured output (OpenAI's tools, the
    llama.cpp grammar) generates fields in schema order, so the model reasons before it acts."""
    props = schema.get("properties", {})
    if "thought" in props:
        schema["properties"] = {
            "thought": props["thought"],
            **{k: v for k, v in props.items() if k != "thought"},
        }


class BrowserDecision(BrowserAction):
    """What the model returns: a short thought, then the action (thought first, so it reasons first)."""

    model_config = ConfigDict(json_schema_extra=_thought_first)

    thought: str = ""


@cache
def prompt(name: str) -> str:
    return (PROMPTS / f"{name}.md").read_text(encoding="utf-8")


def build_messages(instruction: str, observation: str, history: list[str], max_steps: int) -> list[Any]:
    recent = history[-10:]
    lines = (
        "\n".join(f"{i}. {h}" for i, h in enumerate(recent, start=len(history) - len(recent) + 1))
        or "(none yet)"
    )
    # the system prompt shows JSON (braces), so its one placeholder is <<max_steps>>
    system = fill(prompt("policy_system"), {"max_steps": max_steps}, syntax="angle", name="policy_system")
    user = fill(
        prompt("policy_user"),
        {"instruction": instruction, "history": lines, "observation": observation},
        name="policy_user",
    )
    return [SystemMessage(system), HumanMessage(user)]


def _normalise(data: dict[str, Any]) -> dict[str, Any]:
    data = {str(k).lower(): v for k, v in data.items()}
    name = str(data.get("action") or data.get("name") or data.get("type") or "").strip().lower()
    if isinstance(data.get("action"), dict):  # {"action": {"click": {...}}} or {"action": {"name": ...}}
        inner = data.pop("action")
        return _normalise({**data, **inner})
    name = _ALIASES.get(name, name)
    args = data.get("args") or data.get("arguments") or {}
    out = {**data, **(args if isinstance(args, dict) else {})}
    out["action"] = name
    if name == "scroll" and str(data.get("action", "")).lower() == "scroll_up":
        out["direction"] = "up"
    if name == "answer" and out.get("text") is None:
        out["text"] = out.get("answer", out.get("value", out.get("message", "")))
    for key in ("ref", "value", "text", "url", "query", "key"):
        if out.get(key) is not None and not isinstance(out[key], str):
            out[key] = str(out[key])
    return {k: v for k, v in out.items() if k in BrowserDecision.model_fields}


def _from_command(text: str) -> BrowserDecision:
    """``click e12`` / ``type e4 "hello" submit`` / ``goto /books/`` / ``answer: 42``."""
    matches = list(_COMMAND.finditer(text))
    if not matches:
        raise ParseError("no action found in the reply")
    name, rest = matches[-1].group(1).lower(), matches[-1].group(2).strip().rstrip(")")
    name = _ALIASES.get(name, name)
    data: dict[str, Any] = {"action": name}
    ref = _REF.search(rest)
    quoted = _QUOTED.findall(rest)
    if name in ("click", "type", "select"):
        if not ref:
            raise ParseError(f"{name} without an element ref")
        data["ref"] = ref.group(1)
        after = rest[ref.end() :].strip(" ,\"'")
        values = [q for q in quoted if q != ref.group(1)]
        if name != "click":
            data["text" if name == "type" else "value"] = (
                values[0] if values else re.sub(r"\bsubmit\b", "", after).strip(" ,")
            )
        data["submit"] = name == "type" and bool(re.search(r"submit|enter|true", after, re.I))
    elif name == "goto":
        data["url"] = rest.strip("'\" ")
    elif name == "search":
        data["query"] = quoted[0] if quoted else rest
    elif name == "press":
        data["key"] = (quoted[0] if quoted else rest) or "Enter"
    elif name == "scroll":
        data["direction"] = "up" if "up" in rest.lower() else "down"
    elif name == "answer":
        data["text"] = quoted[0] if quoted and rest.startswith(("'", '"')) else rest
    return BrowserDecision.model_validate(data)


def parse_decision(text: str) -> BrowserDecision:
    """Tolerant parse of a plain-text reply; raises ``ParseError`` with the reason."""
    try:
        return BrowserDecision.model_validate(_normalise(extract_json_object(text)))
    except (ParseError, ValidationError) as json_error:
        try:
            return _from_command(text)
        except (ParseError, ValidationError) as command_error:
            raise ParseError(f"{json_error}; {command_error}"[:500]) from command_error


async def decide(
    model: BaseChatModel, messages: list[Any], *, structured: bool
) -> tuple[BrowserDecision | None, str | None]:
    """One policy call. Returns ``(decision, None)`` or ``(None, parse_error)``."""
    raw_text = ""
    if structured:
        # include_raw=True: always a {raw, parsed, parsing_error} dict
        result = cast(
            dict[str, Any],
            await model.with_structured_output(BrowserDecision, include_raw=True).ainvoke(messages),
        )
        parsed = result.get("parsed")
        reply = result.get("raw")
        raw_text = reply.content if reply is not None and isinstance(reply.content, str) else ""
        if isinstance(parsed, BrowserDecision):
            parse_outcome(reply, parsed=parsed.model_dump(exclude_none=True), role="policy")
            return parsed, None
        if isinstance(parsed, dict):
            raw_text = raw_text or str(parsed)
    else:
        reply = await model.ainvoke(messages)
        raw_text = reply.content if isinstance(reply.content, str) else str(reply.content)
    try:
        decision = parse_decision(raw_text)
    except ParseError as exc:
        parse_outcome(reply, parse_error=str(exc), role="policy")
        return None, str(exc)
    parse_outcome(reply, parsed=decision.model_dump(exclude_none=True), role="policy")
    return decision, None
