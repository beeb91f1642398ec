"""The checks of one requirement of an answer key, one rule per kind of value (``answer_keys`` holds the
keys; ``commitment`` decides what an answer commits to; ``claims`` reads the text).

- ``one_of`` (a single answer): an accepted name is asserted and never denied, and the answer commits
  to no other candidate of the key's kind (catalogue names, pooled values, any image path) in any
  sentence or clause, nor offers accepted names as alternatives ("A or B");
- ``some_of`` (a list): ``need`` accepted items asserted, no listed distractor asserted, no pooled
  distractor committed to;
- ``number`` and ``dates`` / ``year`` (``key_values``): the value stated, no other value for the same
  thing;
- ``polarity``: yes / no; ``winner`` / ``loser``: a comparison (``key_comparison``).
"""

from __future__ import annotations

import difflib
import re

from restgraph.evals.scorers import commitment, focus, item_labels, key_pools, unknown_names
from restgraph.evals.scorers.claims import Analysis, Mention
from restgraph.evals.scorers.claims_polarity import polarity
from restgraph.evals.scorers.key_comparison import comparison
from restgraph.evals.scorers.key_pools import IMAGE_PATH, pools
from restgraph.evals.scorers.key_schema import AnswerKey, Requirement
from restgraph.evals.scorers.key_values import Scope, dates, number
from restgraph.evals.scorers.tmdb_success import normalise


def check(r: Requirement, a: Analysis, mentions: list[Mention], key: AnswerKey) -> str | None:
    topic = commitment.question_prefixes(key.asks)
    titles = {n for k, n in key._neutral if k == "title"}
    other_entity = focus.described_other(a, key.asks, [m for m in mentions if m.key in titles], titles)
    if other_entity is not None:  # "Nolan directed Barbie, today's most trending movie": another chain
        return f"says {other_entity.key} is what the question describes"
    if focus.CHAIN_ROLE.search(key.asks):  # "X, lead of Y": the answer must not give Y another lead
        known = {n for k, n in key._neutral if k == "person"}
        people = [m for m in mentions if m.key in known] + unknown_names.people(a, mentions, topic)
        subject = focus.subject_names(key.asks, key.context, {n for _, n in key._neutral})
        other = focus.chain_holder(a, key.asks, people, subject)
        if other is not None:
            return f"says {other.key.lstrip('?')} holds the role the question picks its subject by"
    if r.one_of is not None:
        kind = "person" if r.kind == "person" else "title"
        # a pooled value (a city, a keyword) has no catalogue names of its kind: a title is no city
        catalogue = {n for k, n in key._neutral if k == kind} if r.kind != "text" or not r._pooled else set()
        if r.kind == "track" or (r.wrong_from and not r._pooled and r.kind == "text"):
            # a catalogue list of its own (tracks, albums): an artist beside a track ("Born To Die - Lana
            # Del Rey") is no other track
            catalogue = {*r.distractors, *(r.one_of or []), *(catalogue & set(key.context))}
        subject = focus.subject_names(key.asks, key.context, {n for _, n in key._neutral} - set(r.one_of))
        return _one_of(r, a, mentions, catalogue, topic, key, subject, _kinds(key))
    if r.some_of is not None:
        subject = focus.subject_names(key.asks, key.context, {n for _, n in key._neutral} - set(r.some_of))
        return _some_of(r, a, mentions, topic, subject, _kinds(key), key.asks)
    if r.number is not None:
        return number(r, a, mentions, _scope(key, topic))
    if r.dates is not None or r.year is not None:
        return dates(r, a, mentions, _scope(key, topic))
    if r.polarity is not None:
        got = polarity(a, key.asks)
        return None if got == r.polarity else f"answers {got or 'neither yes nor no'}, expected {r.polarity}"
    return comparison(r, a, mentions)


def _scope(key: AnswerKey, topic: set[str]) -> Scope:
    """What a value key asks about, for ``key_values.committed_other``."""
    subject = focus.subject_names(key.asks, key.context, {n for _, n in key._neutral})
    return Scope(topic, subject, _kinds(key), key.asks)


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


def _candidates(r: Requirement, a: Analysis, mentions: list[Mention], names: set[str]) -> list[Mention]:
    """The answer's candidates of the requirement's kind: ``names``, and for paths every image path."""
    return _paths(a) if r.kind == "path" else _found(r, a, mentions, names)


def _one_of(
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
    right = [m for m in _found(r, a, mentions, accepted) if not item_labels.other_item(a, m, asks)]
    if r.cue:
        right = [m for m in right if _at_cue(m, mentions, a, r.cue)]
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
    wrong = _found(r, a, mentions, r.distractors)
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
    candidates = commitment.standing(a, _candidates(r, a, mentions, accepted | pool))
    if r.cue:
        candidates = [m for m in candidates if _at_cue(m, mentions, a, r.cue)]
    # a name the catalogue does not know can be the answer given, not merely listed beside it (the
    # sandbox's padded casts are such names)
    unknown = unknown_names.people(a, mentions, topic) if r.kind == "person" else []
    if r.kind in ("title", "text"):
        unknown += unknown_names.stated(a, mentions)
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
            and _hedged_alternative(a, m)
            and not focus.context(a, m, mentions)
        ),
        None,
    )
    if alternative is not None:
        return f"offers {alternative.key.lstrip('?')} as an alternative to {asserted[0].key}"
    return None


