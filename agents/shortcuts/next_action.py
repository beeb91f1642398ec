"""The next-action role: one stateless call that proposes a workflow's next action.

Prompt packs (``-A prompts=``):
- ``upstream`` (default): ShortcutsBench's own templates and assembly, read at run time from the
  upstream files (``restgraph.tools.shortcuts.upstream_prompts``); Gemini-style models get upstream's single
  user turn ``"System: ..." + "\nUser: ..."``, every other model ``[system, user]``.
- ``restgraph``: the project's earlier paraphrase (``next_action_system.txt`` /
  ``next_action_user.txt``, ``<<name>>`` slots since API texts are full of braces).

The reply is free-form by default and goes through upstream's bracket parser
(``restgraph.tools.shortcuts.output.parse_reply``): a reply without a parseable ``{...}`` span is a
``json_error`` and scores as wrong, as in the paper. ``structured=True`` requests
``NEXT_ACTION_SCHEMA`` instead (a JSON-schema ``response_format``; grammar-constrained decoding on
the local model), which removes the format failures upstream counts. Either way the result is a
``BStep`` of the log schema: ``generated_by_agent`` or ``json_error``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any, cast

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from restgraph.tools.events import parse_outcome
from restgraph.tools.shortcuts.candidates import candidate_lines
from restgraph.tools.shortcuts.episode import history_json
from restgraph.tools.shortcuts.output import GENERATED, BStep, bstep_from_reply
from restgraph.tools.shortcuts.upstream_prompts import load_upstream_prompts

PROMPT_PACKS = ("upstream", "restgraph")

ROLE = "next_action"
_HERE = Path(__file__).parent

NEXT_ACTION_SCHEMA: dict[str, Any] = {
    "title": "NextAction",
    "description": "The next action of the Apple Shortcuts workflow.",
    "type": "object",
    "properties": {
        "Thought": {"type": "string"},
        "WFWorkflowActionIdentifier": {"type": "string"},
        "WFWorkflowActionParameters": {"type": "object"},
    },
    "required": ["Thought", "WFWorkflowActionIdentifier", "WFWorkflowActionParameters"],
}


class PromptTooLong(RuntimeError):
    """The prompt does not fit the configured budget; the query stops here (``truncated_at``)."""


@cache
def _template(name: str) -> str:
    return (_HERE / name).read_text(encoding="utf-8")


def render(template: str, **slots: str) -> str:
    for key, value in slots.items():
        template = template.replace(f"<<{key}>>", value)
    return template


def build_messages(
    query: str,
    candidates: Mapping[str, str],
    history: Sequence[Mapping[str, Any]],
    *,
    pack: str = "upstream",
    single_turn: bool = False,
) -> list[BaseMessage]:
    """The protocol's messages; ``candidates`` is the id-sorted table shown to the model."""
    if pack == "upstream":
        prompts = load_upstream_prompts()
        system, user = prompts.system(candidates), prompts.user(query, history)
        if single_turn:
            return [HumanMessage(prompts.single_turn(system, user))]
        return [SystemMessage(system), HumanMessage(user)]
    if pack != "restgraph":
        raise ValueError(f"unknown ShortcutsBench prompt pack {pack!r}; known: {', '.join(PROMPT_PACKS)}")
    system = render(
        _template("next_action_system.txt"),
        candidates=candidate_lines(candidates),
        candidate_ids=repr(list(candidates)),
    )
    user = render(_template("next_action_user.txt"), query=query, history=history_json(history))
    return [SystemMessage(system), HumanMessage(user)]


def approx_tokens(messages: Sequence[BaseMessage]) -> int:
    """Cheap token estimate (characters / 4), used only to refuse prompts that cannot fit."""
    return (
        sum(len(m.content) if isinstance(m.content, str) else len(json.dumps(m.content)) for m in messages)
        // 4
    )


def _raw_text(message: Any) -> str:
    if isinstance(message, AIMessage):
        if isinstance(message.content, str) and message.content.strip():
            return message.content
        if message.tool_calls:  # providers that answer structured requests with a tool call
            return json.dumps(message.tool_calls[0]["args"])
        return message.content if isinstance(message.content, str) else json.dumps(message.content)
    return "" if message is None else str(message)


async def propose_next_action(
    model: BaseChatModel,
    messages: list[BaseMessage],
    *,
    structured: bool = False,
    max_prompt_tokens: int | None = None,
) -> BStep:
    """One model call. Model errors propagate (the caller decides whether they end the query)."""
    if max_prompt_tokens is not None and approx_tokens(messages) > max_prompt_tokens:
        raise PromptTooLong(
            f"prompt of ~{approx_tokens(messages)} tokens exceeds max_prompt_tokens={max_prompt_tokens}"
        )
    error = None
    if structured:
        # include_raw=True: always a {raw, parsed, parsing_error} dict
        out = cast(
            dict[str, Any],
            await model.with_structured_output(NEXT_ACTION_SCHEMA, include_raw=True).ainvoke(messages),
        )
        parsed = out.get("parsed")
        reply = out.get("raw")
        if isinstance(parsed, dict):
            step = BStep(state=GENERATED, aseq=parsed)
            parse_outcome(reply, parsed=parsed, role=ROLE)
            return step
        step = bstep_from_reply(_raw_text(reply))
        error = out.get("parsing_error")
    else:
        reply = await model.ainvoke(messages)
        step = bstep_from_reply(_raw_text(reply))
    if step.state == GENERATED:
        parse_outcome(reply, parsed=step.aseq, role=ROLE)
    else:
        parse_outcome(reply, parse_error=f"json_error: {error or 'no JSON value in the reply'}", role=ROLE)
    return step
