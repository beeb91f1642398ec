"""Answer keys for RestBench (TMDB, and the Spotify queries whose success reads the answer).

A key says what a careful judge checks, in data a reviewer can read at a glance
(``evals/scorers/keys/{tmdb,spotify}.yaml``, one entry per query id)::

    2:
      asks: the lead actor of The Dark Knight
      require:
      - one_of: [Christian Bale]      # a single answer: asserted, not offered among candidates
        kind: person                  # "Bale, Christian" and "BALE" count
        distractors: [Heath Ledger]   # wrong names a tempting answer gives

A key holds when every requirement holds (``judge``). The rule of each kind of requirement is in
``key_rules`` (one_of, some_of, number, dates/year, polarity, winner/loser); what an answer *commits to*
(not what it mentions) is ``commitment``'s one rule for every kind; the written forms a name may take
are ``name_forms``'; catalogue-wide distractors (``wrong_from``: a literal ``catalogue`` list of the key
file, or a pool of the sandbox's facts: keywords, genres, places, homepages) are ``key_pools``'. An
answer that says it could not find or check the answer passes no key.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator

from restgraph.evals.scorers import commitment
from restgraph.evals.scorers.claims import Alias, Analysis, Vocabulary
from restgraph.evals.scorers.key_pools import pools
from restgraph.evals.scorers.key_rules import check
from restgraph.evals.scorers.name_forms import surnames
from restgraph.evals.scorers.tmdb_success import normalise

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
    #: a comparison stated by its numbers alone ("A 7.6 vs B 7.5"): the ``higher`` or ``lower`` wins
    by_value: Literal["higher", "lower"] | None = None
    #: distractors that came from a catalogue-wide pool of common words (keywords, genres, places,
    #: homepages): they fail an answer only when it commits to them (``commitment.committed``)
    _pooled: set[str] = PrivateAttr(default_factory=set)

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
    names: dict[str, list[str]] = raw.pop("catalogue", {})
    catalogue = {**pools(), **names}
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
                if r.wrong_from not in names:  # a pooled value that is also a title or a name is that name
                    keep |= {normalise(n) for items in names.values() for n in items}
                added = [
                    n for n in catalogue[r.wrong_from] if n.lower() not in keep and normalise(n) not in keep
                ]
                r.distractors = [*r.distractors, *added]
                if r.wrong_from not in names:
                    r._pooled = set(added)
        key._neutral = [
            ("person" if pool == "people" else "title", n) for pool, items in names.items() for n in items
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
    people = [n for r in key.require if r.kind == "person" for n in r.names()]
    accepted = [n for r in key.require if r.kind == "person" for n in [*(r.one_of or []), *(r.some_of or [])]]
    for last, person in surnames([*people, *(n for k, n in key._neutral if k == "person")], accepted).items():
        vocab.items.append(Alias(person, (last,), capital=True, alone=True))
    return vocab


def judge(key: AnswerKey, answer: str | None) -> tuple[bool, str]:
    """``(success, reason)``: every requirement of ``key`` holds for ``answer``."""
    if answer is None or not answer.strip():
        return False, "no answer"
    analysis = Analysis(answer, _vocabulary(key).items)
    if commitment.unverified(analysis):
        return False, "says it could not find or check the answer"
    mentions = analysis.mentions
    for r in key.require:
        problem = check(r, analysis, mentions, key)
        if problem:
            return False, problem
    return True, "key met"
