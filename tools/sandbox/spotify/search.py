"""``GET /search`` over the catalogue and the user's playlists.

Matching is tolerant on purpose (queries say "The Beatle's", "quiet", "Mojito"): text is
case- and accent-folded, apostrophes and a possessive ``'s`` are dropped, and a query word
matches an item word it prefixes or nearly equals. Field filters ``artist:``, ``album:``,
``track:``, ``genre:`` and ``year:`` narrow the fields. Every query word must match somewhere;
results are ranked by how well the item's own name matches, then by popularity.

The padded catalogue holds tens of thousands of items, so matching runs on an inverted index
(``Index``): each query word is resolved once against the vocabulary (the item words it matches by
the rule above), and only items holding such a word are scored. The rule is the per-item rule
of ``word_match``, applied word by word, so the index finds exactly what a scan would.
"""

from __future__ import annotations

import bisect
import difflib
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from restgraph.tools.sandbox.spotify.models import Album, Artist, CatalogueData, Track

_FILTER = re.compile(r'(artist|album|track|genre|year|tag):("[^"]*"|\S+)', re.IGNORECASE)
KINDS = ("track", "album", "artist", "playlist")


def fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    text = re.sub(r"['\u2019]s\b", "", text)
    text = text.replace("'", "")
    return re.sub(r"[^a-z0-9]+", " ", text).strip()


@lru_cache(maxsize=8192)
def words(text: str) -> tuple[str, ...]:
    return tuple(fold(text).split())


def word_match(q: str, w: str) -> bool:
    """Does query word ``q`` match item word ``w``: a prefix either way (the item word at least 4
    letters when it is the shorter), or, for query words of 4+ letters, a near spelling."""
    if w.startswith(q) or (q.startswith(w) and len(w) >= 4):
        return True
    return len(q) >= 4 and abs(len(w) - len(q)) <= 2 and _similar(q, w)


@lru_cache(maxsize=65536)
def _similar(q: str, w: str) -> bool:
    matcher = difflib.SequenceMatcher(None, q, w)
    return matcher.quick_ratio() >= 0.8 and matcher.ratio() >= 0.8


def parse_query(q: str) -> tuple[tuple[str, ...], dict[str, str]]:
    filters = {m.group(1).lower(): m.group(2).strip('"') for m in _FILTER.finditer(q)}
    rest = _FILTER.sub(" ", q)
    return words(rest), filters


@dataclass(frozen=True)
class Row:
    item: Any
    fields: dict[str, tuple[str, ...]]
    all_words: frozenset[str]
    name_words: tuple[str, ...]
    year: str
    popularity: int


def _row(
    item: Any, fields: dict[str, str], popularity: int, memo: dict[str, tuple[str, ...]] | None = None
) -> Row:
    """``memo`` caches the words of texts many rows share (artist names, genres, album names)."""
    memo = {} if memo is None else memo

    def split(text: str) -> tuple[str, ...]:
        found = memo.get(text)
        if found is None:
            found = memo[text] = tuple(fold(text).split())
        return found

    field_words = {k: split(v) for k, v in fields.items() if k != "year"}
    every = [w for v in field_words.values() for w in v]
    if "year" in fields:
        every.extend(split(fields["year"]))
    return Row(
        item=item,
        fields=field_words,
        all_words=frozenset(every),
        name_words=field_words.get("name", ()),
        year=fields.get("year", ""),
        popularity=popularity,
    )


