"""The checks of one requirement of an answer key, one rule per kind of value (``answer_keys`` holds the
keys; ``commitment`` decides what an answer commits to; ``claims`` reads the text).

- ``one_of`` (a single answer): an accepted name is asserted and never denied, and the answer commits
  to no other candidate of the key's kind (catalogue names, pooled values, any image path) in any
  sentence or clause, nor offers accepted names as alternatives ("A or B");
- ``some_of`` (a list): ``need`` accepted items asserted, no listed distractor asserted, no pooled
  distractor committed to;
- ``number``: the value stated (digits or words of any size), and no other value stated for the same
  thing (followed by the key's unit, alone in its clause, or offered as an alternative: "3, or 4");
- ``dates`` / ``year``: a right date stated, no other date in the same clause, alone, or offered
  beside it;
- ``polarity``: yes / no; ``winner`` / ``loser``: a comparison, by its cue words or by its numbers.
"""

from __future__ import annotations

import re

from restgraph.evals.scorers import commitment, focus
from restgraph.evals.scorers.claims import Analysis, Mention
from restgraph.evals.scorers.key_comparison import comparison
from restgraph.evals.scorers.key_pools import IMAGE_PATH, pools
from restgraph.evals.scorers.key_schema import AnswerKey, Requirement
from restgraph.evals.scorers.tmdb_success import normalise


def check(r: Requirement, a: Analysis, mentions: list[Mention], key: AnswerKey) -> str | None:
    topic = commitment.question_prefixes(key.asks)
    if r.one_of is not None:
        kind = "person" if r.kind == "person" else "title"
        # a pooled value (a city, a keyword) has no catalogue names of its kind: a title is no city
        catalogue = {n for k, n in key._neutral if k == kind} if r.kind != "text" or not r._pooled else set()
        subject = focus.subject_names(key.asks, key.context, {n for _, n in key._neutral} - set(r.one_of))
        return _one_of(r, a, mentions, catalogue, topic, key.asks, subject, _kinds(key))
    if r.some_of is not None:
        subject = focus.subject_names(key.asks, key.context, {n for _, n in key._neutral} - set(r.some_of))
        return _some_of(r, a, mentions, topic, subject, _kinds(key))
    if r.number is not None:
        return _number(r, a, mentions)
    if r.dates is not None or r.year is not None:
        return _dates(r, a, mentions)
    if r.polarity is not None:
        got = a.polarity(key.asks)
        return None if got == r.polarity else f"answers {got or 'neither yes nor no'}, expected {r.polarity}"
    return comparison(r, a, mentions)


def _kinds(key: AnswerKey) -> dict[str, str]:
    """The question's own names (in its words, not the chain's entities its parentheses give) and their
    kinds, for ``focus.about_other``; {} when it names none."""
    kinds = {n: k for k, n in key._neutral}
    literal = focus.subject_names(re.sub(r"\([^)]*\)", " ", key.asks), (), kinds)
    return {n: k for n, k in kinds.items()} if literal else {}


def _found(
    r: Requirement, a: Analysis, mentions: list[Mention], names: list[str] | set[str]
) -> list[Mention]:
    if r.kind == "path":
        wanted = set(names)
        return [m for m in _paths(a) if m.key in wanted]
    if r.kind == "domain":  # the whole URL is the mention, so "URL1 and URL2" reads as a list
        out = []
        for m in (m for n in names for m in a.raw(n)):
            start = len(re.sub(r"\S*$", "", a.text[: m.start]))
            tail = re.match(r"[^\s,;)\]]*", a.text[m.end :])
            end = m.end + len(tail.group().rstrip(".!?") if tail else "")
            out.append(Mention(m.key, m.clause, start, end, m.asserted))
        return out
    wanted = set(names)
    out = [m for m in mentions if m.key in wanted]
    if r.by:  # a one-word track name needs its artist in the same clause
        out = [
            m
            for m in out
            if len(m.key.split()) > 1
            or m.key not in r.by
            or any(o.key in r.by[m.key] and o.clause == m.clause for o in mentions)
        ]
    return out


def _paths(a: Analysis) -> list[Mention]:
    """Every image file path in the answer (in a URL or alone): each is a candidate of its kind."""
    out = []
    for m in IMAGE_PATH.finditer(a.text):
        clause = a.clause_at(m.start())
        if clause is not None:
            out.append(Mention(m.group(), clause.index, m.start(), m.end(), clause.asserts))
    return out


