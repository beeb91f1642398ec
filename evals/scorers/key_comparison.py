"""The ``winner`` / ``loser`` requirement of an answer key: which of two named things the answer says
wins a comparison ("which has the higher rating", "who directed more").

Apart from ``key_rules`` because a comparison reads whole sentences, not one candidate: a sentence
naming both things claims the one its cue word favours ("A is rated higher than B", "B is lower than
A"), or, with no cue, the one its numbers favour ("A 7.655 vs B 7.572"); a sentence naming one of them
claims it when it says it wins ("Spielberg directed more") or says nothing else ("Spielberg."). Sentences
that say who wins outweigh those that only describe one side ("Kurosawa has 9 directing credits. Spielberg
has 16. Spielberg directed more."). Hedged, denied, asked and retracted sentences claim nothing. The
answer passes when the winner, and only the winner, is claimed.
"""

from __future__ import annotations

import re

from restgraph.evals.scorers import commitment, focus
from restgraph.evals.scorers.claims import Analysis, Mention
from restgraph.evals.scorers.key_schema import Requirement


def comparison(r: Requirement, a: Analysis, mentions: list[Mention]) -> str | None:
    cued: set[str] = set()  # claims of sentences that say who wins
    described: set[str] = set()  # single names said without a cue ("Spielberg." "Kurosawa has 9 credits.")
    cut = commitment.retraction_end(a)
    for sentence in sorted({c.sentence for c in a.clauses}):
        clauses = a.sentence_clauses(sentence)
        if (
            clauses[0].question
            or clauses[0].hedged
            or any(c.denies for c in clauses)
            or clauses[-1].end <= cut
        ):
            continue
        inside = [m for m in mentions if a.clause(m).sentence == sentence and m.key in (r.winner, r.loser)]
        named = list(dict.fromkeys(m.key for m in inside))
        if not named:
            continue
        if len(named) == 2 and commitment.disjunctive(a, inside):  # "A or B directed more": the question
            continue
        lo = clauses[0].start
        raw = a.text[lo : clauses[-1].end]
        first = _cue_at(raw, r.first_wins)
        second = _cue_at(raw, r.second_wins)
        if len(named) == 1:
            other = r.loser if named[0] == r.winner else r.winner
            if first is not None and (second is None or first <= second):
                cued.add(named[0])
            elif second is not None and other:
                cued.add(other)  # "Kurosawa directed fewer"
            else:
                described.add(named[0])
        elif first is not None or second is not None:
            wins = first is not None and (second is None or first <= second)
            at = lo + (first if wins else second)  # type: ignore[operator]
            said = _cue_subject(a, inside, at)
            claim = said if wins else (r.loser if said == r.winner else r.winner)
            valued = _by_value(r.by_value, a, inside) if r.by_value else set()
            # numbers that favour the other side contradict the cue ("A directed 9 and B 16, so A
            # directed more"): the answer claims both
            cued |= {claim or ""} | valued
        elif r.by_value is not None:
            cued |= _by_value(r.by_value, a, inside)
    claimed = cued or described
    if claimed == {r.winner}:
        return None
    return f"does not name {r.winner} as the winner" + (f" (names {sorted(claimed)})" if claimed else "")


_VALUE = re.compile(r"^[^\w.]{0,4}(?:[a-z]+\W+){0,3}?(\d+(?:\.\d+)?|\d{4}-\d\d-\d\d)\b", re.I)


def _by_value(direction: str, a: Analysis, inside: list[Mention]) -> set[str]:
    """A comparison stated by its values alone ("A 7.655 vs B 7.572", "Spielberg 16, Kurosawa 9"):
    each name's value is the first number (or ISO date) right after it; the higher (or lower) wins."""
    values: dict[str, str] = {}
    for i, m in enumerate(inside):
        stop = inside[i + 1].start if i + 1 < len(inside) else len(a.text)
        segment = a.text[m.end : min(stop, m.end + 40)]
        without_year = re.sub(r"\(\s*(?:19|20)\d\d\s*\)", "", segment)  # "Avatar (2009) 7.572"
        found = _VALUE.match(without_year) or _VALUE.match(segment)
        if found and m.key not in values:
            values[m.key] = found.group(1)
    if len(values) != 2:
        return set()
    (k1, v1), (k2, v2) = values.items()
    if v1 == v2:
        return set()

    def number(v: str) -> float:
        return float(v.replace("-", "")) if "-" in v else float(v)

    higher = k1 if number(v1) > number(v2) else k2
    return {higher if direction == "higher" else (k2 if higher == k1 else k1)}


def _cue_subject(a: Analysis, inside: list[Mention], at: int) -> str:
    """Whom a cue word at ``at`` speaks of: the name right before it in its stretch of words (no comma
    or colon between: "A directed 9 movies and B 16, so B directed more": B; "A is rated higher than
    B": A), else the first name of the sentence ("A scores 7.7 against B's 7.6, so the sequel is rated
    higher": A). A possessive name qualifies another ("B's 7.6"), it is no subject."""
    before = [m for m in inside if m.end <= at and not focus.possessive(a, m)]
    if before:
        last = max(before, key=lambda m: m.end)
        if not re.search(r"[,;:()]|\b(?:so|thus|hence|therefore)\b", a.text[last.end : at], re.I):
            return last.key
    return min(inside, key=lambda m: m.start).key


def _cue_at(raw: str, cues: list[str]) -> int | None:
    """Where the first of ``cues`` stands in ``raw`` (a whole word or phrase; a symbol anywhere)."""
    hits = []
    for cue in cues:
        pattern = r"\s+".join(map(re.escape, cue.split())) if cue.strip() else re.escape(cue)
        found = re.search(
            rf"(?<![\w-]){pattern}(?![\w-])" if re.match(r"\w", cue) else re.escape(cue), raw, re.I
        )
        if found:
            hits.append(found.start())
    return min(hits) if hits else None
