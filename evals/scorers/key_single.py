"""The ``one_of`` requirement of an answer key (a single answer), and how a requirement's names are found
in an answer (``found``, ``of_kind``: names, URLs and image paths), which ``key_rules``' list check
shares.

Apart from ``key_rules`` because a single answer has its own reading: an accepted name asserted, never
denied, not offered among candidates, and no other candidate of its kind committed to, whether the
vocabulary knows it (the catalogue, pooled values, any image path) or not (a name a copula asserts, a
person's name, a hedged alternative "Or maybe B"), nor the question's role, nor another numbered item.
"""

from __future__ import annotations

import re

from restgraph.evals.scorers import commitment, focus, item_labels, key_pools, unknown_names
from restgraph.evals.scorers.claims import Analysis, Mention
from restgraph.evals.scorers.key_pools import IMAGE_PATH
from restgraph.evals.scorers.key_schema import AnswerKey, Requirement
from restgraph.evals.scorers.key_values import states_count
from restgraph.evals.scorers.tmdb_success import normalise


def found(r: Requirement, a: Analysis, mentions: list[Mention], names: list[str] | set[str]) -> list[Mention]:
    if r.kind == "path":
        wanted = set(names)
        return [m for m in _paths(a) if m.key in wanted]
    if r.kind == "domain":  # the whole URL is the mention, so "URL1 and URL2" reads as a list
        out = []
        for m in (m for n in names for m in a.raw(n)):
            start = len(re.sub(r"\S*$", "", a.text[: m.start]))
            tail = re.match(r"[^\s,;)\]]*", a.text[m.end :])
            end = m.end + len(tail.group().rstrip(".!?") if tail else "")
            if re.match(r"/[^/?#]*\w", a.text[m.end : end]):
                continue  # a page of the site ("hbo.com/game-of-thrones"), not its homepage
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
        if clause is not None:  # the whole URL is the mention, so "URL1 or URL2" reads as a list
            start = len(re.sub(r"\S*$", "", a.text[: m.start()]))
            out.append(Mention(m.group(), clause.index, start, m.end(), clause.asserts))
    return out


def of_kind(r: Requirement, a: Analysis, mentions: list[Mention], names: set[str]) -> list[Mention]:
    """The answer's candidates of the requirement's kind: ``names``, and for paths every image path."""
    return _paths(a) if r.kind == "path" else found(r, a, mentions, names)


