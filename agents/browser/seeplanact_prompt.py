"""SeePlanAct's prompt construction, re-implemented over the texts read from upstream.

Mirrors ``generate_prompt(experiment_split="SeeAct", ...)`` of SeePlanAct's ``prompts.py`` and the
helpers it calls in ``format_prompt_utils.py``: it returns ``[system, query, referring]``, where
``query`` is the first-call user text (task, previous actions, the question description edited
for the step: on the first step without a plan the History and Refined-plan sections go and
"(New refined plan)" becomes "(Refined plan)"; later the Original plan and History placeholders
are filled) and ``referring`` the second-call user text (referring description, the choices with
the four extra options, the element / action / value formats).

Upstream's quirks are kept: ``format_options`` gives "Scroll" and "Go back" the same letter, and
the second-call text has no choices at all when the page offers none.
"""

from __future__ import annotations

import string
from collections.abc import Sequence

from restgraph.agents.browser.seeplanact_source import Parts, SeePlanActTexts, render

#: ``[element id, choice text]`` as upstream's ``format_choices`` returns them
Choice = Sequence[str]


def option_name(index: int) -> str:
    """A, B, ..., Z, then AA, AB, ... (upstream's ``generate_option_name``)."""
    if index < 26:
        return string.ascii_uppercase[index]
    first, second = divmod(index - 26, 26)
    return string.ascii_uppercase[first] + string.ascii_uppercase[second]


def option_index(name: str) -> int:
    """Inverse of ``option_name``; -1 for anything that is not one or two capital letters."""
    if len(name) == 1 and name in string.ascii_uppercase:
        return string.ascii_uppercase.index(name)
    if len(name) == 2 and all(c in string.ascii_uppercase for c in name):
        return 26 + string.ascii_uppercase.index(name[0]) * 26 + string.ascii_uppercase.index(name[1])
    return -1


def _apply(text: str, pairs: Sequence[tuple[Parts, Parts]], values: dict[str, str]) -> str:
    for old, new in pairs:
        text = text.replace(render(old, values), render(new, values))
    return text


def query_prompt(
    texts: SeePlanActTexts,
    *,
    system: str,
    question: str,
    task: str,
    previous: Sequence[str],
    original_plan: str | None = None,
    history: str | None = None,
    refined_plan: str | None = None,
) -> tuple[str, str]:
    """``generate_new_query_prompt``: (system role text, first-call user text)."""
    q = texts.query
    text = (
        q.intro
        + task
        + q.after_task
        + q.previous_header
        + "".join(a + q.after_action for a in previous)
        + q.after_previous
        + question
    )
    values = {
        "original_plan": original_plan or "",
        "history": history or "",
        "refined_plan": refined_plan or "",
    }
    text = _apply(text, q.first_step if original_plan is None else q.with_plan, values)
    text = _apply(text, q.no_refined if refined_plan is None else q.with_refined, values)
    return system, text


def format_options(texts: SeePlanActTexts, choices: Sequence[Choice]) -> str:
    """``format_options``: the introduction sentence, one line per choice, the extra options."""
    o = texts.options
    n = len(choices)
    values = {
        "non_abcd": option_name(n),
        "scroll": option_name(n + 1),
        "previous_page": option_name(n + 1),
        "back_home": option_name(n + 2),
        "search": option_name(n + 3),
    }
    lines = "".join(
        render(o.choice_line, {"generate_option_name(multichoice_idx)": option_name(i), "choice[1]": c[1]})
        for i, c in enumerate(choices)
    )
    lines += "".join(render(part, values) for part in o.extra_lines)
    return render(o.intro, values) + lines + o.after_options


def referring_prompt(texts: SeePlanActTexts, choices: Sequence[Choice]) -> str:
    """``generate_new_referring_prompt``: referring description, choices, then the three formats."""
    out = texts.referring + "\n\n" if texts.referring else ""
    if choices:
        out += format_options(texts, choices)
    for part, sep in (
        (texts.element_format, "\n\n"),
        (texts.action_format, "\n\n"),
        (texts.value_format, ""),
    ):
        if part:
            out += part + sep
    return out


def answer_instruction(texts: SeePlanActTexts) -> str:
    """SPA's answer-format sentences ("If the original task has been completed, say: ... Task answer:
    ... generate an empty string."): its "(New refined plan)" section without the first sentence."""
    section = texts.spa_question.split("(New refined plan)\n", 1)[-1].split("\n\n", 1)[0]
    return section.split(". ", 1)[-1]


def build_prompt(
    texts: SeePlanActTexts,
    *,
    planning: bool,
    task: str,
    previous: Sequence[str],
    choices: Sequence[Choice],
    original_plan: str | None = None,
    history: str | None = None,
    refined_plan: str | None = None,
    with_answer_instruction: bool = False,
) -> list[str]:
    """``[system, query, referring]``: SPA's texts when ``planning``, else SeeAct's online texts
    (with SPA's answer instruction appended as a last paragraph when ``with_answer_instruction``)."""
    system, question = (
        (texts.spa_system, texts.spa_question) if planning else (texts.seeact_system, texts.seeact_question)
    )
    if with_answer_instruction and not planning:
        question = question + "\n\n" + answer_instruction(texts)
    sys_text, query = query_prompt(
        texts,
        system=system,
        question=question,
        task=task,
        previous=previous,
        original_plan=original_plan,
        history=history,
        refined_plan=refined_plan,
    )
    return [sys_text, query, referring_prompt(texts, choices)]
