"""Reading SeePlanAct's two model replies, re-implemented from upstream's step loop.

- The first reply (``output0``) carries the plan and memory. As ``seeplanact.py`` does: on the
  first step the original plan is the text between "Original plan)" and "Current Webpage"; on
  later steps the refined plan is the text after "New refined plan)" (or "Refined plan)") up to
  "Next Action Based "; every step appends ``Step N. <relevant information>`` to the history
  (the text after "Relevant information" up to the next section, newlines and parentheses
  removed).
- The answer protocol: the prompt asks for ``Task answer:`` followed by the answer inside the
  refined plan. Upstream's code never extracts it (its runs were read afterwards); here the answer
  is the text after the last ``Task answer:`` in that section, up to a blank line (a trailing "("
  that opens the next section is dropped), or ``None`` when the reply has none. ``""`` / ``''``
  count as an empty answer (the prompt's "generate an empty string").
- The second reply (grounding) is parsed like ``postprocess_action_lmm``: echoed format
  instructions are removed, ``ELEMENT: X`` (one or two capital letters; the one closest before
  the ``ACTION:`` line wins), ``ACTION: <name>`` ("None" when absent), ``VALUE: ...`` with one
  pair of surrounding quotes and a trailing full stop removed (twice, as upstream does).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ACTIONS = (
    "CLICK",
    "SELECT",
    "TYPE",
    "HOVER",
    "PRESS ENTER",
    "TERMINATE",
    "GOTO",
    "SCROLL",
    "GOBACK",
    "SEARCH",
    "NONE",
)
_ELEMENT = re.compile(r"ELEMENT: ([A-Z]{2}|[A-Z])")
_ACTION = re.compile(r"ACTION: (" + "|".join(ACTIONS) + ")")
_VALUE = re.compile(r"VALUE: (.*)$", re.M)
#: format instructions a model may echo back instead of filling in (upstream removes a fixed list of them)
_ECHO = re.compile(
    r"The (?:uppercase letter of (?:your|my) choice|correct choice|correct element to select)"
    r"(?:\. Choose one of the following elements if it matches the target element based on your analysis:"
    r"| based on (?:your|my|the) analysis (?:is|would be) ?:?| would be ?:?| is ?:?|\.)?[ \t]*\n{0,2}"
    r"|Choose an action from \{CLICK, TYPE, SELECT\}\.\n{0,2}|Provide additional input based on ACTION\.\n{0,2}"
)
_TASK_ANSWER = "Task answer:"


@dataclass(frozen=True)
class Grounding:
    element: str
    action: str
    value: str


def _unquote(text: str) -> str:
    if len(text) >= 2 and text.startswith('"') and text.endswith('"'):
        text = text[1:-1]
    return text[:-1] if text.endswith(".") else text


def parse_grounding(text: str) -> Grounding:
    text = _ECHO.sub("", text.strip())
    found = _ELEMENT.findall(text)
    element = found[0] if found else "Invalid"
    match = _ACTION.search(text)
    if match:
        action = match.group(1)
        start = text.find(f"ACTION: {action}")
        for probe in range(15, 160, 10):
            near = _ELEMENT.findall(text[max(start - probe, 0) : start])
            if near:
                element = near[0]
                break
    else:
        action = "None"
    value = _VALUE.search(text)
    return Grounding(element, action.strip(), _unquote(_unquote((value.group(1) if value else "").strip())))


def _clean(section: str) -> str:
    return section.strip().replace("(", "").replace(")", "").strip()


def refined_plan(output: str) -> str:
    sep = "New refined plan)" if "New refined plan)" in output else "Refined plan)"
    return _clean(output.split(sep)[-1].split("Next Action Based ")[0])


def original_plan(output: str) -> str:
    return _clean(output.split("Original plan)")[-1].split("Current Webpage")[0])


def history_entry(output: str, step: int) -> str:
    info = output.split("Relevant information")[-1].split("Next Action Based on Webpage and Analysis")[0]
    info = (
        info.split("Refined plan")[0]
        .split("New refined plan")[0]
        .strip()
        .replace("\n", "")
        .replace("(", "")
        .replace(")", "")
    )
    return f"\nStep {step}. \n{info}"


def task_answer(output: str) -> str | None:
    """The answer after the last ``Task answer:`` of the plan section; ``None`` if there is none."""
    sep = "New refined plan)" if "New refined plan)" in output else "Refined plan)"
    section = output.split(sep)[-1].split("Next Action Based ")[0]
    if _TASK_ANSWER not in section:
        section = output if _TASK_ANSWER in output else ""
    if not section:
        return None
    answer = section.rsplit(_TASK_ANSWER, 1)[1].split("\n\n")[0].strip()
    answer = answer.removesuffix("(").strip()
    return "" if answer in ('""', "''") else answer
