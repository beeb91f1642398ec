"""``scripted:browser-oracle``: a task-aware scripted policy that browses like a person who knows
where the answer is.

For an ``assistantbench-local`` task it follows the task's plan (``restgraph.tools.browser.sites.tasks``),
turning each abstract step ("select 'Maple Bay' in the Town combobox") into a concrete action by
finding the element's ref in the observation it is shown, so it exercises the real page, refs and
actions. Any other task (e.g. an AssistantBench validation task) gets the gold answer at once.
A prompt that is neither the browsing policy's nor the closed-book one raises
``UnknownRoleError`` instead of answering from the gold.
It is stateless: the step index is the number of actions already listed in the prompt, so model
retries cannot desynchronise it.

Options: ``?style=text`` replies with one-line commands instead of JSON (exercises the plain-text
protocol), ``?give_up=1`` abstains while browsing but answers the closed-book prompt (exercises
the ``browser+cb`` fallback).
"""

from __future__ import annotations

import json
import re
from typing import Any

from langchain_core.messages import BaseMessage

from restgraph.agents.browser.closed_book import CLOSED_BOOK_MARKER
from restgraph.agents.browser.policy import POLICY_MARKER
from restgraph.agents.scripted import register_scripted
from restgraph.evals.oracles.errors import UnknownRoleError
from restgraph.tools.browser.sites.tasks import TASKS_BY_ID
from restgraph.tools.trace_schema import Task

_HISTORY_ITEM = re.compile(r"^(\d+)\. ", re.M)


def plan_for(task: Task | None) -> list[tuple[Any, ...]]:
    if task is None:
        return [("answer", "")]
    local = TASKS_BY_ID.get(task.metadata.get("local_id", task.id))
    if local is not None:
        return local.plan
    return [("answer", str(task.gold.get("answer") or ""))]


def _actions_taken(prompt: str) -> int:
    section = prompt.split("Previous actions:", 1)[-1].split("Current page:", 1)[0]
    numbers = [int(n) for n in _HISTORY_ITEM.findall(section)]
    return max(numbers, default=0)


def find_ref(observation: str, role: str, name: str) -> str | None:
    match = re.search(rf'{re.escape(role)} "{re.escape(name)}"[^\n]*?\[ref=(\w+)\]', observation)
    return match.group(1) if match else None


def resolve(step: tuple[Any, ...], observation: str) -> dict[str, Any]:
    """One plan step -> one action dict, looking refs up in the current observation."""
    kind = step[0]
    if kind in ("goto",):
        return {"action": "goto", "url": step[1]}
    if kind == "search":
        return {"action": "search", "query": step[1]}
    if kind == "back":
        return {"action": "back"}
    if kind == "answer":
        return {"action": "answer", "text": step[1]}
    role, name = {"select": ("combobox", step[1]), "type": ("textbox", step[1]), "click": (step[1], step[2])}[
        kind
    ]
    ref = find_ref(observation, role, name)
    if ref is None:
        return {"action": "answer", "text": "", "thought": f"oracle: no {role} named {name!r} on this page"}
    if kind == "select":
        return {"action": "select", "ref": ref, "value": step[2]}
    if kind == "type":
        return {"action": "type", "ref": ref, "text": step[2], "submit": bool(step[3])}
    return {"action": "click", "ref": ref}


def as_text(action: dict[str, Any]) -> str:
    """The same action as a one-line command (the plain-text protocol)."""
    name = action["action"]
    if name == "click":
        return f"click {action['ref']}"
    if name == "type":
        return f"type {action['ref']} {json.dumps(action['text'])}" + (
            " submit" if action.get("submit") else ""
        )
    if name == "select":
        return f"select {action['ref']} {json.dumps(action['value'])}"
    if name in ("goto", "search"):
        return f"{name} {action.get('url') or action.get('query')}"
    if name == "answer":
        return f"answer: {action['text']}"
    return name


def _oracle(task: Task | None, params: dict[str, str]):
    plan = plan_for(task)
    final = next((str(s[1]) for s in plan if s[0] == "answer"), "")
    give_up = params.get("give_up") in ("1", "true")
    text_style = params.get("style") == "text"

    def policy(messages: list[BaseMessage]) -> str:
        prompt = "\n".join(str(m.content) for m in messages)
        if CLOSED_BOOK_MARKER in prompt:
            return f"I recall this one.\nThe final answer is: {final}"
        if POLICY_MARKER not in prompt:
            raise UnknownRoleError(
                "scripted:browser-oracle answers only the browsing policy's and the closed-book prompts"
            )
        if give_up:
            action: dict[str, Any] = {"action": "answer", "text": "", "thought": "giving up"}
        else:
            index = _actions_taken(prompt)
            step = plan[index] if index < len(plan) else ("answer", final)
            action = resolve(step, prompt.split("Current page:", 1)[-1])
        if text_style:
            return as_text(action)
        return json.dumps({"thought": action.pop("thought", f"plan step {action['action']}"), **action})

    return policy


register_scripted("browser-oracle", _oracle)
