"""The ``number``, ``dates`` and ``year`` requirements of an answer key: one value stated for the asked
thing, and no other value for it.

Apart from ``key_rules`` (names and lists) because a value is read differently from a name: a count
is the number followed by its unit, closing its clause or an aside ("138 (six seasons)", "7 of them");
not an estimate ("about 7"), not an identifier ("id 138"); and another value competes when it is said
the same way (with the unit, alone, in a list with the right one, as its alternative, "Or 8 with the
short film"). A date is read in any written form; another date competes in the same clause (unless
it closes a span the right one opens or stands in an aside), alone, or beside it; ``labels`` tie each
date to its item ("A - d1; B (d2)"); ``precision: month`` lets a month and its year state a release or
air date ("Dec '19"). Another value said to be the total ("so 162 in total") competes; "less than a
year" states 0 years; "not ... until" states its date. An ``optional`` count or year (an album's track
count for "the album information") holds unstated and fails when another one is stated.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date
from typing import NamedTuple

from restgraph.evals.scorers import commitment, focus, item_labels
from restgraph.evals.scorers.claims import Analysis, Mention
from restgraph.evals.scorers.claims_values import MONTH_YEAR, month_of
from restgraph.evals.scorers.key_schema import Requirement
from restgraph.evals.scorers.tmdb_success import normalise


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
    lead = _lead(a, m)
    # an aside opens its own statement: "138 episodes (that's 139 with the unaired pilot)"
    start = a.clause(m).start + lead.rfind("(") + 1 if lead.count("(") > lead.count(")") else 0
    before = [t.norm for t in tokens if start <= t.start and t.end <= m.start]
    after = [t.norm for t in tokens if t.start >= m.end]
    opener = ("or", "and", "but", "maybe", "thats", "its", "so")
    return all(w in opener for w in before) and (not after or after[0] in _QUALIFIERS)


_PART_BEFORE = re.compile(
    r"\b(?:the (?:last|first|final|latest)(?: one| season)?(?: with| had| has)?|each(?: with| had| has)?"
    r"|of which|of them|\bseason \w+ (?:had|has|with|contains?|ran|runs))\s*$",
    re.I,
)
_PART_AFTER = re.compile(r"^\s*\w+\s+(?:per|each|a season|in (?:the )?(?:first|last|final|latest)\b)", re.I)


def _part(a: Analysis, m: Mention) -> bool:
    """Whether ``m`` counts a part of the asked thing ("the last with 22 episodes", "22 episodes per
    season", "7 of which"), not another value of it."""
    return bool(
        _PART_BEFORE.search(a.text[max(0, m.start - 30) : m.start]) or _PART_AFTER.match(a.text[m.end :])
    )


#: a number that names something rather than counts it ("the show's id is 138", "ID: 1769")
_IDENTIFIER = re.compile(r"\b(?:id|ids|identifier)\s*(?:is|was|=|:|#|of)?\s*$", re.I)
#: what may close a count as well as its clause's end: an aside, "of them", "in total"
_COUNT_END = re.compile(r"\s*(?:[:—–(]|(?:of them|in total|in all|altogether|overall|total)\b)", re.I)


#: the short forms of a unit a judge reads as the unit ("138 eps")
UNIT_ABBREVIATIONS = {"episodes": ["eps", "ep"], "episode": ["ep"]}


def number(r: Requirement, a: Analysis, mentions: list[Mention], scope: Scope | None = None) -> str | None:
    r = r.model_copy(update={"unit": [*r.unit, *(x for u in r.unit for x in UNIT_ABBREVIATIONS.get(u, []))]})
    numbers = [
        m
        for m in a.numbers(exclude=mentions)
        if not _IDENTIFIER.search(a.text[max(0, m.start - 16) : m.start])
    ]
    under = _under_one(a, r.unit) if r.number == 0 else []
    live = commitment.standing(a, [*numbers, *under])
    right = [m for m in numbers if m.key == str(r.number)] + under
    if any(a.clause(m).denies for m in right):
        return f"denies {r.number}"
    stated = [
        m
        for m in right
        if m in live
        and not _APPROXIMATE.search(a.text[max(0, m.start - 24) : m.start])
        and (
            not r.unit
            or m in under
            or a.followed_by(m, r.unit)
            or a.ends_clause(m)
            or _COUNT_END.match(a.text[m.end :])  # "The difference is zero: ...", "138 (over six seasons)"
        )
    ]
    spans = [(m.start, m.end) for m in [*numbers, *mentions]]
    if r.optional:  # an optional fact: only another count of its own unit competes ("7 seasons")
        given = next((o for o in live if o.key != str(r.number) and _unit_after(a, o, r.unit, spans)), None)
        return f"states {given.key} {r.unit[0]} rather than {r.number}" if given else None
    if not stated:
        return f"does not state the number {r.number}" + (f" ({'/'.join(r.unit[:2])})" if r.unit else "")
    rivals = [
        o
        for o in live
        if o.key != str(r.number)
        and not ((r.number or 0) < 1800 and 1800 <= int(o.key) <= 2100)  # a year is not another count
        and not _part(a, o)  # "the last with 22 episodes": a count of a part, not another total
        and not _LABEL.search(a.text[max(0, o.start - 12) : o.start])  # "Season 1": a name, not a count
    ]
    for o in rivals:
        if (
            _unit_after(a, o, r.unit, spans)
            or _competes(a, o, stated, spans)
            or _qualified_count(a, o)
            or _total(a, o, r.unit)
        ):
            return f"states {o.key} besides {r.number}"
    # "one" is as often a pronoun ("the older one", "one of them") as a count
    other = committed_other(
        a, stated, [o for o in rivals if a.text[o.start : o.end].lower() != "one"], mentions, scope
    )
    return f"commits to {other} rather than {r.number}" if other else None


#: a number said to be the total ("so 162 in total", "a total of 148"): the asked count, if it is one
_TOTAL_AFTER = re.compile(r"^\s*(?:in total|in all|altogether|all told|overall)\b", re.I)
_TOTAL_BEFORE = re.compile(r"\b(?:a total of|totals?|totall?ing|total (?:is|was|of|comes to))\s*$", re.I)


def _total(a: Analysis, m: Mention, unit: list[str]) -> bool:
    """Whether ``m`` is stated as the total of what is counted ("138 episodes in 6 seasons, plus 24
    specials, so 162 in total"): "in total" right after it, or "a total of" before it with no other
    unit after ("a total of 6 seasons" counts seasons, not the asked episodes)."""
    after = a.text[m.end :]
    word = re.match(r"[ \t]*([a-z]+)", after, re.I)
    return bool(
        _TOTAL_AFTER.match(after)
        or (
            _TOTAL_BEFORE.search(a.text[max(0, m.start - 24) : m.start])
            and (word is None or word.group(1).lower() in unit)
        )
    )


#: "less than a year" states zero full years
_UNDER_ONE = r"\b(?:less than|under|not even|not quite|short of|within)\s+(?:a|one)\s+(?:full\s+)?"


def _under_one(a: Analysis, unit: list[str]) -> list[Mention]:
    """A difference of zero said as less than one unit ("older by less than a year", "under a year
    apart"), as the number 0 (a key counting full ``unit`` s)."""
    out = []
    for word in (u for u in unit if u.isalpha() and not u.endswith("s")):
        for found in re.finditer(_UNDER_ONE + re.escape(word) + r"\b", a.text, re.I):
            clause = a.clause_at(found.start())
            if clause is not None:
                out.append(Mention("0", clause.index, found.start(), found.end(), clause.asserts))
    return out


def states_count(key_require: list[Requirement], a: Analysis, sentence: int) -> bool:
    """Whether ``sentence`` states the right value of one of the key's ``optional`` counts with its unit
    ("Born To Die, Jan '12, twelve tracks"): a fact only the answered thing has (an album's track count),
    so the name beside it is that thing, though no cue word ("album") says so."""
    for q in (q for q in key_require if q.optional and q.number is not None):
        for m in a.numbers():
            if m.key == str(q.number) and a.clause(m).sentence == sentence and a.followed_by(m, q.unit):
                return True
    return False


#: a number that labels an item rather than counts ("Season 1", "episode 3", "Part 2", "Vol. 1", "#4")
_LABEL = re.compile(
    # ("i.e. 4 seasons", "that's 139": an abbreviation's last letter or a contraction is no label)
    r"\b(?:seasons?|episodes?|parts?|chapters?|volume)[ \t]+$|(?<![\w.'’])(?:ep|vol|no|s|e)\.?[ \t]*$|#\s*$",
    re.I,
)


def _sentence_text(a: Analysis, m: Mention) -> str:
    clauses = a.sentence_clauses(a.clause(m).sentence)
    return a.text[clauses[0].start : clauses[-1].end]


class Scope(NamedTuple):
    """What a key asks about: its ``asks``' word prefixes (``commitment.question_prefixes``), the names it
    is about (``focus.subject_names``), and the known names' kinds (person / title)."""

    topic: set[str]
    subject: set[str]
    kinds: dict[str, str]
    asks: str


def committed_other(
    a: Analysis, right: list[Mention], rivals: list[Mention], mentions: list[Mention], scope: Scope | None
) -> str | None:
    """Another value the answer commits to as the asked one, by ``commitment``'s rule for a single answer
    (the value nearest the question's words in the sentences that say most of them, each sentence's own
    when two say it alike): "X was born on d1. X was born on d2." offers two dates, "X was born on d1
    (d2 also shows up in the results)" commits to d1. The text of the first such value, or None."""
    if scope is None:
        return None
    # a value in a clause about another person or title than the question's is that thing's value ("The
    # film's lead, Tim Robbins, was born on d2"), not a rival
    # the subject as the question words it, whatever the catalogue calls it ("The Fellowship of the Ring")
    asks = f" {normalise(scope.asks)} "
    subject = scope.subject | {m.key for m in mentions if f" {normalise(a.text[m.start : m.end])} " in asks}
    others = [m for m in mentions if m.key not in subject]
    # within one sentence the clause rules of ``number`` and ``dates`` decide (a list of countries' dates,
    # a span "d1 until d2"), unless every right value there is an aside to the rival's statement
    sentences = {a.clause(m).sentence for m in right if not _aside(a, m)}
    asked = focus.numbered(scope.asks)
    rivals = [
        o
        for o in rivals
        if a.clause(o).sentence not in sentences
        and not _aside(a, o)
        and not focus.about_other(a, o, others, subject, scope.kinds)
        and not focus.numbered(_sentence_text(a, o)) - asked  # "Season 3 ... aired on d2" when asked season 2
    ]
    if not rivals:
        return None
    chosen = commitment.committed(a, [*right, *rivals], scope.topic, mentions, single=True, subject=subject)
    other = next((m for m in chosen if m in rivals), None)
    return a.text[other.start : other.end] if other else None


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


def dates(r: Requirement, a: Analysis, mentions: list[Mention], scope: Scope | None = None) -> str | None:
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
        months = _months(a, accepted)
        # a right month denied denies the date ("it was not released in the US in December 1997")
        if any(_denied(a, m) for m in months if m.values):
            return f"denies {label}"
        if r.precision == "month":  # (a month a full date states too only restates it)
            live |= set(commitment.standing(a, months))
            full = {d for m in found for d in m.values}
            found += [m for m in months if m.values and not m.values <= full]
            others += [m for m in months if not m.values]
    if any(_denied(a, m) for m in found):
        return f"denies {label}"
    # "It wasn't released in the US until 19 December 1997" states the date
    until = [
        replace(m, asserted=True) for m in found if a.clause(m).denies and _NOT_UNTIL.search(_lead(a, m))
    ]
    live |= set(commitment.standing(a, until))
    found = [*(m for m in found if not (a.clause(m).denies and _NOT_UNTIL.search(_lead(a, m)))), *until]
    if scope is not None:  # a date said of another season or episode is no rival ("season 3 followed on d2")
        others = [o for o in others if not item_labels.other_before(a, o, scope.asks, [*found, *others])]
    stated = [m for m in found if m in live]
    if not stated and r.optional:  # an optional fact: no date or year at all holds, another one fails
        given = next((o for o in others if o in live and _a_date(o)), None)
        return f"states {a.text[given.start : given.end]} rather than {label}" if given else None
    if not stated:
        return f"does not state {label}"
    spans = [(m.start, m.end) for m in [*found, *others]]
    for o in (o for o in others if o in live):
        same_clause = r.year is None and any(
            o.clause == m.clause and not _aside(a, o) and not _range_end(a, m, o) for m in stated
        )
        if same_clause or _competes(a, o, stated, spans, alone=True):  # "US: d1; IT: d2" lists countries
            return f"offers {label} among other dates ({a.text[o.start : o.end]})"
    rivals = [o for o in others if o in live]
    values = [*found, *others]
    if scope is not None and any(item_labels.asked_before(a, m, scope.asks, values) for m in stated):
        # the right date said of the asked season: a date said of the show itself (named, no season) is
        # no rival ("Game of Thrones premiered on d0. Its second season first aired on d1.")
        rivals = [
            o
            for o in rivals
            if item_labels.asked_before(a, o, scope.asks, values)
            or not any(n.key in scope.subject and n.clause == o.clause and n.end <= o.start for n in mentions)
        ]
    other = committed_other(a, stated, rivals, mentions, scope)
    if other:
        return f"commits to {other} rather than {label}"
    if r.dates is not None and r.need == "all":
        covered = {d.isoformat() for m in stated for d in m.values}
        missing = sorted(set(r.dates) - covered)
        if missing:
            return f"misses {missing}"
    if r.dates is not None and r.labels:
        return _misassigned(r, a, stated, mentions)
    return None


#: a negation whose "until" gives the value ("wasn't released until 19 December 1997"): no denial
_NOT_UNTIL = re.compile(
    r"\b(?:not|never|\w+n['’]?t)\b[^.;]*\b(?:until|till)\s+(?:on\s+|the\s+|in\s+)?$", re.I
)


def _lead(a: Analysis, m: Mention) -> str:
    return a.text[a.clause(m).start : m.start]


def _denied(a: Analysis, m: Mention) -> bool:
    """Whether ``m``'s clause denies it: a negation, unless "not ... until" gives ``m``."""
    return a.clause(m).denies and not _NOT_UNTIL.search(_lead(a, m))


def _a_date(m: Mention) -> bool:
    """Whether a value read as a date or a year is one (a full date, or a year 1900-2100)."""
    return bool(m.values) or (m.key.isdigit() and 1900 <= int(m.key) <= 2100)


def _months(a: Analysis, accepted: set[str]) -> list[Mention]:
    """The months the answer gives without a day ("December 2019", "Dec '19"), outside its full dates;
    ``values``: the ``accepted`` dates in that month (none: another month)."""
    out = []
    for found in MONTH_YEAR.finditer(a.masked):
        month = month_of(found.groups())
        clause = a.clause_at(found.start())
        if month is None or clause is None or any(d.start <= found.start() < d.end for d in a.dates):
            continue
        inside = frozenset(d for d in map(date.fromisoformat, accepted) if (d.year, d.month) == month)
        key = min(inside).isoformat() if inside else f"{month[0]}-{month[1]:02d}"
        out.append(Mention(key, clause.index, found.start(), found.end(), clause.asserts, inside))
    return out


def _misassigned(r: Requirement, a: Analysis, stated: list[Mention], mentions: list[Mention]) -> str | None:
    """Each stated date belongs to the label in a parenthesis right after it ("d1 (A), d2 (B)"), else the
    label nearest before it in its clause ("A – d1; B (d2)", "A came out d1, B on d2"), else the first
    after it there ("d1: A"); a clause without a label says nothing."""
    owner = dict(zip(r.dates or [], r.labels, strict=False))
    labels = [m for m in mentions if m.key in r.labels]
    for m in stated:
        before = [x for x in labels if x.clause == m.clause and x.end <= m.start]
        after = [x for x in labels if x.clause == m.clause and x.start >= m.end]
        if not before and not after:
            continue
        # a label in a parenthesis right after the date is its own ("d1 (A), d2 (B) and d3 (C)")
        own = [
            x
            for x in after
            if re.fullmatch(r"\s*\(\s*", a.text[m.end : x.start]) and re.match(r"\s*\)", a.text[x.end :])
        ]
        nearest = (
            own[0]
            if own
            else max(before, key=lambda x: x.end)
            if before
            else min(after, key=lambda x: x.start)
        )
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
