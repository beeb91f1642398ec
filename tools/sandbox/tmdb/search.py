"""Search as TMDB searches: every query word must match a word of the name, as itself or as its
prefix ("lord of the ring" finds "The Lord of the Rings"); case, accents and punctuation are folded
(``derive.normalise``); an exact name ranks first, then popularity decides.

There is no general typo tolerance: the real API does not forgive "sofia copola". ``ALIASES`` lists
exactly the misspellings of entity names that occur in RestBench's 100 TMDB queries, each mapped to
the word it stands for, so those queries keep working and no other misspelling does. Derived by
comparing every word of the query texts with the names in the fixture: the only misspelt name word is
"Redemptionn" (query 85, "The Shawshank Redemptionn"). "Lord of the Ring" (query 81) needs no alias
(prefix match), "Veronique" (query 89) none either (accents are folded). Misspellings outside entity
names ("dose", "episod", "bitrhday") are never searched for.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from restgraph.tools.sandbox.tmdb.derive import normalise

ALIASES: dict[str, str] = {"redemptionn": "redemption"}


def query_words(query: str) -> list[str]:
    return [ALIASES.get(w, w) for w in normalise(query).split()]


def name_matches(words: list[str], name: str) -> bool:
    """Does a query (already split into words) match this name (word or prefix match per query word)?"""
    parts = normalise(name).split()
    return bool(words) and all(any(part.startswith(w) for part in parts) for w in words)


class SearchIndex:
    """An inverted index over the names of one kind of entity (built once per database and kind)."""

    def __init__(self, items: Iterable[Any], names: Callable[[Any], list[str]], rank: Callable[[Any], tuple]):
        self.entries: list[tuple[Any, str]] = []
        postings: dict[str, set[int]] = defaultdict(set)
        for item in items:
            for name in names(item):
                norm = normalise(name) if name else ""
                if not norm:
                    continue
                self.entries.append((item, norm))
                for word in norm.split():
                    postings[word].add(len(self.entries) - 1)
        self.vocabulary = sorted(postings)
        self.postings = dict(postings)
        self.rank = rank

    def _prefixed(self, word: str) -> set[int]:
        out: set[int] = set()
        i = bisect_left(self.vocabulary, word)
        while i < len(self.vocabulary) and self.vocabulary[i].startswith(word):
            out |= self.postings[self.vocabulary[i]]
            i += 1
        return out

    def search(self, query: str) -> list[Any]:
        words = query_words(query)
        if not words:
            return []
        hits: set[int] | None = None
        for word in sorted(set(words), key=len, reverse=True):  # the longest word is usually the rarest
            found = self._prefixed(word)
            hits = found if hits is None else hits & found
            if not hits:
                return []
        exact = " ".join(words)
        best: dict[int, tuple[int, Any]] = {}
        for entry in hits or ():
            item, norm = self.entries[entry]
            tier = 0 if norm == exact else 1
            if id(item) not in best or tier < best[id(item)][0]:
                best[id(item)] = (tier, item)
        return [item for _, item in sorted(best.values(), key=lambda t: (t[0], *self.rank(t[1])))]
