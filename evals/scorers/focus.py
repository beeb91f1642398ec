"""Which part of an answer answers the question, and which names in it are only context.

An agent's answer is often several sentences: what it looked up, the candidates an API returned, the
answer, and remarks about other things. A careful judge reads "Christopher Nolan's credits, newest
first: Oppenheimer, Tenet, Dunkirk. The latest is therefore Oppenheimer." as the answer Oppenheimer, and
"Margot Robbie is the second most popular person; the first is Cillian Murphy." as the answer Cillian
Murphy. ``commitment.committed`` asks this module, for a single-answer key:

- ``conclusion``: a sentence that concludes ("therefore", "so the answer is", "final answer") is the
  answer; the others are how the answer got there;
- ``ranked_lower`` and ``context``: a name said to rank below another ("the second most popular",
  "runner-up", "just ahead of X": X) is not the answer, and neither, for what the answer commits to, is a
  name set apart as another one ("her other film", "previously", "his next project") or as what held
  before ("X was the most popular last week", "X was his latest until Y", "used to be");
- ``list_item``: a name that is an item of a bulleted or numbered list ("1. The Godfather (8.7)") is the
  data the answer quotes; a statement elsewhere ("The top-rated movie is The Godfather.") is the answer;
- ``possessive``: a possessive name qualifies another ("Adam McKay's collaborator Robert De Niro"): it is
  never what the answer commits to (it still counts as said, "Nolan's Oppenheimer" names Nolan);
- ``subject_names``: the names the question is about (the key's ``context``, names its ``asks`` gives):
  a sentence about the question's subject outweighs one about something else ("Bale starred in Batman
  Begins. For The Dark Knight, the top-billed actor is Heath Ledger." commits to Heath Ledger), and
  ``about_other``: a clause about another thing of the subject's kind says nothing of the subject ("Her
  father, Francis Ford Coppola, directed The Godfather" lists no film of Sofia Coppola's).

The cues are English words of ranking and contrast, the same for every key; none names a query.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from restgraph.evals.scorers.claims import Analysis, Mention
from restgraph.evals.scorers.tmdb_success import normalise

#: a sentence that gives the conclusion the rest led to
CONCLUSION = re.compile(
    r"\b(?:therefore|thus|hence|in short|in summary|to sum up|final answer|the answer is|my answer is"
    r"|which makes it|that makes it|so the (?:answer|result) is)\b|^\s*(?:answer\s*[,:]|so\b)",
    re.I,
)
#: a name said to rank below another: the whole clause ("X is the second most popular", "X is second")
_RANKED = re.compile(
    r"\b(?:second|third|fourth|fifth|2nd|3rd|4th|5th|next)"
    r"(?:\s+(?:most|highest|best|place|spot|position|biggest|largest|on the list|in the list|in line)\b"
    r"|\s*(?:[,.;:!)]|$))|\brunners?[- ]up\b|\b(?:close|just|right|narrowly|slightly)\s+behind\b"
    r"|\bbehind (?:it|him|her|them)\b|\bcomes? close\b"  # not "the studio behind X"
    r"|\b(?:slightly |a bit |just )?(?:lower|less|fewer|below)\b",
    re.I,
)
#: a cue after which the names rank below what came before it ("A, just ahead of B", "A, followed by B")
_AFTER = re.compile(
    r"\b(?:followed(?: \w+){0,2} by|ahead of|edging out|edges out|beating|outranks|then comes)\b", re.I
)
#: a name set apart from the answer as another one
_OTHER = re.compile(
    r"\b(?:other|another|besides|previously|formerly|earlier|prior|before that|next project|upcoming"
    r"|announced|co-?stars?|co-?starring|supporting|alongside|opposite|sequels?|prequels?|spin-?offs?"
    r"|(?:best |most |well )?known for|famous for)\b",
    re.I,
)


def conclusion(a: Analysis, sentence: int) -> bool:
    clauses = a.sentence_clauses(sentence)
    return bool(clauses) and bool(CONCLUSION.search(a.text[clauses[0].start : clauses[-1].end]))


def ranked_lower(a: Analysis, m: Mention, names: Iterable[Mention]) -> bool:
    """Whether ``m`` is said to rank below another name: the name nearest a rank cue ("X is the second
    most popular", "second place goes to X", "A, with X the runner-up"), or one after "ahead of" /
    "followed by" up to the next comma. ``names``: the answer's known names (the cue's nearest one)."""
    clause = a.clause(m)
    text = a.text[clause.start : clause.end]
    for cue in _AFTER.finditer(text):  # "A, ahead of B by C, ...": B and C, up to the next comma
        end = clause.start + cue.end()
        stop = re.search(r"[,;:]", a.text[end : clause.end])
        if end <= m.start < (end + stop.start() if stop else clause.end):
            return True
    # a rank cue reaches across its sentence's clauses ("X is the most popular, but Y is less popular"),
    # to its nearest name and that name's list ("Cillian Murphy and Ryan Gosling are next")
    clauses = a.sentence_clauses(clause.sentence)
    lo, hi = clauses[0].start, clauses[-1].end
    inside = [n for n in [m, *names] if lo <= n.start < hi]
    for cue in _RANKED.finditer(a.text[lo:hi]):
        start, end = lo + cue.start(), lo + cue.end()
        # a cue that closes its phrase ("B is second)", "B is next.") speaks of a name before it
        closing = bool(re.search(r"[,.;:!)]\s*$", cue.group())) and any(n.end <= start for n in inside)
        near = [n for n in inside if n.end <= start] if closing else inside
        nearest = min(near, key=lambda n: n.start - end if n.start >= end else start - n.end)
        if nearest == m or (nearest.clause == m.clause and m in a.enumeration(nearest, inside)):
            return True
    return False


def context(a: Analysis, m: Mention, names: Iterable[Mention]) -> bool:
    """Whether ``m`` is context rather than a candidate answer: ranked lower, or set apart as another
    one ("her other film X", "his previous film was X": the names after the cue, else the nearest)."""
    if ranked_lower(a, m, names):
        return True
    clause = a.clause(m)
    for cue in _OTHER.finditer(a.text[clause.start : clause.end]):
        at = clause.start + cue.start()
        after = [n for n in _in_clause(m, names) if n.start >= at]
        if m.start >= at or (not after and _nearest(a, m, names, cue) is m):
            return True
    text = a.text[clause.start : clause.end]
    if any(m.end <= clause.start + cue.start() for cue in _UNTIL.finditer(text)):
        return True  # "Tenet was his latest until Oppenheimer came out": Tenet
    return any(_nearest(a, m, names, cue) is m for cue in _FORMER.finditer(text))


#: what held before and no longer does: the nearest name ("X was the most popular last week; today Y")
_FORMER = re.compile(r"\b(?:used to(?: be)?|last (?:week|month|year)|no longer|any ?more|formerly)\b", re.I)
#: "X ... until Y": the names before it held before Y
_UNTIL = re.compile(r"\buntil\b", re.I)
#: a parenthesis that offers another answer ("A (some sources say B)", "A (or, by some counts, B)")
_ASIDE_ALTERNATIVE = re.compile(
    r"\(\s*(?:or\b|[^()]*\b(?:some (?:sources|people|lists|say)|by some|others? (?:say|list)|alternatively)\b)[^()]*$",
    re.I,
)


def aside_alternative(a: Analysis, m: Mention) -> bool:
    """Whether ``m`` stands in a parenthesis that offers it as another answer."""
    return bool(_ASIDE_ALTERNATIVE.search(a.text[a.clause(m).start : m.start]))


def _in_clause(m: Mention, names: Iterable[Mention]) -> list[Mention]:
    return [m, *(n for n in names if n.clause == m.clause and n != m)]


def _nearest(a: Analysis, m: Mention, names: Iterable[Mention], cue: re.Match) -> Mention:
    """The name of ``m``'s clause nearest a cue found in that clause's text."""
    lo = a.clause(m).start + cue.start()
    hi = a.clause(m).start + cue.end()
    return min(_in_clause(m, names), key=lambda n: n.start - hi if n.start >= hi else lo - n.end)


def possessive(a: Analysis, m: Mention) -> bool:
    """ "Nolan's Oppenheimer", "Bale's co-star"; not "the role is Heath Ledger's" (that says it is his)."""
    return bool(re.match(r"['’]s\s+\w", a.text[m.end : m.end + 4]))


_NUMBERED = re.compile(r"\b(season|episode|part|chapter|volume|vol)\.?\s*(\d+)\b|\bs(\d+)\s*e(\d+)\b", re.I)


def numbered(text: str) -> set[tuple[str, str]]:
    """The numbered items a text names ("season 2", "episode 3", "S2E3"), as (kind, number) pairs."""
    out = set()
    for m in _NUMBERED.finditer(text):
        if m.group(1):
            out.add((m.group(1).lower()[:3], m.group(2).lstrip("0")))
        else:
            out |= {("sea", m.group(3).lstrip("0")), ("epi", m.group(4).lstrip("0"))}
    return out


def role_holder(
    a: Analysis, asks: str, candidates: Iterable[Mention], names: Iterable[Mention], subject: set[str]
) -> Mention | None:
    """The candidate a copula asserts for the question's own role ("the lead actor of X" asked: "Its lead
    actor is Y", "The lead actor: Y"), or None: what the answer says holds the role, whatever else it says
    of other names. Not when another name than the question's stands before the role in its clause ("The
    Witcher's lead actor is Y" speaks of another show)."""
    role = re.match(r"^(?:the |a |an )?([a-z][\w -]*?) of ", asks.strip(), re.I)
    if role is None:
        return None
    words = r"[\s-]+".join(re.escape(w) for w in re.split(r"[\s-]+", role.group(1).strip()))
    names, candidates = list(names), list(candidates)
    for found in re.finditer(rf"\b{words}\s*(?:is|was|:)\s+[\"“']?", a.text, re.I):
        holder = next((m for m in candidates if m.start == found.end()), None)
        if holder is None or not holder.asserted:
            continue
        clause = a.clause(holder)
        if any(clause.start <= n.start < found.start() and n.key not in subject for n in names):
            continue
        return holder
    return None


