"""``scripted:paper-oracle``: a scripted model that speaks the closed-book and retrieval-augmented
protocols of the AssistantBench paper (Fig. 17 / Fig. 18), and browses like
``scripted:browser-oracle`` when asked by the browsing policy (so one model serves an ensemble).

It recognises its role by the system prompt the agent sends (parsed from the paper, so a prompt
that is not the paper's is not recognised and raises ``UnknownRoleError``). Its behaviour is a
fixed rule, so a test can say what each agent must score:

- **closed-book** ("knowledge"): it knows the answer of every task that is not ``Hard``; on a
  ``Hard`` task CB-INST abstains ("The final answer is:" and nothing) and CB-1S, nudged by its
  example to always answer, guesses ``GUESS`` (wrong);
- **retrieval-augmented**: it asks ``query_for(task)`` first, then, if the answer is not yet
  ``evident`` in the contexts it was shown, one follow-up (the name of the first link the task's
  plan clicks); it answers only what the contexts show, else abstains. So its score measures
  retrieval: what the search backend returned for those questions.

Options: ``?give_up=1`` abstains while browsing (like ``browser-oracle``'s).
"""

from __future__ import annotations

import json
import re
from typing import Any

from langchain_core.messages import BaseMessage, SystemMessage

from restgraph.agents.browser.closed_book_paper import CB_FIGURE
from restgraph.agents.browser.paper_prompts import figure_prompt
from restgraph.agents.browser.ralm import RALM_FIGURE
from restgraph.agents.scripted import register_scripted
from restgraph.evals.oracles.browser import _oracle as browser_oracle
from restgraph.evals.oracles.browser import plan_for
from restgraph.evals.oracles.errors import UnknownRoleError
from restgraph.tools.trace_schema import Task

#: CB-1S's wrong guess on a task it does not know
GUESS = "Unknown Place"
_CONTEXT = re.compile(r"^Context\d+: ", re.M)


def final_answer(task: Task | None) -> str:
    return next((str(s[1]) for s in reversed(plan_for(task)) if s[0] == "answer"), "")


def knows(task: Task | None) -> bool:
    return task is not None and str(task.metadata.get("difficulty", "")) != "Hard"


def query_for(task: Task | None) -> str:
    """The first question: the plan's own search query if it has one, else the task itself."""
    plan = plan_for(task)
    return next((str(s[1]) for s in plan if s[0] == "search"), task.instruction if task else "")


def follow_up_for(task: Task | None) -> str | None:
    return next((str(s[2]) for s in plan_for(task) if s[0] == "click" and s[1] == "link"), None)


def _values(answer: str) -> list[Any]:
    try:
        value = json.loads(answer)
    except ValueError:
        return [answer]
    items = value if isinstance(value, list) else [value]
    out: list[Any] = []
    for item in items:
        out += list(item.values()) if isinstance(item, dict) else [item]
    return out


def evident(answer: str, text: str) -> bool:
    """Every value of ``answer`` (a list's items, a dict's values) appears in ``text``: strings
    case-insensitively, numbers as written with or without ``$``, thousands separators or trailing zeros."""
    if not answer.strip():
        return False
    plain = text.replace("$", "").replace(",", "").lower()
    for value in _values(answer):
        try:
            number = float(value)
        except (TypeError, ValueError):
            if str(value).lower() not in text.lower():
                return False
            continue
        forms = {f"{number:.2f}", f"{number:g}", str(int(number)) if number.is_integer() else f"{number}"}
        if not any(re.search(rf"(?<![\d.]){re.escape(f)}(?![\d])", plain) for f in forms):
            return False
    return True


def _closed_book(task: Task | None, one_shot: bool) -> str:
    answer = final_answer(task) if knows(task) else (GUESS if one_shot else "")
    if one_shot:
        return f"Intermediate question: What does the task ask?\nIntermediate answer: I recall it.\nSo the final answer is: {answer}"
    return f"Thought: I will answer from memory.\nThe final answer is: {answer}"


def _ralm(task: Task | None, user: str) -> str:
    contexts = "\n".join(line for line in user.split("\n") if _CONTEXT.match(line))
    asked = user.count("Intermediate question:")
    answer = final_answer(task)
    if asked == 0:
        return f"Intermediate question: {query_for(task)}"
    if evident(answer, contexts):
        return f"Intermediate answer: The contexts say it.\nSo the final answer is: {answer}"
    follow_up = follow_up_for(task)
    if asked == 1 and follow_up:
        return f"Intermediate answer: The intermediate answer cannot be inferred from the search results.\nIntermediate question: {follow_up}"
    return 'Intermediate answer: The intermediate answer cannot be inferred from the search results.\nSo the final answer is: ""'


def _paper_oracle(task: Task | None, params: dict[str, str]):
    from restgraph.evals.oracles.seeplanact import seeplanact_oracle

    browse = browser_oracle(task, params)
    see_plan_act = seeplanact_oracle(task, params)  # so one model drives spa-cb / seeact-cb end to end

    def policy(messages: list[BaseMessage]) -> str:
        system = str(messages[0].content) if messages and isinstance(messages[0], SystemMessage) else ""
        if system == figure_prompt(CB_FIGURE).system:
            return _closed_book(task, one_shot=len(messages) > 2)
        if system == figure_prompt(RALM_FIGURE).system:
            return _ralm(task, str(messages[-1].content))
        for speaker in (browse, see_plan_act):
            try:
                return speaker(messages)
            except UnknownRoleError:
                continue
        raise UnknownRoleError(
            "scripted:paper-oracle answers the paper's closed-book and retrieval-augmented prompts, the aria browsing policy and SPA/SeeAct only"
        )

    return policy


register_scripted("paper-oracle", _paper_oracle)
