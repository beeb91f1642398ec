"""How many results the real TMDB search would give a query: the rule that decides "a full page where
the real API would fill one" (the padding generates neighbours to it; ``bench/tmdb_realism.py`` prints it).

The sandbox cannot ask TMDB, so this is a stated *estimate*, not a measurement. Its inputs:
- the real search matches every query word (as a word or a word's prefix, ``search.py``), so what
  counts is how many names hold *all* the distinctive words of the query; stop words ("the", "of",
  ...) are in almost every title and narrow nothing;
- the spec's captured real responses (``tmdb_oas.json``, the only real totals available offline):
  person 'Bradley' 363, movie 'Avengers' 14, company 'Sony Pictures' 19, TV 'Game of Thrones' 1,
  collection 'The Fast and the Furious' 1 (the last two are RestBench queries themselves);
- the shape of the name the query finds (``found``: the normalised names of the *authored* entities
  the query finds): a **full name** ("Christopher Nolan") finds its person and a handful of namesakes
  and longer names; a **partial name** (fewer words than the name it finds: "Tony Leung" for "Tony
  Leung Chiu-wai", or one word such as "Coppola") names a whole family of people.

By kind (``n`` distinctive words):
- person: one word -> 363 (the 'Bradley' capture); a partial name -> 40 (given name + surname shared
  by a family of names: Tony Leung Chiu-wai, Tony Leung Ka-fai, Tony Leung Siu-Hung, ...); a full
  name -> 6 (the person, a few namesakes, middle names, Jr./Sr.: a rare full name really is rare);
- movie: one word -> 40 ('Titanic', 'Barbie': remakes, shorts, documentaries, foreign namesakes; the
  capture's 'Avengers' has 14), two -> 8, more -> 4 (a full distinctive title);
- tv: one word -> 12, more -> 3 (the capture's 'Game of Thrones' has 1: a TV title is seldom reused);
- collection: one word -> 6, more -> 3 (a franchise's collection, its spin-off, animated and box-set
  collections; the capture's 'The Fast and the Furious' has 1);
- company: one word -> 40, more -> 19 (the capture's 'Sony Pictures': a name and its regional,
  television and home-entertainment arms).
A query "fills a page" when the estimate is at least 20. Over-filling is reported, not hidden:
``bench/tmdb_realism.py`` prints the sandbox's total beside the estimate.
"""

from __future__ import annotations

from dataclasses import dataclass

from restgraph.tools.sandbox.tmdb.search import query_words

PAGE = 20
STOP_WORDS = frozenset(
    ["a", "an", "and", "as", "at", "by", "for", "from", "in", "of", "on", "or", "the", "to", "with"]
)
_FULL = {"person": 6, "movie": 8, "tv": 3, "collection": 3, "company": 19}
_ONE_WORD = {"person": 363, "movie": 40, "tv": 12, "collection": 6, "company": 40}


@dataclass(frozen=True)
class Estimate:
    total: int
    reason: str

    @property
    def fills_page(self) -> bool:
        return self.total >= PAGE


def distinctive(query: str) -> list[str]:
    """The query words that narrow a search (stop words excluded; a query of stop words only keeps them)."""
    words = query_words(query)
    return [w for w in words if w not in STOP_WORDS] or words


def is_partial(query: str, found: list[str]) -> bool:
    """Does the query name fewer words than every authored name it finds (none of them is exactly the query)?"""
    words = query_words(query)
    return (
        bool(found) and all(len(name.split()) > len(words) for name in found) and " ".join(words) not in found
    )


def estimate(kind: str, query: str, found: list[str]) -> Estimate:
    """The real API's ``total_results`` for ``query`` on ``/search/{kind}``, by the rule of this module's docstring."""
    n = len(distinctive(query))
    if kind == "person":
        if n == 1:
            return Estimate(
                _ONE_WORD[kind],
                "one name word: everyone with that given name or surname (spec capture 'Bradley': 363)",
            )
        if is_partial(query, found):
            return Estimate(40, "part of a longer name: the whole family of names sharing it")
        return Estimate(
            _FULL[kind], "a full name: the person, a few namesakes and longer names holding every word"
        )
    if n == 1:
        return Estimate(_ONE_WORD[kind], f"one distinctive word: its namesakes across the {kind} catalogue")
    if kind == "movie" and n == 2:
        return Estimate(
            _FULL[kind], "a two-word title: sequels, remakes and documentaries holding both words"
        )
    total = 4 if kind == "movie" else _FULL[kind]
    captured = {
        "tv": "'Game of Thrones': 1",
        "collection": "'The Fast and the Furious': 1",
        "company": "'Sony Pictures': 19",
    }.get(kind)
    return Estimate(
        total,
        f"a full distinctive name: few {kind} names hold all of its words"
        + (f" (spec capture {captured})" if captured else ""),
    )
