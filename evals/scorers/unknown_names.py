"""Names an answer gives that the key's vocabulary does not know, as candidates of a single-answer key.

A key knows its right names and the sandbox's catalogue; an answer may name anything else. A careful
judge reads "The lead actor is Tom Hardy, with Christian Bale as Batman" as the answer Tom Hardy and
"David Schwimmer's most popular TV show is American Crime Story (Friends also shows up)" as the answer
American Crime Story, names no key lists. So ``commitment.committed`` weighs such names like known ones:

- ``people``: capitalised two- or three-word names ("Tom Hardy"), not a character ("as Bruce Wayne");
- ``stated``: for a key of titles or text, a capitalised phrase of two or more words (or a quoted one)
  that a copula or a naming verb asserts ("is American Crime Story", "is called \"Chapter 10\"");
- ``places``: for a key of places, a capitalised phrase after "born in", "based in", "headquartered in".

Only what a copula asserts counts for titles: a capitalised phrase elsewhere is as often a place, a
company or a character as a title.
"""

from __future__ import annotations

import re
from collections.abc import Set

from restgraph.evals.scorers import commitment
from restgraph.evals.scorers.claims import Analysis, Mention
from restgraph.evals.scorers.tmdb_success import MONTHS, normalise

_PERSON = re.compile(r"\b[A-Z][a-z]+(?:[ -][A-Z][a-z'’]+){1,2}\b")


def people(a: Analysis, mentions: list[Mention], topic: set[str]) -> list[Mention]:
    """Capitalised two- or three-word names the vocabulary does not know ("Tom Hardy"): candidates of
    a person key, so "The lead actor is Tom Hardy, with Christian Bale as Batman" commits to Hardy."""
    out = []
    for found in _PERSON.finditer(a.masked):
        words = normalise(found.group()).split()
        if any(m.start < found.end() and found.start() < m.end for m in mentions):
            continue
        if any(w in commitment.LINKS or w[:4] in topic or w in _NOT_NAMES for w in words):
            continue
        before = a.text[max(0, found.start() - 40) : found.start()]
        if _ROLE_BEFORE.search(before) or before.count("(") > before.count(")"):
            continue  # a character's name ("as Bruce Wayne", "the role of ...", "(Bruce Wayne)")
        out.extend(_mention(a, f"?{found.group()}", found.start(), found.end()))
    return out


_ROLE_BEFORE = re.compile(
    # ("the lead role — Bruce Wayne — belongs to": a dash or a colon after the role word)
    r"\b(?:as|plays?|played|playing|roles?(?: of)?|character|portray\w*|voic\w*)(?:\s+|\s*[:\u2013\u2014-]\s*)"
    r"(?:the\s+)?(?:\w+\s+)?$",
    re.I,
)
_NOT_NAMES = {
    *["season", "episode", "part", "chapter", "vol", "volume", "movie", "film", "show", "series"],
    *["your", "my", "our", "spotify", "tmdb", "netflix", "hbo"],  # "Your Spotify display name is ..."
}

#: a copula or naming verb, and an opening quote, right before a name
_COPULA = re.compile(r"\b(?:is|was|are|were|called|named|titled)\s+([\"“‘'])?(?=[A-Z0-9])")
#: a title's words: capitalised words, with short lowercase joiners and a subtitle's colon between them
_WORD = r"[A-Z0-9][\w'’.&+-]*"
_TITLE = re.compile(
    rf"{_WORD}(?::?\s+(?:(?:of|the|and|a|an|in|on|to|for|with|at|by|from|de|la|e|&)\s+)*{_WORD})*"
)


def stated(a: Analysis, mentions: list[Mention], topic: Set[str] = frozenset()) -> list[Mention]:
    """The titles a copula asserts that the vocabulary does not know (see the module docstring); one word
    too ("... is Thirteen") when the words before the copula in its clause say two of the question's
    ``topic`` words ("her most recent TV show as director is ...")."""
    out = []
    for cop in _COPULA.finditer(a.masked):
        at = cop.end()
        if any(m.start == at for m in mentions):
            continue
        found = _TITLE.match(a.masked, at)
        if found is None:
            continue
        end = found.end()
        while end > at and a.masked[end - 1] in ".:":
            end -= 1
        words = a.masked[at:end].split()
        quoted = cop.group(1) is not None
        alphabetic = [
            w for w in words if re.search(r"[A-Za-z]{2}", w) and w.lower().rstrip(".") not in MONTHS
        ]
        if not alphabetic or (len(words) < 2 and not quoted and not _asks_role(a, cop.start(), topic)):
            continue
        if any(m.start < end and at < m.end for m in mentions):
            end = min(m.start for m in mentions if m.start < end and at < m.end)
            if end <= at or len(a.masked[at:end].split()) < 2:
                continue
        out.extend(_mention(a, f"?{a.text[at:end].strip()}", at, end))
    return out


#: where a place is said: "born in X", "based in X", "headquartered in X"
_PLACE = re.compile(
    r"\b(?:born|based|headquartered|located|situated|founded|HQ(?:'d)?)\s+(?:in|at)\s+(?:the\s+city\s+of\s+)?"
    rf"({_WORD}(?:\s+{_WORD}){{0,3}})",
)


def places(a: Analysis, mentions: list[Mention]) -> list[Mention]:
    """Places the vocabulary does not know that the answer says something was born, based or founded in
    ("born in Spokane, Washington": Spokane): candidates of a place key."""
    out = []
    for found in _PLACE.finditer(a.masked):
        at, end = found.span(1)
        if not a.masked[at].isalpha() or found.group(1).split()[0].lower().rstrip(".") in MONTHS:
            continue  # "founded in 1912", "based in May"
        if not any(m.start < end and at < m.end for m in mentions):
            out.extend(_mention(a, f"?{a.text[at:end]}", at, end))
    return out


def _asks_role(a: Analysis, at: int, topic: Set[str]) -> bool:
    """Whether the words of ``at``'s clause before it say two of the question's topic words."""
    clause = a.clause_at(at)
    said = {t.norm[:4] for t in clause.tokens if t.end <= at and len(t.norm) >= 3} if clause else set()
    return len(said & topic) >= 2


def _mention(a: Analysis, key: str, start: int, end: int) -> list[Mention]:
    clause = a.clause_at(start)
    return [] if clause is None else [Mention(key, clause.index, start, end, clause.asserts)]