#: the role that picks the question's subject: "X, lead of Y", "X, director of Y", "Y's lead actor, X"
CHAIN_ROLE = re.compile(r",\s*(?:the\s+)?([a-z][a-z -]*?)\s+of\s|['’]s\s+([a-z][a-z -]*?),\s*[A-Z]")


def chain_holder(a: Analysis, asks: str, people: Iterable[Mention], subject: set[str]) -> Mention | None:
    """A person other than the question's subject that the answer says holds the role the question
    picks its subject by ("the birthday of Henry Cavill, lead of The Witcher" asked: "The lead actor of
    The Witcher is Anya Chalotra"): the answer followed another chain, whatever it then says."""
    role = CHAIN_ROLE.search(asks)
    if role is None:
        return None
    words = (role.group(1) or role.group(2)).split()
    stem = r"[\s-]+".join(re.escape(w) for w in words)
    people = list(people)
    pattern = rf"\b{stem}(?:\s+(?:actor|actress|star))?(?:\s+of\s+[^,.;:]*?)?\s*(?:is|was|:)\s+"
    for found in re.finditer(pattern, a.text, re.I):
        holder = next((m for m in people if m.start == found.end()), None)
        if holder is not None and holder.asserted and holder.key.lstrip("?") not in subject:
            return holder
    return None


