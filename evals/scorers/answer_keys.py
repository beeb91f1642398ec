"""Answer keys for RestBench (TMDB, and the Spotify queries whose success reads the answer).

A key says what a careful judge checks, in data a reviewer can read at a glance
(``evals/scorers/keys/{tmdb,spotify}.yaml``, one entry per query id)::

    2:
      asks: the lead actor of The Dark Knight
      require:
      - one_of: [Christian Bale]      # a single answer: asserted, not offered among candidates
        kind: person                  # "Bale, Christian" and "BALE" count
        distractors: [Heath Ledger]   # wrong names a tempting answer gives

A key holds when every requirement holds (``judge``), each read through ``restgraph.evals.scorers.claims``:

- ``one_of``: one accepted name is *asserted* (not denied, hedged or asked), never denied, and not
  an item of a list that also offers a distractor; ``cue`` words ("album") must sit nearest it.
- ``some_of``: at least ``need`` accepted items (``all``: every one) are asserted and no
  distractor is; ``by`` pairs a one-word track name with its artist (so "Lost" needs "Lorde").
- ``number``: the asked count or value (digits or words, never digits of a date, a decimal, an
  URL or a name), followed by a ``unit`` word or closing its clause, not one of several offered.
- ``dates``: any one (``need: all``: every one) in any written form; ``year``: the year of one.
- ``polarity``: yes/no, with or without the word ("They do co-star", "does not appear").
- ``winner``/``loser``: a comparison; with both named, ``first_wins`` cues ("higher", "<") give
  the win to the first named, ``second_wins`` cues ("lower", "after") to the second.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator

from restgraph.evals.scorers.claims import Analysis, Mention, Vocabulary

KEYS_DIR = Path(__file__).with_name("keys")
Kind = Literal["person", "title", "text", "path", "domain", "track"]
_MAIN = ("one_of", "some_of", "number", "dates", "year", "polarity", "winner")


class Requirement(BaseModel):
    model_config = ConfigDict(extra="forbid")

    one_of: list[str] | None = None
    some_of: list[str] | None = None
    number: int | None = None
    dates: list[str] | None = None
    year: int | None = None
    polarity: Literal["yes", "no"] | None = None
    winner: str | None = None
    loser: str | None = None
    first_wins: list[str] = Field(default_factory=list)
    second_wins: list[str] = Field(default_factory=list)
    need: int | Literal["all"] = 1
    kind: Kind = "text"
    distractors: list[str] = Field(default_factory=list)
    aliases: dict[str, list[str]] = Field(default_factory=dict)
    cue: list[str] = Field(default_factory=list)
    by: dict[str, list[str]] = Field(default_factory=dict)
    unit: list[str] = Field(default_factory=list)
    #: every other name of this catalogue list (``movies``, ``shows``, ``people``) is a distractor,
    #: except the accepted ones and the key's context
    wrong_from: str | None = None

    @model_validator(mode="after")
    def _one_main_field(self) -> Requirement:
        set_ = [f for f in _MAIN if getattr(self, f) is not None]
        if len(set_) != 1:
            raise ValueError(f"a requirement states exactly one of {_MAIN}, got {set_}")
        if self.winner is not None and self.loser is None:
            raise ValueError("a comparison names its loser too")
        return self

    def names(self) -> list[str]:
        return [
            *(self.one_of or []),
            *(self.some_of or []),
            *self.distractors,
            *([self.winner, self.loser or ""] if self.winner else []),
        ]


class AnswerKey(BaseModel):
    model_config = ConfigDict(extra="forbid")

    asks: str
    #: names the question or its chain mentions that are neither right nor wrong answers (matched
    #: only so their digits or words are not read as something else: "2 Broke Girls")
    context: list[str] = Field(default_factory=list)
    require: list[Requirement] = Field(min_length=1)
    #: every catalogue name (kind, name): matched as a whole so the words inside a title ("House of
    #: the Dragon") are never read as an answer ("dragon") or as a cue ("Don't Look Up")
    _neutral: list[tuple[str, str]] = PrivateAttr(default_factory=list)

    def describe(self) -> str:
        parts = []
        for r in self.require:
            main = next(f for f in _MAIN if getattr(r, f) is not None)
            value = getattr(r, main)
            text = f"{main}: {value if not isinstance(value, list) or len(value) <= 8 else [*value[:8], f'... {len(value) - 8} more']}"
            if r.distractors:
                text += f" (wrong: {r.distractors[:6]}{' ...' if len(r.distractors) > 6 else ''})"
            if main == "some_of":
                text += f" need {r.need}"
            parts.append(text)
        return f"{self.asks} -> " + "; ".join(parts)


@cache
def load_keys(scenario: str) -> dict[int, AnswerKey]:
    """The keys of ``scenario`` (``tmdb``, ``spotify``), ``wrong_from`` resolved against the file's
    ``catalogue`` (a literal list: names added to a sandbox later are not distractors)."""
    raw = yaml.safe_load((KEYS_DIR / f"{scenario}.yaml").read_text(encoding="utf-8"))
    catalogue: dict[str, list[str]] = raw.pop("catalogue", {})
    keys = {}
    for k, v in raw.items():
        key = AnswerKey.model_validate(v)
        for r in key.require:
            if r.wrong_from is not None:
                if r.wrong_from not in catalogue:
                    raise ValueError(
                        f"{scenario} key {k}: wrong_from {r.wrong_from!r} is not a catalogue list ({sorted(catalogue)})"
                    )
                keep = {n.lower() for n in [*r.names(), *key.context]}
                r.distractors = [
                    *r.distractors,
                    *(n for n in catalogue[r.wrong_from] if n.lower() not in keep),
                ]
        key._neutral = [
            ("person" if pool == "people" else "title", n) for pool, names in catalogue.items() for n in names
        ]
        keys[int(k)] = key
    return keys


def verdict(scenario: str, query_id: int, answer: str | None) -> tuple[bool, str]:
    """The rule checker's verdict on one answer to RestBench ``scenario`` query ``query_id``."""
    return judge(load_keys(scenario)[query_id], answer)


