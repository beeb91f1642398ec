"""Which season or episode a clause speaks of, when the question asks about one.

A question about "The Mandalorian S2E3" or "Black Mirror season 2 episode 3" is answered by what the
answer says of that episode. A careful judge reads "Chapter 11: The Heiress is the third episode of
season 1; season 2 episode 3 is Chapter 19" as the answer Chapter 19 (wrong), and "Carl Tibbetts directed
it (Bryn Higgins directed episode 2)" as Carl Tibbetts: a right name in a clause that gives another
season or episode number than the question's is said of another episode, not asserted for the asked
one. The labels are read the same way in the question and in the answer: "S2E3", "season 2", "the second
season", "season two", "episode 3", "ep. 3", "the third episode".
"""

from __future__ import annotations

import re
from functools import lru_cache

from restgraph.evals.scorers.claims import Analysis, Mention
from restgraph.evals.scorers.claims_values import ORDINALS, WORD_VALUES

#: the number words and ordinals of a season or an episode label: one to ten ("season two", "the third episode")
_WORDS = {w: v for w, v in WORD_VALUES.items() if 1 <= v <= 10}
_ORDINALS = {w: v for w, v in ORDINALS.items() if v <= 10}
_NUMBER = r"(\d{1,2}|" + "|".join(_WORDS) + r")"
_ORDINAL = r"(\d{1,2}(?:st|nd|rd|th)|" + "|".join(_ORDINALS) + r")"


def _labels(kind: str, short: str) -> list[re.Pattern[str]]:
    """``kind`` ("season"/"episode") with its number after it, as an ordinal before it, or ``short``
    ("S2", "E3", "ep. 3") with digits."""
    return [
        re.compile(rf"\b{kind}s?\s*(?:no\.?|#)?\s*{_NUMBER}\b", re.I),  # "season 2", "episode three"
        re.compile(rf"\b{_ORDINAL}\s+{kind}\b", re.I),  # "the second season"
        re.compile(rf"\b(?:{short})\s?(\d{{1,2}})\b", re.I),  # "S2", "ep. 3"
    ]


_SEASON = _labels("season", "s")
_EPISODE = _labels("episode", r"e|ep\.?")
#: "S2E3", "S02E03", "2x03"
_BOTH = re.compile(r"\bs(\d{1,2})\s?e(\d{1,2})\b|\b(\d{1,2})x(\d{2})\b", re.I)


def _value(word: str) -> int:
    word = word.lower()
    if word.isdigit():
        return int(word)
    value = _WORDS.get(word) or _ORDINALS.get(word)
    return value if value is not None else int(re.sub(r"\D", "", word))


@lru_cache(maxsize=4096)
def numbers(text: str) -> tuple[frozenset[int], frozenset[int]]:
    """The season numbers and the episode numbers ``text`` names."""
    seasons: set[int] = set()
    episodes: set[int] = set()
    for m in _BOTH.finditer(text):
        s, e = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        seasons.add(int(s))
        episodes.add(int(e))
    rest = _BOTH.sub(" ", text)
    for patterns, out in ((_SEASON, seasons), (_EPISODE, episodes)):
        for pattern in patterns:
            out |= {_value(m.group(1)) for m in pattern.finditer(rest)}
    return frozenset(seasons), frozenset(episodes)


def other_item(a: Analysis, m: Mention, asks: str) -> bool:
    """Whether ``m``'s clause names another season or episode than the question (``asks``) does."""
    clause = a.clause(m)
    return _other(a.text[clause.start : clause.end], asks)


def other_before(a: Analysis, m: Mention, asks: str, values: list[Mention]) -> bool:
    """Whether the words leading to a value ``m`` (from the previous one of ``values`` in its clause, or
    the clause's start) name another season or episode than the question: "Its second season aired on
    d1, and season 3 followed on d2" says d2 of season 3."""
    return _other(_lead_in(a, m, values), asks)


def asked_before(a: Analysis, m: Mention, asks: str, values: list[Mention]) -> bool:
    """Whether the words leading to a value ``m`` (as ``other_before``) name the season or episode the
    question asks about: "Its second season first aired on d1" says d1 of the asked season."""
    want_seasons, want_episodes = numbers(asks)
    lead_in = _lead_in(a, m, values)
    seasons, episodes = numbers(lead_in)
    return bool((want_seasons or want_episodes) and (seasons or episodes)) and not _other(lead_in, asks)


def _lead_in(a: Analysis, m: Mention, values: list[Mention]) -> str:
    """The words leading to a value ``m``: from the previous one of ``values`` in its clause, or from
    the clause's start."""
    clause = a.clause(m)
    lo = max([clause.start, *(v.end for v in values if v.clause == m.clause and v.end <= m.start)])
    return a.text[lo : m.start]


def _other(text: str, asks: str) -> bool:
    want_seasons, want_episodes = numbers(asks)
    if not want_seasons and not want_episodes:
        return False
    seasons, episodes = numbers(text)
    return bool(
        (want_seasons and seasons and not seasons & want_seasons)
        or (want_episodes and episodes and not episodes & want_episodes)
    )
