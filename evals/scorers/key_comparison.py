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

from restgraph.evals.scorers import commitment
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
        text = " " + " ".join(t.norm for c in clauses for t in c.tokens) + " "
        raw = a.text[clauses[0].start : clauses[-1].end]
        first = _cue_at(text, raw, r.first_wins)
        second = _cue_at(text, raw, r.second_wins)
        if len(named) == 1:
            other = r.loser if named[0] == r.winner else r.winner
            if first is not None and (second is None or first <= second):
                cued.add(named[0])
            elif second is not None and other:
                cued.add(other)  # "Kurosawa directed fewer"
            else:
                described.add(named[0])
        elif first is not None and (second is None or first <= second):
            cued.add(named[0])
        elif second is not None:
            cued.add(named[1])
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


def _cue_at(norm_text: str, raw: str, cues: list[str]) -> int | None:
    hits = []
    for cue in cues:
        pos = norm_text.find(f" {cue} ") if cue.isalpha() or " " in cue else raw.find(cue)
        if pos >= 0:
            hits.append(pos)
    return min(hits) if hits else None
