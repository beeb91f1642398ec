"""Which authored entities a search for a generated name would find: the guard every generated
neighbour passes (README, "Padding and facts").

A generated neighbour must (1) be less popular than its seed and than every authored entity whose own
name, searched for, also finds the neighbour, so the authored one ranks above it there, and
(2) never be an *exact* match of a search that finds an authored entity only as a partial match (an
exact name ranks first whatever its popularity). ``search.name_matches`` decides "finds"; here it is
evaluated through the set of every prefix of the generated name's words, and the authored names are
keyed by their first query word, so a check costs a few dictionary look-ups however many names exist.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from restgraph.tools.sandbox.tmdb.derive import normalise
from restgraph.tools.sandbox.tmdb.search import query_words


def prefixes(name: str) -> set[str]:
    return {part[:k] for part in normalise(name).split() for k in range(1, len(part) + 1)}


class AuthoredNames:
    """The authored names of one kind of entity, each with its popularity (names: primary and alternative)."""

    def __init__(self, named: Iterable[tuple[str, float]]):
        self._by_first: dict[str, list[tuple[list[str], str, float]]] = defaultdict(list)
        self._by_prefix: dict[str, set[str]] = defaultdict(set)
        self._word_floor: dict[str, float] = {}
        for name, popularity in named:
            words = query_words(name)
            for w in words:
                self._word_floor[w] = min(popularity, self._word_floor.get(w, popularity))
            if words:
                self._by_first[words[0]].append((words, " ".join(words), popularity))
                for p in prefixes(name):
                    self._by_prefix[p].add(" ".join(words))

    def found_by(self, name: str) -> list[tuple[str, float]]:
        """(normalised name, popularity) of every authored name a search for ``name`` finds."""
        have = prefixes(name)
        return [
            (norm, pop)
            for p in have
            for words, norm, pop in self._by_first.get(p, ())
            if all(w in have for w in words)
        ]

    def cap(self, name: str, own: float) -> float:
        """A popularity ceiling for a generated ``name``: below ``own`` (its seed), below every authored name whose search finds it,
        and below every authored name holding a word that is one of its words or their prefixes (so a search for a word or two of an
        authored name, "Richard" or "May", lists the authored names first)."""
        shared = [self._word_floor[w] for w in prefixes(name) if w in self._word_floor]
        return min([own, *shared] + [pop for _, pop in self.found_by(name)]) * 0.9

    def finds(self, name: str) -> set[str]:
        """The normalised authored names a search for ``name`` finds (every word of ``name`` a word or prefix of theirs)."""
        words = query_words(name)
        found = set(self._by_prefix.get(words[0], ())) if words else set()
        for w in words[1:]:
            found &= self._by_prefix.get(w, set())
        return found

    def shadows(self, name: str) -> bool:
        """Would searching exactly ``name`` rank a generated entity of that name (an exact match) above an authored partial match?"""
        found = self.finds(name)
        return bool(found) and " ".join(query_words(name)) not in found
