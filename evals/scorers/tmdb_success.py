"""Automatic success check for RestBench TMDB answers (the paper judged success by hand).

A criterion is data (kept in ``task.gold["criterion"]``): a tree of ``all`` / ``any`` nodes over
facts. A fact is matched by *normalised containment* in the agent's final answer:
- ``text``: case-, accent- and punctuation-insensitive, on word boundaries ("no" does not match
  "know"; ``&`` reads as "and"; apostrophes vanish, so "isn't" is "isnt");
- ``number``: an integer written in digits or as an English word ("seven");
- ``date``: an ISO date written in any common form (1997-12-19, December 19, 1997, 19 Dec 1997,
  12/19/1997).
``any`` nodes may ask for at least ``min`` matching items ("list movies" wants three titles).
"""

from __future__ import annotations

import contextlib
import re
import unicodedata
from datetime import date
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, Field

_WORDS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
]
#: month names and their 3-letter and "sept" abbreviations, to their number (``claims_values`` reads dates with it too)
MONTHS = {
    m: i
    for i, m in enumerate(
        [
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        ],
        1,
    )
}
MONTHS.update({m[:3]: i for m, i in list(MONTHS.items())})
MONTHS["sept"] = 9


class Fact(BaseModel):
    kind: Literal["text", "number", "date"] = "text"
    value: str


class Criterion(BaseModel):
    op: Literal["all", "any"]
    items: list[Fact | Criterion] = Field(min_length=1)
    min: int = 1  # for "any": how many items must match


@lru_cache(maxsize=65536)
def normalise(text: str) -> str:
    """Lower case, accents, punctuation and ``&`` folded away. Cached: scoring normalises the same
    catalogue names and answer clauses over and over (~200,000 calls for 200 TMDB episodes)."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).lower().replace("&", " and ")
    text = re.sub(r"['’`]", "", text)
    return " ".join(re.sub(r"[^0-9a-z\u3040-\u30ff\u4e00-\u9fff]+", " ", text).split())


def numbers_in(answer: str) -> set[int]:
    found = {int(n) for n in re.findall(r"(?<![\w.])\d{1,9}(?![\w]|\.\d)", answer.replace(",", ""))}
    words = normalise(answer).split()
    found |= {_WORDS.index(w) for w in words if w in _WORDS}
    return found


def dates_in(answer: str) -> set[date]:
    out: set[date] = set()

    def add(y: int, m: int, d: int) -> None:
        with contextlib.suppress(ValueError):  # "31 February" is not a date
            out.add(date(y, m, d))

    for y, m, d in re.findall(r"\b(\d{4})-(\d{1,2})-(\d{1,2})", answer):
        add(int(y), int(m), int(d))
    for m, d, y in re.findall(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b", answer):
        add(int(y), int(m), int(d))
    text = normalise(answer)
    month = "|".join(sorted(MONTHS, key=len, reverse=True))
    for mo, d, y in re.findall(rf"\b({month}) (\d{{1,2}})(?:st|nd|rd|th)? (\d{{4}})\b", text):
        add(int(y), MONTHS[mo], int(d))
    for d, mo, y in re.findall(rf"\b(\d{{1,2}})(?:st|nd|rd|th)? (?:of )?({month}) (\d{{4}})\b", text):
        add(int(y), MONTHS[mo], int(d))
    return out


def fact_matches(fact: Fact, answer: str) -> bool:
    if fact.kind == "number":
        return int(fact.value) in numbers_in(answer)
    if fact.kind == "date":
        return date.fromisoformat(fact.value) in dates_in(answer)
    needle = normalise(fact.value)
    return bool(needle) and f" {needle} " in f" {normalise(answer)} "


def check(criterion: Criterion | dict, answer: str | None) -> bool:
    """Whether ``answer`` satisfies ``criterion`` (a missing answer never does)."""
    if answer is None or not answer.strip():
        return False
    node = criterion if isinstance(criterion, Criterion) else Criterion.model_validate(criterion)
    hits = sum(
        check(item, answer) if isinstance(item, Criterion) else fact_matches(item, answer)
        for item in node.items
    )
    return hits == len(node.items) if node.op == "all" else hits >= node.min


def describe(criterion: Criterion | dict, limit: int = 6) -> str:
    """A short human-readable form (for reports and an optional LLM judge)."""
    node = criterion if isinstance(criterion, Criterion) else Criterion.model_validate(criterion)
    parts = [
        describe(i, limit)
        if isinstance(i, Criterion)
        else (i.value if i.kind == "text" else f"{i.kind}:{i.value}")
        for i in node.items[:limit]
    ]
    more = f", ... ({len(node.items) - limit} more)" if len(node.items) > limit else ""
    head = "all of" if node.op == "all" else (f"at least {node.min} of" if node.min > 1 else "any of")
    return f"{head} [{'; '.join(parts)}{more}]"