#: a clause that opens by offering another answer ("Or possibly B", "Maybe B", "Alternatively, B")
_MAYBE = re.compile(
    r"^[\s\W]*(?:or\s+)?(?:maybe|perhaps|possibly|probably|alternatively|or)\b[\s,]*(?:\w+\s+){0,2}$", re.I
)


def _hedged_alternative(a: Analysis, m: Mention) -> bool:
    """Whether ``m`` opens a hedged clause as another answer: nothing but "or"/"maybe" and two words before."""
    clause = a.clause(m)
    return clause.hedged and not clause.denies and bool(_MAYBE.match(a.text[clause.start : m.start]))


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
    asks: str,
) -> str | None:
    accepted = r.some_of or []
    need = len(accepted) if r.need == "all" else r.need
    # a right item the answer denies ("Harrison Ford has never appeared in it", "X does not qualify") is
    # a wrong statement about the list, as a denied single answer is (``_one_of``)
    cut = commitment.retraction_end(a)
    denied = [m for m in _found(r, a, mentions, accepted) if a.clause(m).denies and m.start >= cut]
    if denied:
        return f"denies {denied[0].key}"
    right = [
        m
        for m in commitment.standing(a, _found(r, a, mentions, accepted))
        if not item_labels.other_item(a, m, asks)
    ]
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
    if r.kind == "title" and r.wrong_from in ("movies", "shows"):  # a title the sandbox does not have
        wrong |= _unknown_titles(a, [m for m in chosen if m.key in set(accepted)], mentions, set(accepted))
    if r.kind == "person" and r.need == "all":  # a closed list: a person no key knows is an extra item
        wrong |= _unknown_people(a, [m for m in chosen if m.key in set(accepted)], mentions, topic)
    if wrong:
        return f"asserts wrong items: {sorted(wrong)[:4]}"
    got = {m.key for m in right}
    if len(got) < need:
        return f"asserts {len(got)} of the {need} needed items of {accepted[:4]}{' ...' if len(accepted) > 4 else ''}"
    return None


def _unknown_people(a: Analysis, items: list[Mention], mentions: list[Mention], topic: set[str]) -> set[str]:
    """People neither the vocabulary nor the sandbox knows, listed as items beside the right ones of a
    closed list ("Richard Hammond, James May and Kaleb Cooper"); not in an aside ("(plus ... and
    others)"); a padded cast member the sandbox lists ("..., Billy Zane, Karen Gallo") is none."""
    unknown = [
        m for m in unknown_names.people(a, mentions, topic) if m.asserted and not _later_cell(a, m.start)
    ]
    if not unknown or not items:
        return set()
    every = sorted([*mentions, *unknown], key=lambda m: m.start)
    listed = {o for m in items for o in a.enumeration(m, every)}
    known = key_pools.known_people()
    return {m.key.lstrip("?") for m in unknown if m in listed and normalise(m.key.lstrip("?")) not in known}


def _later_cell(a: Analysis, at: int) -> bool:
    """Whether ``at`` is in a markdown table row's second or later cell: what the row says of its item
    ("| Leonardo DiCaprio | Jack Dawson |": a role), not another item."""
    line_start = a.text.rfind("\n", 0, at) + 1
    before = a.text[line_start:at]
    return before.lstrip().startswith("|") and bool(re.search(r"\w[^|]*\|", before))


def _unknown_titles(
    a: Analysis, items: list[Mention], mentions: list[Mention], accepted: set[str]
) -> set[str]:
    """Items of the answer's title lists that no movie or show of the sandbox has ("Fast Five, Furious 7
    and Hobbs & Shaw"): from each list's first right item to the clause's end, split at commas,
    semicolons, slashes and known names; a piece that is no capitalised phrase of at most eight words
    ends the list. Titles hold "and" ("The Fast and the Furious"): it splits nothing inside a piece."""
    out: set[str] = set()
    for clause in sorted({m.clause for m in items}):
        first = min(m.start for m in items if m.clause == clause)
        end = a.clauses[clause].end
        text = list(a.text[first:end])
        for m in mentions:
            if first <= m.start and m.end <= end:
                text[m.start - first : m.end - first] = ["§"] + [""] * (m.end - m.start - 1)
        listed = re.sub(r"\([^()]*\)", " ", "".join(text))
        listed = re.sub(r"§\s*:\s*[^,;/|§\n]*", "§", listed)  # "F9: The Fast Saga": a known title's subtitle
        listed = listed.split(": ", 1)[1] if ": " in listed else listed  # "§ collection: A, B" lists A, B
        for piece in re.split(r"[,;/|§\n]", listed):
            piece = re.sub(
                r"^\s*(?:and|or|&|plus)\s+|\s+(?:and|or|&)\s*$", "", piece.strip(" .!?:\"'")
            ).strip()
            if not piece or _LIST_END.match(piece) or normalise(piece) in ("and", "or", ""):
                continue
            if not re.match(r"[A-Z0-9]", piece) or len(piece.split()) > 8:
                break
            if piece not in accepted and not _known_title(normalise(piece)):
                out.add(piece)
    return out


def _known_title(title: str) -> bool:
    """Whether a normalised title is one the sandbox has, in a form a judge accepts: exactly, as the end
    of a longer one ("Tokyo Drift"), or spelt a little differently ("Inglorious Basterds", "Kill Bill
    Volume 1": difflib ratio >= 0.85)."""
    known = key_pools.known_titles()
    if title in known or any(k.endswith(f" {title}") for k in known if len(title.split()) >= 2):
        return True
    return bool(difflib.get_close_matches(title, known, n=1, cutoff=0.85))


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
