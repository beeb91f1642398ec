"""People who share an authored person's name, as TMDB's people table has them (~3.5M people, most of
them crew and extras): what a person search finds besides the person it is after.

Three kinds, each sized by the estimate of ``realtotals`` for the query that finds them:
- **full-name namesakes** ("Christopher Nolan" finds Christopher Nolan, Christopher J. Nolan,
  Christopher Nolan Hale): topped up to a handful for a full-name search (a rare full name is rare);
- **name families** for a partial name, the authored name less a middle name or initial, or less a
  trailing suffix or hyphenated given name ("Tony Leung" finds Tony Leung Chiu-wai, Tony Leung Ka-fai,
  Tony Leung Siu-hung, ...; "Francis Coppola" finds Francis Ford Coppola, Francis X. Coppola, ...):
  more than a page;
- **sharers** of one name word (a given name or a surname alone: "Coppola" finds Sofia, Francis Ford,
  Gia Coppola, ...): more than a page.

Every one of them is generated (ids from ``entities.PERSON_BASE`` up), capped below its seed and below
every authored person it would be found with, and never an exact match that would outrank an authored
partial match (``authored.AuthoredNames``); so every search that found an authored person first still
does. Their few credits are on generated films only. A separate seeded RNG keeps the rest of the
padding as it was.
"""

from __future__ import annotations

import random

from restgraph.tools.sandbox.tmdb.derive import normalise
from restgraph.tools.sandbox.tmdb.models import Movie, Person
from restgraph.tools.sandbox.tmdb.padding import pools as p
from restgraph.tools.sandbox.tmdb.padding.authored import AuthoredNames
from restgraph.tools.sandbox.tmdb.padding.entities import Maker
from restgraph.tools.sandbox.tmdb.realtotals import PAGE, estimate
from restgraph.tools.sandbox.tmdb.search import SearchIndex, query_words

PARTICLES = frozenset(
    ["de", "del", "della", "der", "di", "da", "du", "la", "le", "van", "von", "bin", "al", "el", "st"]
)
SUFFIXES = ("Jr.", "Sr.", "II", "III")
#: syllables of the hyphenated given names of Cantonese and Korean names ("Chiu-wai", "Ka-fai")
SYLLABLES = p._list(
    "Ka Fai Siu Hung Wah Wing Chung Kin Man Ho Yin Kwok Wai Chi Ming Lok Tak Yiu Kwan Sze Hoi Pui Shing Kit Tung Lam Yee Fung"
)


def _is_suffix(word: str) -> bool:
    return word in SUFFIXES


def _hyphen_given(word: str) -> bool:
    return "-" in word and word[0].isupper() and word.split("-", 1)[1][:1].islower()


def _is_middle(word: str) -> bool:
    """A middle name or initial ("Ford", "L."), not a particle ("De") or suffix."""
    return word[:1].isupper() and word.lower() not in PARTICLES and not _is_suffix(word)