def _vocabulary(key: AnswerKey) -> Vocabulary:
    vocab = Vocabulary()
    for name in key.context:
        vocab.add(name, "title")
    for r in key.require:
        if r.kind in ("path", "domain"):
            continue
        for name in r.names():
            vocab.add(name, r.kind, r.aliases.get(name, ()), with_surname=r.winner is not None)
        for artists in r.by.values():
            for artist in artists:
                vocab.add(artist, "text")
    for kind, name in key._neutral:  # last: on an equal match the key's own names win
        vocab.add(name, kind)
    return vocab


def judge(key: AnswerKey, answer: str | None) -> tuple[bool, str]:
    """``(success, reason)``: every requirement of ``key`` holds for ``answer``."""
    if answer is None or not answer.strip():
        return False, "no answer"
    analysis = Analysis(answer, _vocabulary(key).items)
    mentions = analysis.mentions
    for r in key.require:
        problem = _check(r, analysis, mentions, key)
        if problem:
            return False, problem
    return True, "key met"


def _check(r: Requirement, a: Analysis, mentions: list[Mention], key: AnswerKey) -> str | None:
    topic = key.asks
    if r.one_of is not None:
        return _one_of(
            r,
            a,
            mentions,
            {n for k, n in key._neutral if k == ("person" if r.kind == "person" else "title")}
            - set(key.context),
        )
    if r.some_of is not None:
        return _some_of(r, a, mentions)
    if r.number is not None:
        return _number(r, a, mentions)
    if r.dates is not None or r.year is not None:
        return _dates(r, a)
    if r.polarity is not None:
        got = a.polarity(topic)
        return None if got == r.polarity else f"answers {got or 'neither yes nor no'}, expected {r.polarity}"
    return _comparison(r, a, mentions)


def _found(r: Requirement, a: Analysis, mentions: list[Mention], names: list[str]) -> list[Mention]:
    if r.kind in ("path", "domain"):
        return [m for n in names for m in a.raw(n)]
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


def _one_of(r: Requirement, a: Analysis, mentions: list[Mention], same_kind: set[str]) -> str | None:
    right = _found(r, a, mentions, r.one_of or [])
    wrong = _found(r, a, mentions, r.distractors)
    if r.cue:
        right = [m for m in right if _at_cue(m, mentions, a, r.cue)]
    if any(a.clause(m).denies for m in right):
        return f"denies {right[0].key}"
    asserted = [m for m in right if m.asserted]
    if not asserted:
        return f"does not assert {r.one_of[:3] if r.one_of else []}"
    accepted, wrong_keys = set(r.one_of or []), {m.key for m in wrong}
    offered = []
    for m in asserted:  # one clean statement is enough; a list of candidates is not a statement
        items = (
            a.enumeration(m, mentions) if m in mentions else [m, *(o for o in wrong if a.enumerated(m, o))]
        )
        others = [o.key for o in items if o.key not in accepted]
        if any(k in wrong_keys or k in same_kind for k in others) or len(others) >= 3:
            offered.append(f"offers {m.key} among candidates ({others[0]})")
    return offered[0] if len(offered) == len(asserted) else None


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


