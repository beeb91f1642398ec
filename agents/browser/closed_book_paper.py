"""The paper's closed-book answerers, CB-INST and CB-1S (AssistantBench §5.1, prompts in Fig. 17).

- CB-INST: the Fig. 17 system prompt (zero-shot chain of thought: "Thought:" steps, then
  "The final answer is: ANSWER"), then the task as the user turn;
- CB-1S: the same plus the figure's one-shot self-ask example (a user turn with the Beckham
  question and the assistant's "Intermediate question: ... So the final answer is: David Beckham").

Both are one model call. The answer is the text after the reply's last "final answer is:" (which
covers the example's "So the final answer is:"), up to the end of its line, or the whole JSON
value when it opens with ``[`` or ``{`` (a list of JSON objects may span lines). It is returned
raw: rewriting answers for the scorer is the benchmark's option, not the agent's. A reply with
no such line is unparseable: the answer is empty (an abstention) and the parse error is recorded.
"""

from __future__ import annotations

import json
import re

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from restgraph.agents.browser.paper_prompts import figure_prompt
from restgraph.tools.events import parse_outcome

#: the paper's figure holding the closed-book prompts
CB_FIGURE = 17
_FINAL = re.compile(r"final answer is:", re.I)
#: answers meaning "no answer" (the prompts ask for an empty string; JSON spellings of nothing too)
_EMPTY = {"", '""', "''", "[]", "{}", "null", "none"}


def fill_placeholder(template: str, values: dict[str, str]) -> str:
    """The figure's user template with its upper-case placeholders replaced. A template made only
    of placeholders (Fig. 18's ``CONTEXT TASK MODEL GENERATIONS``) puts each non-empty value on its
    own line, as the figure prints them."""
    names = sorted(values, key=len, reverse=True)
    pattern = re.compile("|".join(re.escape(n) for n in names))
    if not pattern.sub("", template).strip():
        return "\n".join(values[m.group(0)] for m in pattern.finditer(template) if values[m.group(0)])
    return pattern.sub(lambda m: values[m.group(0)], template)


def example_messages(figure: int) -> list[BaseMessage]:
    return [
        HumanMessage(text) if role == "user" else AIMessage(text)
        for role, text in figure_prompt(figure).example
    ]


def cb_messages(task: str, *, one_shot: bool) -> list[BaseMessage]:
    prompt = figure_prompt(CB_FIGURE)
    return [
        SystemMessage(prompt.system),
        *(example_messages(CB_FIGURE) if one_shot else []),
        HumanMessage(fill_placeholder(prompt.user, {"TASK": task})),
    ]


def extract_answer(reply: str) -> str | None:
    """The raw answer after the last "final answer is:", or None when the reply has none."""
    matches = list(_FINAL.finditer(reply))
    if not matches:
        return None
    rest = reply[matches[-1].end() :].lstrip(" \t")
    if rest[:1] in "[{":
        try:
            _, end = json.JSONDecoder().raw_decode(rest)
            return rest[:end].strip()
        except ValueError:
            pass
    return rest.split("\n", 1)[0].strip()


def is_abstention(answer: str | None) -> bool:
    """An empty answer in any spelling the prompts invite (``""``, ``[]``, ``null``)."""
    return answer is None or answer.strip().lower() in _EMPTY


def reply_text(reply: BaseMessage) -> str:
    return reply.content if isinstance(reply.content, str) else str(reply.content)


async def paper_closed_book_answer(model: BaseChatModel, task: str, *, one_shot: bool = True) -> str:
    """One CB-1S (or CB-INST) call; the raw answer, ``""`` when it abstains or is unparseable."""
    reply = await model.ainvoke(cb_messages(task, one_shot=one_shot))
    answer = extract_answer(reply_text(reply))
    role = "cb_1s" if one_shot else "cb_inst"
    if answer is None:
        parse_outcome(reply, parse_error='no "The final answer is:" line in the reply', role=role)
        return ""
    parse_outcome(reply, parsed={"answer": answer}, role=role)
    return answer