def _candidates(r: Requirement, a: Analysis, mentions: list[Mention], names: set[str]) -> list[Mention]:
    """The answer's candidates of the requirement's kind: ``names``, and for paths every image path."""
    return _paths(a) if r.kind == "path" else _found(r, a, mentions, names)


def _one_of(
    r: Requirement,
    a: Analysis,
    mentions: list[Mention],
    catalogue: set[str],
    topic: set[str],
    asks: str,
    subject: set[str],
    kinds: dict[str, str],
) -> str | None:
    """A single answer; ``catalogue``: every known name of the key's kind, ``subject``: the question's
    own names (``focus.subject_names``)."""
    accepted = set(r.one_of or [])
    same_kind = catalogue - subject
    right = _found(r, a, mentions, accepted)
    if r.cue:
        right = [m for m in right if _at_cue(m, mentions, a, r.cue)]
    if any(a.clause(m).denies for m in right):
        return f"denies {right[0].key}"
    asserted = [m for m in commitment.standing(a, right) if not focus.ranked_lower(a, m, mentions)]
    if not asserted:
        return f"does not assert {r.one_of[:3] if r.one_of else []}"
    wrong = _found(r, a, mentions, r.distractors)
    wrong_keys = {m.key for m in wrong}
    offered = []
    for m in asserted:  # a list of candidates is not a statement
        items = (
            a.enumeration(m, mentions) if m in mentions else [m, *(o for o in wrong if a.enumerated(m, o))]
        )
        others = [o.key for o in items if o.key not in accepted and not a.clause(o).denies]  # "not A - B"
        if any(k in wrong_keys or k in catalogue for k in others) or len(others) >= 3:
            offered.append(f"offers {m.key} among candidates ({others[0]})")
        elif r.kind == "title" and _beside_unknown(a, m, mentions):  # (people: padded casts are unknown)
            offered.append(f"offers {m.key} in a list of other names")
    if len(offered) == len(asserted):
        return offered[0]
    # a name the question itself says is its subject, not a candidate
    pool = {n for n in set(r.distractors) | same_kind if n not in focus.subject_names(asks, (), [n])}
    candidates = commitment.standing(a, _candidates(r, a, mentions, accepted | pool))
    if r.cue:
        candidates = [m for m in candidates if _at_cue(m, mentions, a, r.cue)]
    unknown = commitment.standing(a, _unknown_people(a, mentions, topic)) if r.kind == "person" else []
    # a person the catalogue does not know can be the answer given, not merely listed beside it (the
    # sandbox's padded casts are such names)
    chosen = commitment.committed(
        a,
        [*candidates, *unknown],
        topic,
        mentions,
        unlisted=unknown,
        single=True,
        subject=subject,
        kinds=kinds,
    )
    extra = sorted({m.key for m in chosen} - accepted)
    if extra:
        return f"commits to {extra[0]} besides {asserted[0].key}"
    if commitment.disjunctive(a, chosen):
        return f"offers alternatives ({' or '.join(sorted({m.key for m in chosen}))})"
    if r.kind in ("person", "title") and any(_or_unknown(a, m) for m in asserted):
        return f"offers {asserted[0].key} or another name"
    spans = [(m.start, m.end) for m in mentions]
    own = [m for m in commitment.standing(a, mentions) if m.key in catalogue & subject]
    offered_own = [m for m in own if commitment.bare(a, m, spans)]  # "Bryn Higgins. Carl Tibbetts."
    if offered_own:
        return f"offers {offered_own[0].key}, a name the question gives, besides {asserted[0].key}"
    return None


def _or_unknown(a: Analysis, m: Mention) -> bool:
    """Whether ``m`` is offered as an alternative to a name the vocabulary does not know ("Catherine
    Hardwicke or Chris Weitz", "Chris Weitz or Catherine Hardwicke")."""
    clause = a.clause(m)
    after = a.text[m.end : clause.end]
    before = a.text[clause.start : m.start]
    name = r"(?:[A-Z][\w'’.-]*\s+){0,3}[A-Z][\w'’.-]*"
    return bool(re.match(rf"\s*,?\s+or\s+{name}", after) or re.search(rf"{name}\s*,?\s+or\s+$", before))