def _some_of(r: Requirement, a: Analysis, mentions: list[Mention]) -> str | None:
    accepted = r.some_of or []
    need = len(accepted) if r.need == "all" else r.need
    got = {m.key for m in _found(r, a, mentions, accepted) if m.asserted}
    wrong = sorted({m.key for m in _found(r, a, mentions, r.distractors) if m.asserted})
    if wrong:
        return f"asserts wrong items: {wrong[:4]}"
    if len(got) < need:
        return f"asserts {len(got)} of the {need} needed items of {accepted[:4]}{' ...' if len(accepted) > 4 else ''}"
    return None


def _number(r: Requirement, a: Analysis, mentions: list[Mention]) -> str | None:
    numbers = a.numbers(exclude=mentions)
    right = [m for m in numbers if m.key == str(r.number)]
    if any(a.clause(m).denies for m in right):
        return f"denies {r.number}"
    stated = [m for m in right if m.asserted and (not r.unit or a.followed_by(m, r.unit) or a.ends_clause(m))]
    if not stated:
        return f"does not state the number {r.number}" + (f" ({'/'.join(r.unit[:2])})" if r.unit else "")
    for m in stated:
        if any(o.key != m.key and a.enumerated(m, o) for o in numbers):
            return f"offers {r.number} among several numbers"
    return None


def _dates(r: Requirement, a: Analysis) -> str | None:
    if r.year is not None:
        found = [m for m in a.dates if any(d.year == r.year for d in m.values)] + [
            m for m in a.numbers() if m.key == str(r.year)
        ]
        others = [m for m in a.dates if all(d.year != r.year for d in m.values)] + [
            m for m in a.numbers() if len(m.key) == 4 and m.key != str(r.year)
        ]
        label = str(r.year)
    else:
        accepted = set(r.dates or [])
        found = [m for m in a.dates if {d.isoformat() for d in m.values} & accepted]
        others = [m for m in a.dates if not {d.isoformat() for d in m.values} & accepted]
        label = ", ".join(sorted(accepted))
    if any(a.clause(m).denies for m in found):
        return f"denies {label}"
    stated = [m for m in found if m.asserted]
    if not stated:
        return f"does not state {label}"
    if any(a.enumerated(m, o) for m in stated for o in others):
        return f"offers {label} among other dates"
    if r.dates is not None and r.need == "all":
        covered = {d.isoformat() for m in stated for d in m.values}
        missing = sorted(set(r.dates) - covered)
        if missing:
            return f"misses {missing}"
    return None


def _comparison(r: Requirement, a: Analysis, mentions: list[Mention]) -> str | None:
    claimed: set[str] = set()
    for sentence in sorted({c.sentence for c in a.clauses}):
        clauses = a.sentence_clauses(sentence)
        if clauses[0].question or clauses[0].hedged or any(c.denies for c in clauses):
            continue
        inside = [m for m in mentions if a.clause(m).sentence == sentence and m.key in (r.winner, r.loser)]
        named = list(dict.fromkeys(m.key for m in inside))
        if len(named) == 1:
            claimed.add(named[0])
        elif len(named) == 2:
            text = " " + " ".join(t.norm for c in clauses for t in c.tokens) + " "
            raw = a.text[clauses[0].start : clauses[-1].end]
            first = _cue_at(text, raw, r.first_wins)
            second = _cue_at(text, raw, r.second_wins)
            if first is not None and (second is None or first <= second):
                claimed.add(named[0])
            elif second is not None:
                claimed.add(named[1])
    if claimed == {r.winner}:
        return None
    return f"does not name {r.winner} as the winner" + (f" (names {sorted(claimed)})" if claimed else "")


def _cue_at(norm_text: str, raw: str, cues: list[str]) -> int | None:
    hits = []
    for cue in cues:
        pos = norm_text.find(f" {cue} ") if cue.isalpha() or " " in cue else raw.find(cue)
        if pos >= 0:
            hits.append(pos)
    return min(hits) if hits else None