#: a question that names the entity its description picks: "the director of today's most trending movie
#: (Oppenheimer)": the description, and the entity
_DESCRIBED = re.compile(r"\b(?:of|for)\s+(?:the\s+|a\s+)?((?:[\w'’-]+\s+){0,4}?[\w'’-]+)\s*\(([^()]+)\)\s*$")
_LEAD_IN = re.compile(r"^(?:today['’]s|the|a|an|currently|now)\s+", re.I)


def described_other(
    a: Analysis, asks: str, titles: Iterable[Mention], known: Iterable[str]
) -> Mention | None:
    """A title other than the one the question names that the answer says its description picks
    ("Christopher Nolan directed Barbie, today's most trending movie" for "(Oppenheimer)"): an apposition
    ("B, the most trending movie") or a copula ("the most trending movie is B", "B is the most trending
    movie"), asserted. The description is the question's last words before the parenthesis, its lead-in
    ("today's", "the") optional; the parenthesis must name one of the ``known`` titles."""
    found = _DESCRIBED.search(asks.strip())
    titles = list(titles)
    entity = normalise(found.group(2)) if found else ""
    if found is None or entity not in {normalise(n) for n in known}:  # "(released or announced)": no name
        return None
    desc = found.group(1)
    while _LEAD_IN.match(desc):
        desc = _LEAD_IN.sub("", desc, count=1)
    words = r"[\s-]+".join(re.escape(w) for w in re.split(r"[\s-]+", desc) if w)
    lead = r"(?:(?:the|today['’]s|currently|now|right now)\s+)*"
    for m in titles:
        if normalise(m.key) == entity or not m.asserted:
            continue
        after = a.text[m.end : m.end + 80]
        before = a.text[max(0, m.start - 80) : m.start]
        if re.match(rf"\s*(?:,|is|was)\s*{lead}{words}\b", after, re.I) or re.search(
            rf"\b{words}\s+(?:(?:today|now|right now|currently)\s+)?(?:is|was|:)\s*[\"“']?$", before, re.I
        ):
            return m
    return None


