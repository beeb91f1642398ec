"""The checks of one requirement of an answer key, one rule per kind of value (``answer_keys`` holds the
keys; ``commitment`` decides what an answer commits to; ``claims`` reads the text).

- ``one_of`` (a single answer, ``key_single``): an accepted name is asserted and never denied, and the answer commits
  to no other candidate of the key's kind (catalogue names, pooled values, any image path) in any
  sentence or clause, nor offers accepted names as alternatives ("A or B");
- ``some_of`` (a list): ``need`` accepted items asserted, none denied (``claims_polarity.denied_item``),
  no listed distractor asserted, no pooled distractor committed to, and in a list of people no person
  the sandbox lacks;
- any kind but yes/no, paths and domains: no other name given the question's description by a copula
  (``focus.other_holder``);
- ``number`` and ``dates`` / ``year`` (``key_values``): the value stated, no other value for the same
  thing;
- ``polarity``: yes / no; ``winner`` / ``loser``: a comparison (``key_comparison``).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Collection

from restgraph.evals.scorers import commitment, focus, item_labels, key_pools, restatement, unknown_names
from restgraph.evals.scorers.claims import Analysis, Mention
from restgraph.evals.scorers.claims_polarity import denied_item, polarity
from restgraph.evals.scorers.key_comparison import comparison
from restgraph.evals.scorers.key_pools import pools
from restgraph.evals.scorers.key_schema import AnswerKey, Requirement
from restgraph.evals.scorers.key_single import found as _found
from restgraph.evals.scorers.key_single import hedged_alternative, one_of
from restgraph.evals.scorers.key_single import of_kind as _candidates
from restgraph.evals.scorers.key_values import Scope, dates, number
from restgraph.evals.scorers.tmdb_success import normalise


def check(r: Requirement, a: Analysis, mentions: list[Mention], key: AnswerKey) -> str | None:
    topic = commitment.question_prefixes(key.asks)
    titles = {n for k, n in key._neutral if k == "title"}
    other_entity = focus.described_other(a, key.asks, [m for m in mentions if m.key in titles], titles)
    if other_entity is not None:  # "Nolan directed Barbie, today's most trending movie": another chain
        return f"says {other_entity.key} is what the question describes"
    own = focus.subject_names(key.asks, key.context, {n for _, n in key._neutral})
    other_review = focus.reviews_of_other(a, key.asks, [m for m in mentions if m.key in titles], own)
    if other_review is not None:  # "a review of Tár calling it a masterpiece" for Mrs. America
        return f"gives a review of {other_review.key}"
    if focus.CHAIN_ROLE.search(key.asks):  # "X, lead of Y": the answer must not give Y another lead
        known = {n for k, n in key._neutral if k == "person"}
        people = [m for m in mentions if m.key in known] + unknown_names.people(a, mentions, topic)
        subject = focus.subject_names(key.asks, key.context, {n for _, n in key._neutral})
        other = focus.chain_holder(a, key.asks, people, subject)
        if other is not None:
            return f"says {other.key.lstrip('?')} holds the role the question picks its subject by"
    holder = _other_holder(r, a, mentions, key, topic)
    if holder is not None:  # "..., but the most popular on-air show is Secret Invasion"
        return f"says {holder.key.lstrip('?')} is what the question describes"
    if r.one_of is not None:
        kind = "person" if r.kind == "person" else "title"
        # a pooled value (a city, a keyword) has no catalogue names of its kind: a title is no city
        catalogue = {n for k, n in key._neutral if k == kind} if r.kind != "text" or not r._pooled else set()
        if r.kind == "track" or (r.wrong_from and not r._pooled and r.kind == "text"):
            # a catalogue list of its own (tracks, albums): an artist beside a track ("Born To Die - Lana
            # Del Rey") is no other track
            catalogue = {*r.distractors, *(r.one_of or []), *(catalogue & set(key.context))}
        subject = focus.subject_names(key.asks, key.context, {n for _, n in key._neutral} - set(r.one_of))
        return one_of(r, a, mentions, catalogue, topic, key, subject, _kinds(key))
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


def _other_holder(
    r: Requirement, a: Analysis, mentions: list[Mention], key: AnswerKey, topic: set[str]
) -> Mention | None:
    """Another name than the key's that the answer says the question's description picks
    (``focus.other_holder``); the description's words are the question's outside its own names."""
    if r.polarity is not None or r.kind in ("path", "domain"):
        return None
    own = focus.subject_names(key.asks, key.context, {n for _, n in key._neutral})
    words = key.asks
    for name in sorted(own, key=len, reverse=True):
        words = re.sub(re.escape(name), " ", words, flags=re.I)
    accepted = {
        n for q in key.require for n in [*(q.one_of or []), *(q.some_of or []), q.winner or "", q.loser or ""]
    }
    unknown = unknown_names.people(a, mentions, topic) + unknown_names.stated(a, mentions, topic)
    return focus.other_holder(
        a, commitment.question_prefixes(words), [*mentions, *unknown], mentions, accepted, own
    )


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
    listed = _found(r, a, mentions, accepted)
    denied = [m for m in listed if m.start >= cut and denied_item(a, m, topic, listed)]
    if denied:
        return f"denies {denied[0].key}"
    right = [
        m
        for m in commitment.standing(a, _found(r, a, mentions, accepted))
        if not item_labels.other_item(a, m, asks)
    ]
    others = [m for m in _candidates(r, a, mentions, set(r.distractors)) if m.key not in set(accepted)]
    if restatement.alternative_lists(a):  # "A, B and C / D and E": lists offered side by side
        return "offers several lists side by side"
    maybe = next((m for m in others if hedged_alternative(a, m)), None)
    if (
        maybe is not None
    ):  # "reputation and Born To Die. Also Lover, I think.": an item offered, though hedged
        return f"offers {maybe.key} as a possible item"
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
        # the question's own title is no item: "Breaking Bad: Origins" or "The New Breaking Bad" in a list of
        # shows like Breaking Bad are other titles, not Breaking Bad with a subtitle
        listed = [m for m in mentions if m.key not in subject]
        own = {normalise(n) for n in subject}
        wrong |= _unknown_titles(a, [m for m in chosen if m.key in set(accepted)], listed, set(accepted), own)
    if r.kind == "person":  # a person the sandbox does not have is a wrong item of any list of people
        wrong |= _unknown_people(a, [m for m in chosen if m.key in set(accepted)], mentions, topic)
    if wrong:
        return f"asserts wrong items: {sorted(wrong)[:4]}"
    got = {m.key for m in right}
    if len(got) < need:
        return f"asserts {len(got)} of the {need} needed items of {accepted[:4]}{' ...' if len(accepted) > 4 else ''}"
    return None


def _unknown_people(a: Analysis, items: list[Mention], mentions: list[Mention], topic: set[str]) -> set[str]:
    """People neither the vocabulary nor the sandbox knows, listed as items beside the right ones of a
    list of people ("Richard Hammond, James May and Kaleb Cooper", "The cast: Liam Hemsworth, Anya
    Chalotra"); not in an aside ("(plus ... and others)"), nor a role's label ("Han Solo: Harrison Ford");
    a padded cast member the sandbox lists ("..., Billy Zane, Karen Gallo") is none."""
    unknown = [  # (a label before a colon is a role: "• Han Solo: Harrison Ford")
        m
        for m in unknown_names.people(a, mentions, topic)
        if m.asserted and not _later_cell(a, m.start) and not re.match(r"\s*:", a.text[m.end :])
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


#: after a title ending in a number, the number of its next part ("... Vol. 1 & 2")
_NEXT_PART = re.compile(r"\s*(?:&|and)\s*(\d{1,2})\b(?![ \t]*[A-Z0-9:])")
#: a decimal number: a rating or a score, never a title
_RATING = re.compile(r"^\d{1,2}[.,]\d{1,3}$")


def _unknown_titles(
    a: Analysis,
    items: list[Mention],
    mentions: list[Mention],
    accepted: set[str],
    own: Collection[str] = (),
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
                # a title's next part ("Kill Bill Vol. 1 & 2", "Toy Story 2 and 3") is that title's too
                part = _NEXT_PART.match(a.text, m.end, end) if a.text[m.end - 1].isdigit() else None
                sibling = re.sub(r"\d+$", part.group(1), m.key) if part else ""
                if part and (sibling in accepted or normalise(sibling) in key_pools.known_titles()):
                    text[m.end - first : part.end() - first] = [" "] * (part.end() - m.end)
        listed = re.sub(r"\([^()]*\)", " ", "".join(text))
        listed = re.sub(r"§\s*:\s*[^,;/|§\n]*", "§", listed)  # "F9: The Fast Saga": a known title's subtitle
        listed = listed.split(": ", 1)[1] if ": " in listed else listed  # "§ collection: A, B" lists A, B
        for piece in re.split(r"[,;/|§\n]", listed):
            piece = re.sub(
                r"^\s*(?:and|or|&|plus)\s+|\s+(?:and|or|&)\s*$", "", piece.strip(" .!?:\"'")
            ).strip()
            if not piece or _LIST_END.match(piece) or normalise(piece) in ("and", "or", ""):
                continue
            if _RATING.match(piece):  # a rating beside a title ("| Barbie | 7.2 |") is no title
                continue
            if not re.match(r"[A-Z0-9]", piece) or len(piece.split()) > 8:
                break
            # the words after a title's last capitalised one say something of it ("B as similar")
            piece = (
                re.sub(r"(?<=[\w'’)])(?:\s+[a-z][\w'’]*)+$", "", piece) if piece not in accepted else piece
            )
            title = normalise(piece)
            # a title holding the question's own ("Django Unchained 2") is known only as itself, not as a
            # spelling of it
            namesake = any(f" {n} " in f" {title} " for n in own)
            if piece not in accepted and not (
                title in key_pools.known_titles() if namesake else _known_title(title)
            ):
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