def one_of(
    r: Requirement,
    a: Analysis,
    mentions: list[Mention],
    catalogue: set[str],
    topic: set[str],
    key: AnswerKey,
    subject: set[str],
    kinds: dict[str, str],
) -> str | None:
    """A single answer; ``catalogue``: every known name of the key's kind, ``subject``: the question's
    own names (``focus.subject_names``)."""
    asks = key.asks
    accepted = set(r.one_of or [])
    same_kind = catalogue - subject
    # a right name said of another season or episode than the asked one is not the answer
    right = [m for m in found(r, a, mentions, accepted) if not item_labels.other_item(a, m, asks)]
    if r.cue:  # (or beside a count only the answered thing has: "Born To Die, twelve tracks")
        right = [
            m
            for m in right
            if _at_cue(m, mentions, a, r.cue) or states_count(key.require, a, a.clause(m).sentence)
        ]
    if any(a.clause(m).denies for m in right):
        return f"denies {right[0].key}"
    asked = focus.numbered(asks)
    asserted = [
        m
        for m in commitment.standing(a, right)
        if not focus.ranked_lower(a, m, mentions) and not _other_numbered(a, m, asked)
    ]
    if not asserted:
        return f"does not assert {r.one_of[:3] if r.one_of else []}"
    wrong_year = next((m for m in asserted if r.kind == "title" and _wrong_year(a, m)), None)
    if wrong_year is not None:  # "The Frozen Ground (2019)": the right title dated as another one
        return f"gives {wrong_year.key} a year the sandbox does not date it by"
    wrong = found(r, a, mentions, r.distractors)
    wrong_keys = {m.key for m in wrong}
    offered = []
    spans = [(m.start, m.end) for m in mentions]
    for m in asserted:  # a list of candidates is not a statement
        items = (
            a.enumeration(m, mentions) if m in mentions else [m, *(o for o in wrong if a.enumerated(m, o))]
        )
        # past its own clause, a list goes on only through clauses of bare names: "directed by A; B plays
        # the title role" is a statement about B, not a second candidate
        items = [o for o in items if o.clause == m.clause or commitment.bare(a, o, spans)]
        others = [o.key for o in items if o.key not in accepted and not a.clause(o).denies]  # "not A - B"
        if any(k in wrong_keys or k in catalogue for k in others) or len(others) >= 3:
            offered.append(f"offers {m.key} among candidates ({others[0]})")
        elif r.kind != "person" and _beside_unknown(a, m, mentions, slash_only=r.kind != "title"):
            offered.append(f"offers {m.key} in a list of other names")  # (people: padded casts are unknown)
    if len(offered) == len(asserted):
        return offered[0]
    # a name the question itself says is its subject, not a candidate
    pool = {n for n in set(r.distractors) | same_kind if n not in focus.subject_names(asks, (), [n])}
    candidates = commitment.standing(a, of_kind(r, a, mentions, accepted | pool))
    if r.cue:
        candidates = [m for m in candidates if _at_cue(m, mentions, a, r.cue)]
    # a name the catalogue does not know can be the answer given, not merely listed beside it (the
    # sandbox's padded casts are such names)
    unknown = unknown_names.people(a, mentions, topic) if r.kind == "person" else []
    if r.kind in ("title", "text"):
        unknown += unknown_names.stated(a, mentions, topic)
    if r.wrong_from == "places":
        unknown += [m for m in unknown_names.places(a, mentions) if all(u.start != m.start for u in unknown)]
    unknown = commitment.standing(a, unknown)
    holder = focus.role_holder(a, asks, [*candidates, *unknown], mentions, subject)
    if holder is not None and holder.key not in accepted:  # "Its lead actor is Robert Downey Jr."
        return f"says {holder.key.lstrip('?')} holds the asked role"
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
    if r.kind != "track" and any(_or_unknown(a, m) for m in asserted):
        return f"offers {asserted[0].key} or another name"
    own = [m for m in commitment.standing(a, mentions) if m.key in catalogue & subject]
    offered_own = [m for m in own if commitment.bare(a, m, spans)]  # "Bryn Higgins. Carl Tibbetts."
    if offered_own:
        return f"offers {offered_own[0].key}, a name the question gives, besides {asserted[0].key}"
    known = set(r.distractors) | catalogue
    hedged = unknown_names.people(a, mentions, topic) if r.kind == "person" else []  # (``unknown``: asserted)
    # "A. Or maybe B.": B offered as another answer, though hedged ("Probably C is next": ranked, no answer)
    alternative = next(
        (
            m
            for m in [*mentions, *hedged]
            if m.key not in accepted
            and (m.key in known or m.key[:1] == "?")
            and hedged_alternative(a, m)
            and not focus.context(a, m, mentions)
        ),
        None,
    )
    if alternative is not None:
        return f"offers {alternative.key.lstrip('?')} as an alternative to {asserted[0].key}"
    return None


#: a clause that opens by offering another answer ("Or possibly B", "Maybe B", "Alternatively, B")
_MAYBE = re.compile(
    r"^[\s\W]*(?:or\s+|also\s+|and\s+|plus\s+)?(?:maybe|perhaps|possibly|probably|alternatively|or|also|plus)\b"
    r"[\s,]*(?:\w+\s+){0,2}$",
    re.I,
)


def hedged_alternative(a: Analysis, m: Mention) -> bool:
    """Whether ``m`` opens a hedged clause as another answer or item: nothing but "or"/"maybe"/"also" and
    two words before ("A. Or maybe B.", "A and B. Also C, I think.")."""
    clause = a.clause(m)
    return clause.hedged and not clause.denies and bool(_MAYBE.match(a.text[clause.start : m.start]))


