"""``scripted:seeplanact-oracle``: a task-aware scripted model speaking SPA's and SeeAct's protocol.

For an ``assistantbench-local`` task it follows the task's plan (``restgraph.tools.browser.sites.tasks``)
the way those agents must be driven: the first call of each step gets a reply with the sections
the prompt asks for (for SPA: original plan, relevant information, refined plan; the plan step's
answer as ``Task answer:`` with "Terminating" at the end), the second call the grounding lines
``ELEMENT: <letter> / ACTION: <name> / VALUE: <value>``, the letter found by reading the
multiple-choice list in the prompt (a ``select`` by its options and parent text, a textbox by its
``aria-label``, a link or button by its text). So the agents' real prompt builders, parsers,
element extraction and executors all run. Plan steps map to SPA operations: goto -> GOTO (a
"/path": run the agent with ``-A goto_urls=resolve``), search -> SEARCH, type with submit ->
TYPE then PRESS ENTER, back -> GOBACK, answer -> TERMINATE. Other tasks get the gold answer at
once. The step index is the number of previous actions in the prompt, so retries cannot
desynchronise it. ``?give_up=1`` terminates at once with an empty answer.
"""

from __future__ import annotations

import re
from typing import Any

from langchain_core.messages import BaseMessage

from restgraph.agents.browser.seeplanact_source import load_texts
from restgraph.agents.scripted import register_scripted
from restgraph.evals.oracles.browser import plan_for
from restgraph.evals.oracles.errors import UnknownRoleError
from restgraph.tools.trace_schema import Task

_CHOICE = re.compile(r"^([A-Z]{1,2})\. (<(\S+)[^>]*>(.*)</\S+>)$", re.M)
_TAGS = {"link": "a", "button": "button"}


def spa_steps(plan: list[tuple[Any, ...]]) -> list[tuple[str, tuple[Any, ...] | None, str]]:
    """Plan steps -> (ACTION, element matcher or None, VALUE)."""
    out: list[tuple[str, tuple[Any, ...] | None, str]] = []
    for step in plan:
        kind = step[0]
        if kind == "goto":
            out.append(("GOTO", None, step[1]))
        elif kind == "search":
            out.append(("SEARCH", None, step[1]))
        elif kind == "back":
            out.append(("GOBACK", None, "None"))
        elif kind == "answer":
            out.append(("TERMINATE", None, str(step[1])))
        elif kind == "select":
            out.append(("SELECT", ("select", step[1], step[2]), step[2]))
        elif kind == "type":
            out.append(("TYPE", ("input", step[1]), step[2]))
            if step[3]:
                out.append(("PRESS ENTER", ("input", step[1]), "None"))
        elif kind == "click":
            out.append(("CLICK", ("tag", _TAGS.get(step[1], step[1]), step[2]), "None"))
    return out


def find_choice(prompt: str, matcher: tuple[Any, ...]) -> str | None:
    """The option letter of the element ``matcher`` describes, read from the multiple-choice list."""
    best = None
    for letter, _, tag, body in _CHOICE.findall(prompt):
        if (
            matcher[0] == "select"
            and tag == "select"
            and matcher[2] in body.split(" - Options: ", 1)[-1].split(" | ")
        ):
            if best is None or body.startswith(f"parent_node: {matcher[1].split()[0]}"):
                best = letter
        elif (
            matcher[0] == "input"
            and tag == "input"
            and f'aria-label="{matcher[1]}"' in body
            or matcher[0] == "tag"
            and tag == matcher[1]
            and body.strip() == matcher[2]
        ):
            return letter
    return best


def _previous_count(query: str) -> int:
    texts = load_texts()
    lines = query.split(texts.query.previous_header, 1)[-1].split("\n")
    return next((i for i, line in enumerate(lines) if not line.strip()), len(lines))


def _first_reply(planning: bool, index: int, action: str, value: str) -> str:
    answer = (
        f" Terminating, the task has been completed. Task answer: {value}" if action == "TERMINATE" else ""
    )
    if not planning:
        return (
            f"(Current Webpage Identification)\nThe page of step {index + 1}.{answer}\n\n(Next Action "
            f"Based on Webpage and Analysis)\n{action} next."
        )
    return (
        f"(Original plan)\n1. Follow the known route to the answer.\n\n(Current Webpage Identification)\nThe page of step {index + 1}.\n\n"
        f"(Relevant information)\nReached step {index + 1} of the route.\n\n(New refined plan)\nContinue the route.{answer}\n\n"
        f"(Next Action Based on Webpage and Analysis)\n{action} next."
    )


def seeplanact_oracle(task: Task | None, params: dict[str, str]):
    steps = spa_steps(plan_for(task)) if task is not None else [("TERMINATE", None, "")]
    if params.get("give_up") in ("1", "true"):
        steps = [("TERMINATE", None, '""')]
    texts = load_texts()

    def policy(messages: list[BaseMessage]) -> str:
        system = str(messages[0].content) if messages else ""
        if system not in (texts.spa_system, texts.seeact_system):
            raise UnknownRoleError("scripted:seeplanact-oracle answers only SPA's and SeeAct's prompts")
        first = messages[1].content
        head = first[0] if isinstance(first, list) and first else first
        query = str(head["text"]) if isinstance(head, dict) else str(head)
        index = _previous_count(query)
        action, matcher, value = steps[index] if index < len(steps) else steps[-1]
        if len(messages) == 2:
            return _first_reply(system == texts.spa_system, index, action, value)
        letter = find_choice(str(messages[-1].content), matcher) if matcher else "A"
        if letter is None:
            return "(Reiteration)\nThe element is not on this page.\n\nELEMENT: A\nACTION: NONE\nVALUE: None"
        shown = "None" if action == "TERMINATE" else value
        return f"(Reiteration)\nStep {index + 1}: {action}.\n\nELEMENT: {letter}\nACTION: {action}\nVALUE: {shown}"

    return policy


register_scripted("seeplanact-oracle", seeplanact_oracle)
