"""The names a key knows, in every written form a judge accepts, for ``claims.Analysis`` to find.

Apart from ``claims`` (which splits an answer and reads its clauses) because building the forms is its
own concern: ``name_forms`` generates them by kind (people, titles) and the alias table, and a key's
``Vocabulary`` holds them for one matching pass over an answer.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from restgraph.evals.scorers.name_forms import person_forms, table_forms, title_forms
from restgraph.evals.scorers.tmdb_success import normalise


@dataclass
class Alias:
    key: str
    tokens: tuple[str, ...]
    capital: bool = False  # a surname alone counts only when written with a capital letter
    #: a surname alone: not when a capitalised word or an initial stands before it ("Kevin Byrne" is
    #: another person than Rose Byrne)
    alone: bool = False
    #: a surname that is also a common word ("May"): a name only as an item of a list beside another
    #: known name ("Hammond and May"), never alone ("in May", "May I")
    paired: bool = False


def aliases(key: str, kind: str = "text", extra: Iterable[str] = ()) -> list[Alias]:
    """The written forms of a name (``name_forms``): itself, ``extra`` and the alias table's; titles and
    people in the forms a judge accepts for their kind. A person's surname-first form ("Coppola, Francis
    Ford") is ``alone``: after another first name it is that person's surname ("Sofia Coppola, Francis
    Ford Coppola's daughter")."""
    full = tuple(normalise(key).split())
    return [
        Alias(key, tokens, alone=kind == "person" and len(full) > 1 and tokens[0] == full[-1] != tokens[-1])
        for tokens in _alias_tokens(key, kind, tuple(extra))
    ]


@lru_cache(maxsize=65536)
def _alias_tokens(key: str, kind: str, extra: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """``aliases``' token forms, once per name: every key's vocabulary holds the whole catalogue's names
    (~8 ms a key when computed afresh, bench/restgpt_episode_cost.py). Fresh ``Alias`` objects per call:
    a vocabulary sets ``capital`` on its own."""
    forms = {key, *extra, *table_forms(key)}
    out: set[tuple[str, ...]] = set()
    for f in forms:
        if kind == "title":
            out |= title_forms(f)
        elif kind == "person":
            out |= person_forms(f)
        out.add(tuple(normalise(f).split()))
    return tuple(tokens for tokens in sorted(out) if tokens)


def surname(key: str) -> Alias:
    return Alias(key, (normalise(key).split()[-1],), capital=True)


@dataclass
class Vocabulary:
    """Every name a key knows (accepted, distractors, context), as aliases for one matching pass."""

    items: list[Alias] = field(default_factory=list)

    def add(
        self, key: str, kind: str = "text", extra: Iterable[str] = (), with_surname: bool = False
    ) -> None:
        found = aliases(key, kind, extra)
        if kind in (
            "title",
            "person",
        ):  # a one-word title ("Friends", "Following") is a name only when capitalised
            for alias in found:
                alias.capital = len(alias.tokens) == 1
        self.items += found
        if with_surname and kind == "person" and len(normalise(key).split()) >= 2:
            self.items.append(surname(key))