class Families:
    def __init__(
        self,
        people: dict[int, Person],
        authored: dict[int, Person],
        maker: Maker,
        rng: random.Random,
        films: list[Movie],
    ):
        self.people, self.authored, self.make, self.rng, self.films = people, authored, maker, rng, films
        self.names = AuthoredNames(
            (n, x.popularity) for x in authored.values() for n in [x.name, *x.also_known_as]
        )

    def run(self) -> None:
        ordered = sorted(self.authored.values(), key=lambda x: x.id)
        index = SearchIndex(
            self.people.values(), lambda x: [x.name, *x.also_known_as], lambda x: (-x.popularity, x.id)
        )
        for x in ordered:
            self._namesakes(x, len(index.search(x.name)))
        queries: set[str] = set()
        for x in ordered:
            for query, form in self._partials(x.name):
                if query not in queries:
                    queries.add(query)
                    self._family(x, query, form)
        shared: set[tuple[str, str]] = set()
        for position in ("given", "surname"):
            for x in ordered:
                words = x.name.split()
                word = words[0] if position == "given" else words[-1]
                if (
                    len(words) < 2
                    or not word[:1].isupper()
                    or _is_suffix(word)
                    or word.lower() in PARTICLES
                    or (position, word) in shared
                ):
                    continue
                shared.add((position, word))
                self._sharers(word, position)

    # --- the three kinds -------------------------------------------------------------------------------
    def _namesakes(self, x: Person, have: int) -> None:
        words = x.name.split()
        if len(words) < 2:
            return
        expected = estimate("person", x.name, [normalise(x.name)]).total
        want = self.rng.randint(expected - 2, expected + 2)
        first, rest = words[0], " ".join(words[1:])
        for _ in range(max(0, want - have)):
            form = self.rng.randrange(5)
            if form >= 3 and (_is_suffix(words[-1]) or _hyphen_given(words[-1])):
                form = 0
            name = (
                x.name,
                f"{first} {self._initial()}. {rest}",
                f"{first} {self._given(x.gender)} {rest}",
                f"{x.name} {self.rng.choice(('Jr.', 'Sr.'))}",
                f"{x.name}-{self.rng.choice(p.SURNAMES)}",
            )[form]
            self._add(name, x.popularity, x.gender, x.known_for_department)

    def _partials(self, name: str) -> list[tuple[str, str]]:
        """(partial query, name form with ``{x}`` for the varying part) for the partial names of an authored name of 3+ words."""
        words = name.split()
        if len(words) < 3:
            return []
        out = []
        if _hyphen_given(words[-1]) or _is_suffix(words[-1]):
            out.append((" ".join(words[:-1]), " ".join(words[:-1]) + " {x}"))
        elif all(_is_middle(w) for w in words[1:-1]):
            out.append((f"{words[0]} {words[-1]}", f"{words[0]} {{x}} {words[-1]}"))
        return out

    def _family(self, x: Person, query: str, form: str) -> None:
        """Names holding every word of the partial ``query``: a varied hyphenated given name, suffix or middle name."""
        hyphen = _hyphen_given(x.name.split()[-1])
        first, rest = query.split(" ", 1)
        for _ in range(
            self.rng.randint(PAGE + 5, max(PAGE + 5, estimate("person", query, [normalise(x.name)]).total))
        ):
            if hyphen:
                name = form.format(x=f"{self.rng.choice(SYLLABLES)}-{self.rng.choice(SYLLABLES).lower()}")
            elif form.endswith("{x}") and self.rng.random() < 0.2:
                name = form.format(x=self.rng.choice(SUFFIXES))
            elif form.endswith("{x}") and self.rng.random() < 0.3:
                name = f"{query}-{self.rng.choice(p.SURNAMES)}"
            else:
                name = f"{first} {self._given(x.gender) if self.rng.random() < 0.6 else self._initial() + '.'} {rest}"
            self._add(name, x.popularity, x.gender, None)

    def _sharers(self, word: str, position: str) -> None:
        words = query_words(word)
        floor = min(
            x.popularity for x in self.authored.values() if all(w in query_words(x.name) for w in words)
        )
        for _ in range(self.rng.randint(PAGE + 2, PAGE + 14)):
            gender = self.rng.choice((1, 2))
            name = (
                f"{word} {self.rng.choice(p.SURNAMES)}"
                if position == "given"
                else f"{self._given(gender)} {word}"
            )
            self._add(name, floor, gender if position == "surname" else None, None)

    # --- helpers ---------------------------------------------------------------------------------------
    def _given(self, gender: int | None = None) -> str:
        return self.rng.choice(p.FIRST_F if (gender or self.rng.choice((1, 2))) == 1 else p.FIRST_M)

    def _initial(self) -> str:
        return self.rng.choice("ABCDEFGHJKLMNPRSTW")

    def _add(self, name: str, seed_popularity: float, gender: int | None, dept: str | None) -> None:
        if self.names.shadows(name):
            return
        person = self.make.person(self.names.cap(name, seed_popularity), name=name, gender=gender, dept=dept)
        self.people[person.id] = person
        for film in self.rng.sample(self.films, self.rng.randint(1, 3)):
            if person.known_for_department == "Acting":
                film.cast.append((person.id, self.rng.choice(p.ROLES)))
            else:
                film.crew.append((person.id, self.rng.choice(p.CREW_JOBS)[0]))