def _wrong_year(a: Analysis, m: Mention) -> bool:
    """Whether a year in a parenthesis right after a title ("Cry Macho (2019)") is none of the years the
    TMDB facts date that title by (``key_pools.title_years``; a title they do not date holds any)."""
    year = re.match(r"\s*\((\d{4})\)", a.text[m.end :])
    known = key_pools.title_years().get(normalise(m.key))
    return bool(year and known and int(year.group(1)) not in known)


def _other_numbered(a: Analysis, m: Mention, asked: set[tuple[str, str]]) -> bool:
    """Whether ``m`` is said of another numbered item than the asked one ("(Bryn Higgins directed episode
    2)" when S2E3 is asked): its parenthesis, else its clause outside parentheses, numbers only others."""
    clause = a.clause(m)
    at = m.start - clause.start
    text = (
        a.text[clause.start : m.start] + " " * (m.end - m.start) + a.text[m.end : clause.end]
    )  # not its own
    inside = next((x.group() for x in re.finditer(r"\([^()]*\)", text) if x.start() <= at < x.end()), None)
    said = focus.numbered(inside if inside is not None else re.sub(r"\([^()]*\)", " ", text))
    return bool(asked and said and not said & asked)


def _or_unknown(a: Analysis, m: Mention) -> bool:
    """Whether ``m`` is offered as an alternative to a name the vocabulary does not know ("Catherine
    Hardwicke or Chris Weitz", "Chris Weitz or Catherine Hardwicke")."""
    clause = a.clause(m)
    after = a.text[m.end : clause.end]
    before = a.text[clause.start : m.start]
    name = r"(?:[A-Z][\w'’.-]*\s+){0,3}[A-Z][\w'’.-]*"
    # "A, B or C" with the answer anywhere in it
    listed = rf"(?:{name}\s*,\s*)+{name}\s*,?\s+or\s+{name}"
    return bool(
        re.match(rf"\s*,?\s+or\s+{name}", after)
        or re.search(rf"{name}\s*,?\s+or\s+$", before)
        or any(
            x.start() <= m.start - clause.start < x.end()
            for x in re.finditer(listed, a.text[clause.start : clause.end])
        )
    )


_NEXT_ITEM = re.compile(
    r"^\s*(?:\([^()]*\)\s*)?(?:,|/|\band\b|\bor\b)\s*(?:and\s+|or\s+)?"
    r"((?:[A-Z0-9][\w'’.:&+-]*\s*){1,5})(?=,|/|\band\b|\bor\b|[.!?]?\s*$)"
)


def _beside_unknown(a: Analysis, m: Mention, mentions: list[Mention], slash_only: bool = False) -> bool:
    """Whether a name the vocabulary does not know follows ``m`` as the next item of a list ("Friends,
    Feud and American Crime Story"): candidates offered, though not ones the key lists. ``slash_only``:
    for text (an album, a city) only after a slash ("JORDI / The Burning Kiss"): "Universal City,
    California" names one place."""
    found = _NEXT_ITEM.match(a.text[m.end : a.clause(m).end])
    if found is None or (slash_only and "/" not in found.group()[: found.start(1)]):
        return False
    start = m.end + found.start(1)
    return not any(o.start == start for o in mentions)


def _at_cue(m: Mention, all_mentions: list[Mention], a: Analysis, cue: list[str]) -> bool:
    """Whether ``m`` is what a cue word names: at most two words between them ("album: X", "the
    album is X", "X album") and no other known name in between ("X is on the album Y" names Y); a cue
    followed by a name names that one ("X, from the album Y")."""
    tokens = a.clause(m).tokens
    others = [o for o in all_mentions if o.clause == m.clause and o.key != m.key]
    for t in (t for t in tokens if t.norm in cue):
        if m.end <= t.start and re.match(r"\s*(?:is\s+|was\s+|:\s*)?[\"“']?[A-Z0-9]", a.text[t.end :]):
            continue  # "X from the album Y": the cue names the name after it
        lo, hi = (t.end, m.start) if t.end <= m.start else (m.end, t.start)
        between = [x for x in tokens if lo <= x.start and x.end <= hi]
        if len(between) <= 2 and not any(lo <= o.start < hi for o in others):
            return True
    return False