_REVIEWS = re.compile(r"\breviews?\b", re.I)


def reviews_of_other(a: Analysis, asks: str, titles: Iterable[Mention], subject: set[str]) -> Mention | None:
    """For a question that asks for reviews of a title, a review the answer gives of another one: "a
    review of Tár" (the title right after "review(s) of"), or "The Notebook; reviews: ..." (the nearest
    title before "review(s)" on its line). The question's own titles are its ``subject``."""
    if not re.match(r"\s*(?:a\s+)?reviews?\s+of\s+(?!an?\s)", asks, re.I):  # not "of a ... movie": any
        return None
    titles = sorted(titles, key=lambda m: m.start)
    for cue in _REVIEWS.finditer(a.text):
        after = re.match(r"\s+of\s+", a.text[cue.end() :])
        if after:
            of = next((m for m in titles if m.start == cue.end() + after.end()), None)
            if of is not None and of.key not in subject:
                return of
            continue
        line_start = a.text.rfind("\n", 0, cue.start()) + 1
        before = [
            m for m in titles if line_start <= m.start and m.end <= cue.start() and cue.start() - m.end <= 40
        ]
        if before and before[-1].key not in subject and before[-1].asserted:
            return before[-1]
    return None


def subject_names(asks: str, context_names: Iterable[str], known: Iterable[str]) -> set[str]:
    """The names the question is about: the key's context, and every known name its ``asks`` gives."""
    asked = " " + normalise(re.sub(r"['’]s\b", "", asks)) + " "  # "Maroon 5's newest album": Maroon 5
    return set(context_names) | {n for n in known if len(normalise(n)) >= 3 and f" {normalise(n)} " in asked}


def about_other(
    a: Analysis, m: Mention, names: Iterable[Mention], subject: set[str], kinds: dict[str, str]
) -> bool:
    """Whether ``m``'s clause names something of the kind of the question's subject (``kinds``: name ->
    person or title) that is not the subject, and no subject: ``names`` holds no candidate of the key."""
    subject_kinds = {kinds[n] for n in subject if n in kinds}
    inside = [n for n in names if n.clause == m.clause]
    # a one-word name ("Somewhere", "Batman") is as likely an ordinary word or a role: not another thing
    return not any(n.key in subject for n in inside) and any(
        n.key not in subject
        and kinds.get(n.key) in subject_kinds
        and len(a.text[n.start : n.end].split()) > 1
        for n in inside
    )


