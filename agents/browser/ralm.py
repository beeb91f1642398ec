"""The paper's retrieval-augmented answerers, RALM-INST and RALM-1S (AssistantBench §5.1, §A.6,
prompts in Fig. 18): self-ask with search.

Each turn the model either asks an "Intermediate question: ..." (sent to the search engine) or
ends with "So the final answer is: ...". The next user turn is the figure's template,
``CONTEXT`` / ``TASK`` / ``MODEL GENERATIONS``: the retrieved contexts so far (``Context1: title:
snippet``, numbered across the episode, as in the figure's example), ``Task: <task>``, and the
model's earlier generations. RALM-1S adds the figure's one-shot example turns (the paper prints
its first two exchanges and elides the rest); RALM-INST uses the same system prompt without it.

This module holds the protocol (messages, parsing, context lines); ``restgraph.graphs.ralm`` the bounded loop.
"""

from __future__ import annotations

import re
from typing import Literal

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from restgraph.agents.browser.closed_book_paper import example_messages, extract_answer, fill_placeholder
from restgraph.agents.browser.paper_prompts import figure_prompt
from restgraph.tools.search import SearchResult

#: the paper's figure holding the retrieval-augmented prompts
RALM_FIGURE = 18
_QUESTION = re.compile(r"Intermediate question:\s*(.*)", re.I)


def ralm_messages(
    task: str, contexts: list[str], generations: list[str], *, one_shot: bool
) -> list[BaseMessage]:
    prompt = figure_prompt(RALM_FIGURE)
    user = fill_placeholder(
        prompt.user,
        {
            "CONTEXT": "\n".join(contexts),
            "TASK": f"Task: {task}",
            "MODEL GENERATIONS": "\n".join(generations),
        },
    )
    return [
        SystemMessage(prompt.system),
        *(example_messages(RALM_FIGURE) if one_shot else []),
        HumanMessage(user),
    ]


def context_lines(results: list[SearchResult], start: int) -> list[str]:
    """``Context<i>: <title>: <snippet>`` for each result, numbered from ``start``."""
    return [f"Context{start + i}: {r.title}: {r.snippet}".rstrip() for i, r in enumerate(results)]


Step = (
    tuple[Literal["answer"], str, str]
    | tuple[Literal["question"], str, str]
    | tuple[Literal["unparsed"], str, str]
)


def read_turn(reply: str) -> Step:
    """What a model turn does: ``("answer", answer, text)``, ``("question", query, text)`` with the
    text cut after the question's line (anything the model wrote past it would pre-empt the search
    result), or ``("unparsed", reason, text)``."""
    answer = extract_answer(reply)
    questions = list(_QUESTION.finditer(reply))
    if answer is not None and (
        not questions or questions[-1].start() < reply.lower().rfind("final answer is:")
    ):
        return ("answer", answer, reply.strip())
    if questions:
        last = questions[-1]
        query = last.group(1).strip()
        if query:
            return ("question", query, reply[: last.end()].strip())
    return (
        "unparsed",
        'neither an "Intermediate question:" nor a "So the final answer is:" line',
        reply.strip(),
    )