_NEXT_ITEM = re.compile(
    r"^\s*(?:\([^()]*\)\s*)?(?:,|/|\band\b|\bor\b)\s*(?:and\s+|or\s+)?"
    r"((?:[A-Z0-9][\w'’.:&+-]*\s*){1,5})(?=,|/|\band\b|\bor\b|[.!?]?\s*$)"
)


def _beside_unknown(a: Analysis, m: Mention, mentions: list[Mention]) -> bool:
    """Whether a name the vocabulary does not know follows ``m`` as the next item of a list ("Friends,
    Feud and American Crime Story"): candidates offered, though not ones the key lists."""
    found = _NEXT_ITEM.match(a.text[m.end : a.clause(m).end])
    if found is None:
        return False
    start = m.end + found.start(1)
    return not any(o.start == start for o in mentions)


_PERSON = re.compile(r"\b[A-Z][a-z]+(?:[ -][A-Z][a-z'’]+){1,2}\b")


def _unknown_people(a: Analysis, mentions: list[Mention], topic: set[str]) -> list[Mention]:
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
        clause = a.clause_at(found.start())
        if clause is not None:
            out.append(Mention(f"?{found.group()}", clause.index, found.start(), found.end(), clause.asserts))
    return out


_ROLE_BEFORE = re.compile(
    r"\b(?:as|plays?|played|playing|roles?(?: of)?|character|portray\w*|voic\w*)\s+(?:the\s+)?(?:\w+\s+)?$",
    re.I,
)
_NOT_NAMES = {
    *["season", "episode", "part", "chapter", "vol", "volume", "movie", "film", "show", "series"],
    *["your", "my", "our", "spotify", "tmdb", "netflix", "hbo"],  # "Your Spotify display name is ..."
}


def _at_cue(m: Mention, all_mentions: list[Mention], a: Analysis, cue: list[str]) -> bool:
    """Whether ``m`` is what a cue word names: at most two words between them ("album: X", "the
    album is X", "X album") and no other known name in between ("X is on the album Y" names Y)."""
    tokens = a.clause(m).tokens
    others = [o for o in all_mentions if o.clause == m.clause and o.key != m.key]
    for t in (t for t in tokens if t.norm in cue):
        lo, hi = (t.end, m.start) if t.end <= m.start else (m.end, t.start)
        between = [x for x in tokens if lo <= x.start and x.end <= hi]
        if len(between) <= 2 and not any(lo <= o.start < hi for o in others):
            return True
    return False


def _some_of(
    r: Requirement,
    a: Analysis,
    mentions: list[Mention],
    topic: set[str],
    subject: set[str],
    kinds: dict[str, str],
) -> str | None:
    accepted = r.some_of or []
    need = len(accepted) if r.need == "all" else r.need
    right = commitment.standing(a, _found(r, a, mentions, accepted))
    others = [m for m in _candidates(r, a, mentions, set(r.distractors)) if m.key not in set(accepted)]
    chosen = commitment.committed(
        a,
        [*right, *commitment.standing(a, others)],
        topic,
        mentions,
        fallback=need > 0 or bool(right),
        subject=subject,
        kinds=kinds,
    )
    wrong = {m.key for m in chosen if m.key not in set(accepted)}
    if r.wrong_from in ("keywords", "genres"):  # a closed vocabulary: an item outside it is wrong too
        known = {normalise(v) for v in [*pools()[r.wrong_from], *accepted]}
        wrong |= _unknown_items(a, [m for m in chosen if m.key in set(accepted)], mentions, known)
    if wrong:
        return f"asserts wrong items: {sorted(wrong)[:4]}"
    got = {m.key for m in right}
    if len(got) < need:
        return f"asserts {len(got)} of the {need} needed items of {accepted[:4]}{' ...' if len(accepted) > 4 else ''}"
    return None


_LIST_END = re.compile(r"^(?:etc|and more|more|others|among others|and others|and so on|so on|too)$", re.I)


