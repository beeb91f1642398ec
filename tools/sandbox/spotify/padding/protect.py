"""Keep every search the reference solutions (and their obvious rephrasings) depend on answering
as it did on the authored catalogue alone.

Generated items are less popular than authored ones, so they can only outrank an authored item
through their *name* (a word of the query in a generated title, an exact-name bonus). For every
protected search, a generated item that scores above the lowest-scoring authored match is renamed
to a title holding no word of any protected search, and the check runs again (bounded). Afterwards,
in every protected search the authored matches come first and in the order they had without the
padding (``tests/restbench_spotify/test_padding.py`` checks it).
"""

from __future__ import annotations

from typing import Any

from restgraph.tools.sandbox.spotify.models import CatalogueData
from restgraph.tools.sandbox.spotify.padding.generate import rng_for, title
from restgraph.tools.sandbox.spotify.search import build_index, parse_query, word_match, words

#: (q, type) of the reference solutions' searches and the rephrasings an agent is likely to send
PROTECTED: tuple[tuple[str, str], ...] = (
    ("Mariah Carey", "track"),
    ("Mariah Carey", "artist"),
    ("The Dark Side of the Moon", "album"),
    ("Dark Side of the Moon", "album"),
    ("The Dark Side of the Moon Pink Floyd", "album"),
    ("album:The Dark Side of the Moon artist:Pink Floyd", "album"),
    ("track:Summertime Sadness artist:Lana Del Rey", "track"),
    ("Summertime Sadness", "track"),
    ("Summertime Sadness Lana Del Rey", "track"),
    ("Mojito", "album"),
    ("Mojito Jay Chou", "album"),
    ("album:Mojito artist:Jay Chou", "album"),
    ("Jay Chou", "artist"),
    ("Taylor Swift", "artist"),
    ("Maroon 5", "artist"),
    ("BIGBANG", "artist"),
    ("BIGBANG", "track"),
    ("The Beatle's", "artist"),
    ("The Beatles", "artist"),
    ("Beatles", "artist"),
    ("Lana Del Rey", "artist"),
    ("Pink Floyd", "artist"),
    ("Whitney Houston", "artist"),
    ("When You Believe", "track"),
    ("When You Believe Mariah Carey", "track"),
    ("track:When You Believe", "track"),
)
_ROUNDS = 4


def protected_words() -> set[str]:
    return {
        w
        for q, _ in PROTECTED
        for w in parse_query(q)[0] + tuple(x for v in parse_query(q)[1].values() for x in words(v))
    }


def safe_title(seed: str) -> str:
    """A generated title none of whose words a protected search's word matches."""
    rng = rng_for("rename", seed)
    banned = protected_words()
    for _ in range(200):
        name = title(rng)
        if not any(word_match(q, w) for w in words(name) for q in banned):
            return name
    raise RuntimeError(f"no safe title for {seed}")


def offenders(data: CatalogueData) -> dict[str, Any]:
    """Generated items that outrank an authored match of a protected search, by id."""
    indexes = {kind: build_index(data, kind) for kind in {k for _, k in PROTECTED}}
    out: dict[str, Any] = {}
    for q, kind in PROTECTED:
        index = indexes[kind]
        free, filters = parse_query(q)
        ranked = index.rank(free, filters)
        floor = min((s for s, i in ranked if not index.rows[i].item.generated), default=None)
        if floor is None:
            continue
        for s, i in ranked:
            item = index.rows[i].item
            if item.generated and s > floor:
                out[item.id] = item
    return out


def protect(data: CatalogueData) -> CatalogueData:
    """Rename generated offenders until none is left (the authored items are those not generated)."""
    for _ in range(_ROUNDS):
        found = offenders(data)
        if not found:
            return data
        for item_id, item in found.items():
            item.name = safe_title(item_id)
    raise RuntimeError(f"padding: generated items still outrank authored ones: {sorted(offenders(data))[:5]}")
