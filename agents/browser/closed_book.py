"""The closed-book answerer: the same model, no browsing (the paper's CB baseline and the
fallback of SPA->CB when browsing gives up)."""

from __future__ import annotations

import re

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage

from restgraph.agents.browser.policy import prompt
from restgraph.agents.prompt_template import fill
from restgraph.tools.events import parse_outcome

#: marker the scripted oracle uses to recognise the closed-book prompt
CLOSED_BOOK_MARKER = "you cannot browse the web"
_FINAL = re.compile(r"(?:the\s+)?final\s+answer\s*(?:is)?\s*:?(.*)", re.I | re.S)


def extract_final_answer(reply: str) -> str:
    """Text after the last "The final answer is:" (or the whole reply), otherwise raw: the scorer
    receives it as the model wrote it (normalisation is the ``normalize_answers`` scoring option)."""
    matches = list(_FINAL.finditer(reply))
    text = (matches[-1].group(1) if matches else reply).strip()
    # a JSON value may span lines (up to a blank line); anything else ends at the line break
    text = text.split("\n\n")[0] if text[:1] in "[{" else text.split("\n")[0]
    return text.strip()


async def closed_book_answer(model: BaseChatModel, question: str) -> str:
    reply = await model.ainvoke(
        [HumanMessage(fill(prompt("closed_book"), {"question": question}, name="closed_book"))]
    )
    text = reply.content if isinstance(reply.content, str) else str(reply.content)
    answer = extract_final_answer(text)
    parse_outcome(reply, parsed={"answer": answer}, role="closed_book")
    return answer