def _unknown_items(a: Analysis, items: list[Mention], mentions: list[Mention], known: set[str]) -> set[str]:
    """Items of the answer's lists of known values that are no known value ("shipwreck, iceberg, time
    travel" for Titanic's keywords): from each list's first item to where the list ends (a segment of
    more than three words, or the clause's end), split on commas, semicolons, slashes, "and", "or"."""
    out: set[str] = set()
    for clause in sorted({m.clause for m in items}):
        first = min(m.start for m in items if m.clause == clause)
        end = a.clauses[clause].end
        text = list(a.text[first:end])
        for m in mentions:  # known names become one opaque mark, so "based on novel or book" stays whole
            if first <= m.start and m.end <= end:
                text[m.start - first : m.end - first] = ["§"] + [""] * (m.end - m.start - 1)
        for segment in re.split(r"\s*(?:[,;/]|\band\b|\bor\b)\s*", "".join(text).rstrip(" .!?)")):
            words = segment.strip(" .:()\"'").split()
            if not words or segment.strip() == "§" or _LIST_END.match(" ".join(words)):
                continue
            if len(words) > 3 or "§" in segment:
                break
            if normalise(" ".join(words)) not in known:
                out.add(" ".join(words))
    return out


def _competes(
    a: Analysis, other: Mention, right: list[Mention], spans: list[tuple[int, int]], alone: bool = False
) -> bool:
    """Whether ``other`` (a number or a date) is stated as another value of the asked thing: alone in
    its clause (``alone``: without even filler words), in a list with a right one, or offered as its
    alternative ("3, or 4")."""
    by_itself = (
        not [t for t in a.clause(other).tokens if not any(s <= t.start < e for s, e in spans)]
        if alone
        else commitment.bare(a, other, spans)
    )
    return by_itself or any(
        a.enumerated(m, other)
        or (
            a.clause(m).sentence == a.clause(other).sentence
            and re.search(r"\bor\b", a.text[min(m.end, other.end) : max(m.start, other.start)], re.I)
        )
        for m in right
    )


#: what follows a count that is the asked count under another reading ("8 with the short film")
_QUALIFIERS = {"if", "with", "counting", "including", "excluding", "without", "when", "plus", "aired", "for"}


def _qualified_count(a: Analysis, m: Mention) -> bool:
    """Whether ``m`` opens its clause as another answer to the count ("7. Or 8 with the short film",
    "Eight if you count her TV work", "137 aired in the US"): nothing but "or"/"and" before it, and
    nothing or a qualifier after it."""
    tokens = a.clause(m).tokens
    before = [t.norm for t in tokens if t.end <= m.start]
    after = [t.norm for t in tokens if t.start >= m.end]
    return all(w in ("or", "and", "but", "maybe") for w in before) and (not after or after[0] in _QUALIFIERS)


#: a number that names something rather than counts it ("the show's id is 138", "ID: 1769")
_IDENTIFIER = re.compile(r"\b(?:id|ids|identifier)\s*(?:is|was|=|:|#|of)?\s*$", re.I)
#: what may close a count as well as its clause's end: an aside, "of them", "in total"
_COUNT_END = re.compile(r"\s*(?:[:—–(]|(?:of them|in total|in all|altogether|overall|total)\b)", re.I)


def _number(r: Requirement, a: Analysis, mentions: list[Mention]) -> str | None:
    numbers = [
        m
        for m in a.numbers(exclude=mentions)
        if not _IDENTIFIER.search(a.text[max(0, m.start - 16) : m.start])
    ]
    live = commitment.standing(a, numbers)
    right = [m for m in numbers if m.key == str(r.number)]
    if any(a.clause(m).denies for m in right):
        return f"denies {r.number}"
    stated = [
        m
        for m in right
        if m in live
        and not _APPROXIMATE.search(a.text[max(0, m.start - 24) : m.start])
        and (
            not r.unit
            or a.followed_by(m, r.unit)
            or a.ends_clause(m)
            or _COUNT_END.match(a.text[m.end :])  # "The difference is zero: ...", "138 (over six seasons)"
        )
    ]
    if not stated:
        return f"does not state the number {r.number}" + (f" ({'/'.join(r.unit[:2])})" if r.unit else "")
    spans = [(m.start, m.end) for m in [*numbers, *mentions]]
    for o in (o for o in live if o.key != str(r.number)):
        if (r.number or 0) < 1800 and 1800 <= int(o.key) <= 2100:
            continue  # a year is not another count
        if _unit_after(a, o, r.unit, spans) or _competes(a, o, stated, spans) or _qualified_count(a, o):
            return f"states {o.key} besides {r.number}"
    return None