class Index:
    """The rows of one search kind with a word -> rows map; ``rank`` is ``GET /search``'s order."""

    def __init__(self, rows: list[Row]):
        self.rows = rows
        postings: dict[str, list[int]] = {}
        for i, row in enumerate(rows):
            for w in row.all_words:
                postings.setdefault(w, []).append(i)
        self.postings = postings
        self.vocab = sorted(postings)
        #: vocabulary by word length, with each word's letter counts (for the near-spelling bound)
        self.by_length: dict[int, list[tuple[str, Counter[str]]]] = {}
        for w in self.vocab:
            self.by_length.setdefault(len(w), []).append((w, Counter(w)))
        self._matches: dict[str, frozenset[str]] = {}
        self._ranked: dict[tuple[tuple[str, ...], tuple[tuple[str, str], ...]], list[tuple[float, int]]] = {}

    def matches(self, q: str) -> frozenset[str]:
        """The vocabulary words query word ``q`` matches (``word_match``), cached."""
        found = self._matches.get(q)
        if found is None:
            start = bisect.bisect_left(self.vocab, q)
            hits = set()
            for w in self.vocab[start:]:
                if not w.startswith(q):
                    break
                hits.add(w)
            hits.update(q[:k] for k in range(4, len(q)) if q[:k] in self.postings)
            if len(q) >= 4:
                letters = Counter(q)
                for length in range(len(q) - 2, len(q) + 3):
                    need = 0.4 * (len(q) + length)  # quick_ratio >= 0.8, difflib's own first test
                    for w, counts in self.by_length.get(length, ()):
                        shared = sum(min(n, counts[c]) for c, n in letters.items())
                        if shared >= need and _similar(q, w):
                            hits.add(w)
            found = self._matches[q] = frozenset(hits)
            if len(self._matches) > 50_000:
                self._matches.clear()
        return found

    def _candidates(self, needed: Sequence[str]) -> Iterable[int]:
        if not needed:
            return range(len(self.rows))
        sets = []
        for q in dict.fromkeys(needed):
            rows: set[int] = set()
            for w in self.matches(q):
                rows.update(self.postings[w])
            sets.append(rows)
        sets.sort(key=len)
        out = sets[0]
        for other in sets[1:]:
            out = out & other
        return out

    def score(self, row: Row, free: Sequence[str], filters: dict[str, str]) -> float | None:
        """None when the row does not match; else its rank score (higher is better)."""
        for key, value in filters.items():
            if key == "year":
                years = value.split("-")
                if not row.year or not (years[0] <= row.year <= years[-1]):
                    return None
            elif key in row.fields:
                field = row.fields[key]
                if not all(self.matches(w).intersection(field) for w in words(value)):
                    return None
            elif key != "tag":
                return None
        if not all(self.matches(w) & row.all_words for w in free):
            return None
        score = row.popularity / 100
        if free:
            score += sum(bool(self.matches(w).intersection(row.name_words)) for w in free) / len(free)
            if tuple(free) == row.name_words:
                score += 2
        return score

    def rank(self, free: tuple[str, ...], filters: dict[str, str]) -> list[tuple[float, int]]:
        """(score, row) of every matching row, best first (ties keep catalogue order), cached."""
        key = (free, tuple(sorted(filters.items())))
        ranked = self._ranked.get(key)
        if ranked is None:
            needed = list(free) + [
                w for k, v in filters.items() if k not in ("year", "tag") for w in words(v)
            ]
            scored = []
            if filters or not free:
                for i in self._candidates(needed):
                    s = self.score(self.rows[i], free, filters)
                    if s is not None:
                        scored.append((-s, i))
            else:  # free words only: every candidate holds a match of each word (``score``, inlined)
                found = [self.matches(w) for w in free]
                for i in self._candidates(needed):
                    row = self.rows[i]
                    named = sum(not m.isdisjoint(row.name_words) for m in found) / len(free)
                    exact = 2 if free == row.name_words else 0
                    scored.append((-(row.popularity / 100 + named + exact), i))
            scored.sort()
            ranked = self._ranked[key] = [(-s, i) for s, i in scored]
            if len(self._ranked) > 4096:
                self._ranked.clear()
        return ranked


def _names(data: CatalogueData) -> tuple[dict[str, Artist], dict[str, Album]]:
    return {a.id: a for a in data.artists}, {a.id: a for a in data.albums}


def playlist_row(p: Any) -> Row:
    return _row(p, {"name": p.name, "description": p.description or ""}, getattr(p, "popularity", 50))


def build_index(data: CatalogueData, kind: str) -> Index:
    """The search rows of one kind over a catalogue (tracks: name, artists, album, genres, year)."""
    artists, albums = _names(data)
    memo: dict[str, tuple[str, ...]] = {}

    def artist_names(ids: list[str]) -> str:
        return " ".join(artists[a].name for a in ids)

    def genres(ids: list[str]) -> str:
        return " ".join(g for a in ids for g in artists[a].genres)

    if kind == "track":
        rows = []
        for t in data.tracks:
            album = albums[t.album_id]
            fields = {
                "name": t.name,
                "track": t.name,
                "artist": artist_names(t.artist_ids),
                "album": album.name,
                "genre": genres(t.artist_ids),
                "year": album.release_date[:4],
            }
            rows.append(_row(t, fields, t.popularity, memo))
        return Index(rows)
    if kind == "album":
        tracks: dict[str, Track] = {t.id: t for t in data.tracks}
        album_pop = {a.id: max(tracks[t].popularity for t in a.track_ids) for a in data.albums}
        return Index(
            [
                _row(
                    a,
                    {
                        "name": a.name,
                        "album": a.name,
                        "artist": artist_names(a.artist_ids),
                        "genre": genres(a.artist_ids),
                        "year": a.release_date[:4],
                    },
                    album_pop[a.id],
                    memo,
                )
                for a in data.albums
            ]
        )
    if kind == "artist":
        return Index(
            [
                _row(a, {"name": a.name, "artist": a.name, "genre": " ".join(a.genres)}, a.popularity, memo)
                for a in data.artists
            ]
        )
    return Index([playlist_row(p) for p in data.playlists])


def search(
    indexes: dict[str, Index], own_playlists: list[Any], q: str, kinds: list[str]
) -> dict[str, list[Any]]:
    """Matching catalogue objects per kind (``track``, ``album``, ``artist``, ``playlist``), best
    first; the user's own public playlists are searchable too and rank after equal-scored catalogue
    playlists."""
    free, filters = parse_query(q)
    if not free and not filters:
        return {k: [] for k in kinds}
    out: dict[str, list[Any]] = {}
    for kind in kinds:
        index = indexes[kind]
        ranked = index.rank(free, filters)
        items = [index.rows[i].item for _, i in ranked]
        if kind == "playlist" and own_playlists:
            extra = []
            for n, p in enumerate(own_playlists):
                s = index.score(playlist_row(p), free, filters) if p.public else None
                if s is not None:
                    extra.append((-s, len(index.rows) + n, p))
            if extra:
                merged = [(-s, i, index.rows[i].item) for s, i in ranked] + extra
                merged.sort(key=lambda x: (x[0], x[1]))
                items = [x[2] for x in merged]
        out[kind] = items
    return out
