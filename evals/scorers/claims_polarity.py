"""The ``polarity`` requirement's reading: the yes or no an answer commits to.

Apart from ``claims`` because it reads whole sentences for one kind of key: an explicit yes or no
word at a sentence's start ("Yes, ...", "Nope.") or closing it ("..., so yes.") leads, and several that
disagree are no answer; without one, the first stated sentence is read (denied: no), if it speaks
about the question's topic; a hedge, a question or a failure statement is no answer, and what a retraction
takes back ("Yes. Actually, ...", ``commitment.retraction_end``) is none either.
"""

from __future__ import annotations

import re

from restgraph.evals.scorers import commitment
from restgraph.evals.scorers.claims import Analysis, Clause, Mention, topic_prefixes
from restgraph.evals.scorers.claims_lexicon import FAILURE

#: a yes or no that closes a sentence as its conclusion ("..., so yes.", "... The answer is no.")
_CONCLUDED = re.compile(r"\b(?:so|thus|therefore|hence|answer is|answer)\s+(yes|no)$")


def polarity(a: Analysis, topic: str = "") -> str | None:
    """``yes``/``no`` the answer commits to, or None (a hedge, a question, a contradiction, a failure).
    An explicit yes/no word leads; otherwise the first stated sentence is read (denied -> no), if
    it speaks about the ``topic`` (shares a content word with it, outside names)."""
    explicit = []
    sentences: dict[int, list[Clause]] = {}
    cut = commitment.retraction_end(a)  # "Yes, they co-star. Actually, ...": the yes is taken back
    for c in a.clauses:
        if c.end > cut:
            sentences.setdefault(c.sentence, []).append(c)
    for clauses in sentences.values():
        if clauses[0].question:
            continue
        words = [t.norm for t in clauses[0].tokens] or [""]
        if words[0] in {
            "yes",
            "yeah",
            "yep",
            "yup",
            "correct",
            "indeed",
            "absolutely",
            "certainly",
            "affirmative",
        }:
            explicit.append("yes")
        elif (
            words[0] in {"no", "nope", "negative"} and not (len(words) > 1 and words[1].isdigit())
        ) or words[:2] in (["not", "really"], ["not", "quite"], ["not", "exactly"]):
            explicit.append("no")
        elif found := _CONCLUDED.search(" ".join(t.norm for c in clauses for t in c.tokens)):
            explicit.append(found.group(1))  # "..., so yes."
    if explicit:
        return explicit[0] if len(set(explicit)) == 1 else None
    stated = [cs for cs in sentences.values() if not cs[0].question]
    if (
        not stated
        or stated[0][0].hedged
        or FAILURE.search(" ".join(t.norm for c in stated[0] for t in c.tokens))
    ):
        return None
    named = {(m.start, m.end) for m in a.mentions}
    free = {
        t.norm[:4]
        for c in stated[0]
        for t in c.tokens
        if len(t.norm) >= 3 and not any(s <= t.start < e for s, e in named)
    }
    if topic and not free & topic_prefixes(topic):
        return None
    if any(c.denies for c in stated[0]) or _only_one(a, stated[0], topic):
        return "no"
    return "yes"


def _only_one(a: Analysis, clauses: list[Clause], topic: str) -> bool:
    """Whether a sentence restricts to one name what the question asks of two ("whether A and B co-star":
    "Only A stars in it")."""
    if not re.search(r"\b\w[\w .'-]*\s(?:and|or)\s\w", topic):
        return False
    lo, hi = clauses[0].start, clauses[-1].end
    return any(
        lo <= m.start < hi
        and re.search(r"(?<!\bnot )\bonly\s+(?:\w+\s+)?$", a.text[max(lo, m.start - 24) : m.start], re.I)
        for m in a.mentions
    )


#: a negation that qualifies rather than denies ("not as close a match", "not the most obvious pick",
#: "doesn't get as much screen time", "not just for Inception")
_QUALIFIED = re.compile(
    r"\b(?:not|never|n['’]t)\s+(?:\w+\s+){0,2}?(?:as|so|quite|the most|the best|just|only|necessarily)\b",
    re.I,
)
#: words that make a denial one of membership: the item is not in the asked set
_MEMBERSHIP = re.compile(
    r"\b(?:in|on|among|part|list|listed|appear\w*|star\w*|cast|feature\w*|include\w*|qualif\w*|one of|belong\w*"
    r"|cut|counts?|meets?|makes? it|made it)\b",
    re.I,
)


#: the words of an elliptical denial ("but not X", "Oppenheimer does not", "X isn't", "nor X")
_ELLIPTICAL = {
    *["not", "no", "never", "nor", "neither", "but", "and", "or", "though", "however", "also", "either"],
    *["does", "do", "did", "is", "are", "was", "were", "has", "have", "had"],
    *["doesnt", "dont", "didnt", "isnt", "arent", "wasnt", "werent", "hasnt", "havent", "hadnt"],
}


def denied_item(a: Analysis, m: Mention, topic: set[str], items: list[Mention]) -> bool:
    """Whether the answer denies that ``m``, a right item of a list, belongs to it ("Harrison Ford has
    never appeared in it", "The Batman does not meet the rating threshold", "..., but not Liam Neeson"):
    its clause denies, in words of membership or of the question's ``topic`` (or says nothing but the
    denial), the negation does not merely qualify ("isn't as close a match"), and no other clause asserts
    the same item (``items``: "Billy Zane. Billy Zane doesn't get as much screen time" keeps him)."""
    clause = a.clause(m)
    if not clause.denies or any(o.key == m.key and o.asserted for o in items):
        return False
    text = a.text[clause.start : clause.end]
    if _QUALIFIED.search(text):
        return False
    words = [t for t in clause.tokens if not (m.start <= t.start < m.end)]
    bare = all(t.norm in _ELLIPTICAL for t in words)  # "..., but not X", "X does not", "X isn't"
    return (
        bare or bool(_MEMBERSHIP.search(text)) or any(t.norm[:4] in topic for t in words if len(t.norm) >= 3)
    )