#: a count given as an estimate ("roughly 138", "about 7", "over 130") is not the count
_APPROXIMATE = re.compile(
    r"\b(?:about|around|roughly|approximately|approx\.?|nearly|almost|over|more than|at least|circa|some)\s*$|~\s*$",
    re.I,
)


def _unit_after(a: Analysis, m: Mention, unit: list[str], spans: list[tuple[int, int]]) -> bool:
    """Whether a unit word comes right after ``m`` ("8 movies", "8 feature films"), no other number between."""
    for t in [t for t in a.clause(m).tokens if t.start >= m.end][:2]:
        if any(s <= t.start < e for s, e in spans):
            return False
        if t.norm in unit:
            return True
    return False


def _dates(r: Requirement, a: Analysis, mentions: list[Mention]) -> str | None:
    live = set(commitment.standing(a, [*a.dates, *a.numbers(), *a.short_years]))
    if r.year is not None:
        found = [m for m in a.dates if any(d.year == r.year for d in m.values)] + [
            m for m in [*a.numbers(), *a.short_years] if m.key == str(r.year)
        ]
        others = [m for m in a.dates if all(d.year != r.year for d in m.values)] + [
            m for m in [*a.numbers(), *a.short_years] if len(m.key) == 4 and m.key != str(r.year)
        ]
        label = str(r.year)
    else:
        accepted = set(r.dates or [])
        found = [m for m in a.dates if {d.isoformat() for d in m.values} & accepted]
        others = [m for m in a.dates if not {d.isoformat() for d in m.values} & accepted]
        label = ", ".join(sorted(accepted))
    if any(a.clause(m).denies for m in found):
        return f"denies {label}"
    stated = [m for m in found if m in live]
    if not stated:
        return f"does not state {label}"
    spans = [(m.start, m.end) for m in [*found, *others]]
    for o in (o for o in others if o in live):
        same_clause = r.year is None and any(
            o.clause == m.clause and not _aside(a, o) and not _range_end(a, m, o) for m in stated
        )
        if same_clause or _competes(a, o, stated, spans, alone=True):  # "US: d1; IT: d2" lists countries
            return f"offers {label} among other dates ({a.text[o.start : o.end]})"
    if r.dates is not None and r.need == "all":
        covered = {d.isoformat() for m in stated for d in m.values}
        missing = sorted(set(r.dates) - covered)
        if missing:
            return f"misses {missing}"
    if r.dates is not None and r.labels:
        return _misassigned(r, a, stated, mentions)
    return None


def _misassigned(r: Requirement, a: Analysis, stated: list[Mention], mentions: list[Mention]) -> str | None:
    """Each stated date belongs to the label nearest before it in its clause ("A – d1; B (d2)", "A came
    out d1, B on d2"), else the first after it there ("d1: A"); a clause without a label says nothing."""
    owner = dict(zip(r.dates or [], r.labels, strict=False))
    labels = [m for m in mentions if m.key in r.labels]
    for m in stated:
        before = [x for x in labels if x.clause == m.clause and x.end <= m.start]
        after = [x for x in labels if x.clause == m.clause and x.start >= m.end]
        if not before and not after:
            continue
        nearest = max(before, key=lambda x: x.end) if before else min(after, key=lambda x: x.start)
        if not any(owner.get(d.isoformat()) == nearest.key for d in m.values):
            return f"gives {a.text[m.start : m.end]} to {nearest.key}"
    return None


def _aside(a: Analysis, m: Mention) -> bool:
    """Whether ``m`` stands inside parentheses: an aside about something else ("(first aired ...)")."""
    before = a.text[a.clause(m).start : m.start]
    return before.count("(") > before.count(")")


def _range_end(a: Analysis, right: Mention, other: Mention) -> bool:
    """Whether ``other`` closes a span that ``right`` opens ("aired April 1, 2012, and ran until June 3")."""
    between = a.text[right.end : other.start] if other.start >= right.end else ""
    return bool(re.search(r"\b(?:until|till|through|to|ended|ending|finale|last)\b", between, re.I))