#: what opens a list item: a bullet or a list number at the line's start, or a number after ":" or ")"
_ITEM_START = re.compile(r"(?:^|\n)[ \t]*(?:\d{1,2}[.)]|[-*•·])[ \t]*$|[:)][ \t]*\d{1,2}[.)][ \t]*$")


def list_item(a: Analysis, m: Mention) -> bool:
    """Whether ``m``'s clause is an item of a bulleted or numbered list (as an agent quotes results)."""
    clause = a.clause(m)
    line_start = a.text.rfind("\n", 0, clause.start) + 1
    return bool(
        _ITEM_START.search(a.text[line_start : clause.start]) or _ITEM_START.search(a.text[: clause.start])
    )


#: a copula that gives what a description picks ("the most popular person is X", "belongs to X"; not a
#: colon: "Release dates: US: d1" labels, it does not describe)
_HOLDER_COPULA = re.compile(r"\s+(?:is|was|are|were|belongs to|goes to)\s+[\"“'*]*", re.I)
#: a qualifier after a description's head noun ("its lead actor by billing order", "in today's list")
_QUALIFIER = re.compile(r"\s+(?:by|in|on|according to|as of|at|from|for)\s+[^,]*$", re.I)
#: head nouns a description may end in beside the question's own words: the kind of thing picked
_HEADS = {"movi", "film", "show", "seri", "albu", "trac", "song", "pers", "appe", "role", "one", "acto"}


def other_holder(
    a: Analysis,
    topic: set[str],
    candidates: Iterable[Mention],
    names: Iterable[Mention],
    accepted: set[str],
    subject: set[str],
) -> Mention | None:
    """A candidate other than the ``accepted`` answers and the question's ``subject`` that a copula says is
    what the question describes ("the most popular on-air show is B", "her latest movie appearance is B",
    "its lead actor by billing order is B", "that episode's guest star is B"), or None. The words before
    the copula in its clause (after its last comma) say two of the question's ``topic`` words outside
    names, kind nouns and the subject's name included ("the lead of <subject> is B"), and end in one of
    them or a kind noun (a qualifier after it aside), and name nothing but the subject; the
    holder is not set apart as context (ranked lower, another one)."""
    candidates, names = list(candidates), list(names)
    spans = [(m.start, m.end) for m in names]
    for clause in (c for c in a.clauses if c.asserts):
        text = a.text[clause.start : clause.end]
        for cop in _HOLDER_COPULA.finditer(text):
            holder = next((m for m in candidates if m.start == clause.start + cop.end()), None)
            if holder is None or holder.key.lstrip("?") in accepted | subject or possessive(a, holder):
                continue
            lead_start = clause.start + text.rfind(",", 0, cop.start()) + 1
            phrase = _QUALIFIER.sub("", a.text[lead_start : clause.start + cop.start()])
            words = [
                t.norm[:4]
                for t in clause.tokens
                if lead_start <= t.start < lead_start + len(phrase)
                and len(t.norm) >= 3
                and not any(s <= t.start < e for s, e in spans)
            ]
            own = any(n.key in subject and lead_start <= n.start < lead_start + len(phrase) for n in names)
            if len(set(words) & (topic | _HEADS)) + own < 2 or not words or words[-1] not in topic | _HEADS:
                continue
            if not set(words) & topic or context(a, holder, [*names, *candidates]):
                continue
            if any(  # "The Witcher's lead actor is B": a description of another thing than the subject
                n.key not in subject and lead_start <= n.start < lead_start + len(phrase) for n in names
            ):
                continue
            return holder
    return None
