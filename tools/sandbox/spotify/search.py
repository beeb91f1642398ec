"""``GET /search`` over the catalogue and the user's playlists.

Matching is tolerant on purpose (queries say "The Beatle's", "quiet", "Mojito"): text is
case- and accent-folded, apostrophes and a possessive ``'s`` are dropped, and a query word
matches an item word it prefixes or nearly equals. Field filters ``artist:``, ``album:``,
``track:``, ``genre:`` and ``year:`` narrow the fields. Every query word must match somewhere;
results are ranked by how well the item's own name matches, then by popularity.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from restgraph.tools.sandbox.spotify.catalogue import Catalogue
from restgraph.tools.sandbox.spotify.models import SpotifyState

_FILTER = re.compile(r'(artist|album|track|genre|year|tag):("[^"]*"|\S+)', re.IGNORECASE)


def fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    text = re.sub(r"['\u2019]s\b", "", text)
    text = text.replace("'", "")
    return re.sub(r"[^a-z0-9]+", " ", text).strip()


@lru_cache(maxsize=8192)
def words(text: str) -> tuple[str, ...]:
    return tuple(fold(text).split())


def _word_match(q: str, candidates: list[str] | tuple[str, ...]) -> bool:
    for w in candidates:
        if w.startswith(q) or q.startswith(w) and len(w) >= 4:
            return True
    if len(q) < 4:
        return False
    # typo tolerance: only words of similar length can reach a 0.8 ratio, so skip the rest cheaply
    return any(abs(len(w) - len(q)) <= 2 and _similar(q, w) for w in candidates)


@lru_cache(maxsize=65536)
def _similar(q: str, w: str) -> bool:
    matcher = difflib.SequenceMatcher(None, q, w)
    return matcher.quick_ratio() >= 0.8 and matcher.ratio() >= 0.8


def parse_query(q: str) -> tuple[tuple[str, ...], dict[str, str]]:
    filters = {m.group(1).lower(): m.group(2).strip('"') for m in _FILTER.finditer(q)}
    rest = _FILTER.sub(" ", q)
    return words(rest), filters


def _score(
    free: Sequence[str], filters: dict[str, str], fields: dict[str, str], popularity: int
) -> float | None:
    """None when the item does not match; else a rank score (higher is better)."""
    all_words = words(" ".join(fields.values()))  # cached per item text
    for key, value in filters.items():
        if key == "year":
            years = value.split("-")
            year = fields.get("year", "")
            if not year or not (years[0] <= year <= years[-1]):
                return None
        elif key in fields:
            if not all(_word_match(w, words(fields[key])) for w in words(value)):
                return None
        elif key != "tag":
            return None
    if not all(_word_match(w, all_words) for w in free):
        return None
    name_words = words(fields.get("name", ""))
    score = popularity / 100
    if free:
        score += sum(_word_match(w, name_words) for w in free) / len(free)
        if tuple(free) == name_words:
            score += 2
    return score


def _rank(
    items: list[tuple[Any, dict[str, str], int]], free: Sequence[str], filters: dict[str, str]
) -> list[Any]:
    scored = [
        (s, i, item)
        for i, (item, fields, pop) in enumerate(items)
        if (s := _score(free, filters, fields, pop)) is not None
    ]
    scored.sort(key=lambda x: (-x[0], x[1]))
    return [item for _, _, item in scored]


_ROWS: dict[tuple[int, str], list[tuple[Any, dict[str, str], int]]] = {}


def _catalogue_rows(cat: Catalogue, kind: str) -> list[tuple[Any, dict[str, str], int]]:
    """(item, searchable fields, popularity) for the frozen catalogue, built once per kind."""
    key = (id(cat), kind)
    if key not in _ROWS:
        artist_names: Callable[[list[str]], str] = lambda ids: " ".join(cat.artists[a].name for a in ids)  # noqa: E731
        genres: Callable[[list[str]], str] = lambda ids: " ".join(  # noqa: E731
            g for a in ids for g in cat.artists[a].genres
        )
        rows: list[tuple[Any, dict[str, str], int]]
        if kind == "track":
            rows = [
                (
                    t,
                    {
                        "name": t.name,
                        "track": t.name,
                        "artist": artist_names(t.artist_ids),
                        "album": cat.albums[t.album_id].name,
                        "genre": genres(t.artist_ids),
                        "year": cat.albums[t.album_id].release_date[:4],
                    },
                    t.popularity,
                )
                for t in cat.data.tracks
            ]
        elif kind == "album":
            rows = [
                (
                    a,
                    {
                        "name": a.name,
                        "album": a.name,
                        "artist": artist_names(a.artist_ids),
                        "genre": genres(a.artist_ids),
                        "year": a.release_date[:4],
                    },
                    max(cat.tracks[t].popularity for t in a.track_ids),
                )
                for a in cat.data.albums
            ]
        elif kind == "artist":
            rows = [
                (a, {"name": a.name, "artist": a.name, "genre": " ".join(a.genres)}, a.popularity)
                for a in cat.data.artists
            ]
        else:
            rows = [(p, {"name": p.name, "description": p.description or ""}, 50) for p in cat.data.playlists]
        _ROWS[key] = rows
    return _ROWS[key]


def search(cat: Catalogue, state: SpotifyState, q: str, kinds: list[str]) -> dict[str, list[Any]]:
    """Matching catalogue objects per kind (``track``, ``album``, ``artist``, ``playlist``); the
    user's own public playlists are searchable too."""
    free, filters = parse_query(q)
    if not free and not filters:
        return {k: [] for k in kinds}
    out: dict[str, list[Any]] = {}
    for kind in kinds:
        rows = list(_catalogue_rows(cat, kind))
        if kind == "playlist":
            rows += [
                (p, {"name": p.name, "description": p.description or ""}, 50)
                for p in state.playlists
                if p.public
            ]
        out[kind] = _rank(rows, free, filters)
    return out
