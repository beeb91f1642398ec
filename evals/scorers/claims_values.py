"""Reading values in an answer's text: dates in any common written form (ISO, "18 Dec 2001", "Dec. 18,
2001", "the 2nd of April '75"), years with an apostrophe, and numbers in words of any size.

Apart from ``claims`` (sentences, clauses, names) because a value has its own grammar; ``claims``
finds where they are and which clause holds them.
"""

from __future__ import annotations

import contextlib
import re
from datetime import date

from word2number import w2n

from restgraph.evals.scorers.tmdb_success import MONTHS

ORDINALS = {
    w: i
    for i, w in enumerate(
        [
            "first",
            "second",
            "third",
            "fourth",
            "fifth",
            "sixth",
            "seventh",
            "eighth",
            "ninth",
            "tenth",
            "eleventh",
            "twelfth",
            "thirteenth",
            "fourteenth",
            "fifteenth",
            "sixteenth",
            "seventeenth",
            "eighteenth",
            "nineteenth",
            "twentieth",
        ],
        1,
    )
}
_MON = "|".join(sorted(MONTHS, key=len, reverse=True))
_DAY = r"(\d{1,2}|" + "|".join(ORDINALS) + r")(?:st|nd|rd|th)?"
DATE_PATTERNS = [  # (regex, order of the groups: y/m/d names)
    (re.compile(r"\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b"), "ymd"),
    (re.compile(r"\b(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})\b"), "dmy|mdy"),
    (re.compile(rf"\b(?:the )?{_DAY}(?: day)?(?: of)? ({_MON})\.?,? (\d{{4}})\b", re.I), "dMy"),
    (re.compile(rf"\b({_MON})\.? {_DAY},? (\d{{4}})\b", re.I), "Mdy"),
    # a two-digit year with its apostrophe: "Apr 2 '75", "22 Nov '84"
    (re.compile(rf"\b(?:the )?{_DAY}(?: day)?(?: of)? ({_MON})\.?,? ['’‘](\d{{2}})\b", re.I), "dMy"),
    (re.compile(rf"\b({_MON})\.? {_DAY},? ['’‘](\d{{2}})\b", re.I), "Mdy"),
]
#: a month and its year without a day ("December 2019", "Dec '19", "Apr. 2012")
MONTH_YEAR = re.compile(rf"\b({_MON})\.?,?[ \t]+(\d{{4}}|['’‘]\d{{2}})\b", re.I)
#: a year written with two digits after an apostrophe ("Sept '07", "in '55")
SHORT_YEAR = re.compile(r"(?<![\w'’‘])['’‘](\d{2})\b")


def month_of(groups: tuple[str, ...]) -> tuple[int, int] | None:
    """(year, month) of a ``MONTH_YEAR`` match's groups."""
    month = MONTHS.get(groups[0].lower().rstrip("."))
    year = groups[1].lstrip("'’‘")
    return None if month is None else (full_year(year) if len(year) == 2 else int(year), month)


def full_year(yy: str) -> int:
    """A two-digit year read as a judge does for film and TV facts: '00-'30 are 2000s, the rest 1900s."""
    return 2000 + int(yy) if int(yy) <= 30 else 1900 + int(yy)


#: number words and their values: word2number's own table ("point" left out: not a number here)
WORD_VALUES: dict[str, int] = {w: v for w, v in w2n.american_number_system.items() if isinstance(v, int)}
_SCALES = {"hundred", "thousand", "million", "billion"}
_NUMBER_WORDS = set(WORD_VALUES)


def number_words(words: list[str]) -> tuple[int | None, int]:
    """A number written in words at the start of ``words`` ("one hundred and thirty-eight", "a
    hundred", "zero"), by ``word2number``: (value, words used), or (None, 1)."""
    run: list[str] = []
    for i, w in enumerate(words):
        nxt = words[i + 1] if i + 1 < len(words) else ""
        if w in _NUMBER_WORDS:
            run.append(w)
        elif w == "a" and not run and nxt in _SCALES:
            run.append("one")
        elif w == "and" and run and run[-1] in _SCALES and nxt in _NUMBER_WORDS - _SCALES:
            run.append(w)
        else:
            break
    if not run:
        return None, 1
    try:
        return int(w2n.word_to_num(" ".join(run))), len(run)
    except ValueError:
        return (None if run[0] in _SCALES else WORD_VALUES.get(run[0])), 1


def readings(groups: tuple[str, ...], order: str) -> set[date]:
    out: set[date] = set()

    def add(y: str, m: str | int, d: str) -> None:
        day = ORDINALS.get(d.lower()) if not d.isdigit() else int(d)
        month = (
            m if isinstance(m, int) else (MONTHS.get(m.lower().rstrip(".")) if not m.isdigit() else int(m))
        )
        with contextlib.suppress(ValueError, TypeError):
            out.add(date(full_year(y) if len(y) == 2 else int(y), month, day))  # type: ignore[arg-type]

    if order == "ymd":
        add(groups[0], groups[1], groups[2])
    elif order == "dmy|mdy":
        add(groups[2], groups[1], groups[0])
        add(groups[2], groups[0], groups[1])
    elif order == "dMy":
        add(groups[2], groups[1], groups[0])
    else:  # Mdy
        add(groups[2], groups[0], groups[1])
    return out
