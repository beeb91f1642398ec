"""Pads the authored TMDB world to the real API's scale, deterministically (one seeded RNG, fixed order).

What is added (all of it generated, ids from ``entities.GENERATED_FROM`` up):
- a pool of ~2,600 people and ~1,700 films and ~330 shows ("filler") that fill credits, filmographies,
  similar/recommendation pages and the paged lists;
- namesakes: for every authored film, show, person and company, entities whose names contain its
  name (remakes, sequels, documentaries, TV/film namesakes, same-name people), so searches return
  full pages of plausible neighbours; then (``families``, ``franchises``, own RNG stream) people who
  share a name, a partial name or one name word with an authored person, more arms of authored
  companies, and spin-off collections of every authored collection, as many as ``realtotals``
  estimates the real search finds;
- on authored entities, *appended* material only: supporting cast and non-directing, non-writing
  crew after the authored credits, release dates for more countries, more reviews and images,
  every episode of every season (the authored episodes kept as they are), longer
  similar/recommendation lists after the authored ones;
- filmographies of authored people: credits on filler works dated before the person's latest
  authored credit, never as Director or writer;
- list pages after the authored first page, ordered by the list's own measure and strictly below
  the authored entries.

Why that keeps every fact a query depends on: see the sandbox README ("Padding and facts");
``tests/restbench_tmdb/test_padding.py`` checks it mechanically.
"""

from __future__ import annotations

import math
import random

from restgraph.tools.sandbox.tmdb.derive import normalise
from restgraph.tools.sandbox.tmdb.models import (
    Company,
    Movie,
    Person,
    TVShow,
)
from restgraph.tools.sandbox.tmdb.padding import arms, franchises
from restgraph.tools.sandbox.tmdb.padding.authored import AuthoredNames
from restgraph.tools.sandbox.tmdb.padding.entities import Maker, shift
from restgraph.tools.sandbox.tmdb.padding.extend import Extender
from restgraph.tools.sandbox.tmdb.padding.families import Families
from restgraph.tools.sandbox.tmdb.padding.pools import SURNAMES
from restgraph.tools.sandbox.tmdb.padding.world import World
from restgraph.tools.sandbox.tmdb.search import query_words

SEED = 20230724
N_PEOPLE, N_MOVIES, N_SHOWS = 2600, 1500, 260
MOVIE_PATTERNS = (
    ("{t}", None),
    ("{t}", "Documentary"),
    ("{t}", "TV Movie"),
    ("{t} II", None),
    ("{t} 2", None),
    ("{t} 3", None),
    ("Return to {t}", None),
    ("{t}: The Return", None),
    ("The Making of {t}", "Documentary"),
    ("{t}: Behind the Scenes", "Documentary"),
    ("{t}: The Untold Story", "Documentary"),
    ("Beyond {t}", None),
    ("{t} Reborn", None),
    ("{t} Live", "Music"),
    ("{t}: Origins", None),
    ("Inside {t}", "Documentary"),
    ("{t} Revisited", "Documentary"),
    ("{t} Legacy", None),
    ("{t}: Extended Edition", None),
    ("{t}: The Musical", "Music"),
    ("Raising {t}", "Documentary"),
    ("{t} Unmasked", "Documentary"),
    ("{t} Redux", None),
    ("{t}: Resurrection", None),
    ("{t}: A Parody", "Comedy"),
    ("Searching for {t}", "Documentary"),
    ("{t} Reunion", "Documentary"),
    ("{t}: The Lost Tapes", "Documentary"),
    ("{t} in Concert", "Music"),
    ("Secrets of {t}", "Documentary"),
)
SHOW_PATTERNS = (
    ("{t}", None),
    ("{t}", "Documentary"),
    ("{t}: The Animated Series", "Animation"),
    ("Inside {t}", "Documentary"),
    ("{t} Uncovered", "Documentary"),
    ("{t}: The Reunion", "Talk"),
    ("{t} After Show", "Talk"),
    ("{t} Kids", "Kids"),
    ("{t}: Origins", None),
    ("{t}: Behind the Scenes", "Documentary"),
    ("{t} Revisited", "Documentary"),
    ("{t}: The Next Chapter", None),
    ("{t} Unscripted", "Reality"),
    ("Talking {t}", "Talk"),
    ("My {t}", None),
    ("The New {t}", None),
    ("{t} Forever", None),
    ("Young {t}", None),
    ("{t} Abroad", "Reality"),
    ("{t}: Next Generation", None),
    ("{t} Classics", "Documentary"),
    ("{t} Rewind", "Documentary"),
    ("{t} Reloaded", None),
    ("{t} Specials", None),
)
COMPANY_PATTERNS = (
    "{t} Television",
    "{t} Home Entertainment",
    "{t} International",
    "{t} Japan",
    "{t} Records",
    "{t} Animation Studio",
    "{t} Studios UK",
    "{t} Family Entertainment",
    "{t} Germany",
)
PERSON_PATTERNS = ("{f} {l}", "{f} {i}. {l}", "{f} {l} Jr.", "{f} {l}", "{f} {l}-{s}", "{f} {l} III")


def _count(popularity: float, low: int, high: int, scale: float = 2.5) -> int:
    return max(low, min(high, int(low + math.log2(1 + popularity) * scale)))


class Padder:
    def __init__(self, facts: World):
        self.facts = facts
        self.rng = random.Random(SEED)
        self.make = Maker(self.rng)
        self.frozen = facts.lists.frozen_at
        self.floor = min(facts.movies[i].vote_average for i in facts.lists.movie_top_rated)
        self.tv_floor = min(facts.shows[i].vote_average for i in facts.lists.tv_top_rated)
        self.cap = {
            "movie": min(m.popularity for m in facts.movies.values()),
            "show": min(s.popularity for s in facts.shows.values()),
            "person": min(x.popularity for x in facts.people.values()),
        }
        self.people = dict(facts.people)
        self.movies = dict(facts.movies)
        self.shows = dict(facts.shows)
        self.companies = dict(facts.companies)

    def run(self) -> World:
        pool = [self._add_person(self.make.person(self.cap["person"])) for _ in range(N_PEOPLE)]
        fillers = [
            self._add_movie(self.make.movie(self.cap["movie"], self.floor, self.frozen))
            for _ in range(N_MOVIES)
        ]
        current = [
            self._add_movie(
                self.make.movie(
                    self.cap["movie"],
                    self.floor,
                    self.frozen,
                    released=(shift(self.frozen, -60), self.frozen),
                )
            )
            for _ in range(60)
        ]
        upcoming = [
            self._add_movie(
                self.make.movie(
                    self.cap["movie"],
                    self.floor,
                    self.frozen,
                    released=(shift(self.frozen, 1), shift(self.frozen, 90)),
                )
            )
            for _ in range(40)
        ]
        shows = [
            self._add_show(
                self.make.show(
                    self.cap["show"],
                    self.tv_floor,
                    self.frozen,
                    kind=self.rng.choice((None, None, "Talk", "Documentary", "Reality")),
                )
            )
            for _ in range(N_SHOWS)
        ]
        on_air = [
            self._add_show(
                self.make.show(
                    self.cap["show"], self.tv_floor, self.frozen, first_aired=("2015-01-01", ""), current=True
                )
            )
            for _ in range(60)
        ]
        ext = Extender(self, pool, fillers)
        for m in fillers + current + upcoming:
            ext.filler_movie_credits(m)
        for s in shows + on_air:
            ext.filler_show_credits(s)
        self._namesakes(ext)
        ext.authored_movies(fillers)
        ext.authored_shows(shows)
        ext.filmographies(fillers, shows)
        ext.biographies()
        lists = ext.lists(fillers, current, upcoming, shows, on_air, pool)
        rng = random.Random(f"{SEED}:neighbours")  # its own stream: the padding above stays as it was
        maker = Maker(rng)
        maker.next_id = self.make.next_id
        Families(self.people, self.facts.people, maker, rng, fillers).run()
        arms.top_up(self.companies, self.facts.companies, maker, rng)
        collections = dict(self.facts.collections) | franchises.generate(
            self.facts.collections, self.movies, set(self.facts.movies), rng
        )
        return World(
            self.people,
            self.movies,
            self.shows,
            self.companies,
            dict(self.facts.networks),
            collections,
            lists,
        )

    # --- registration -------------------------------------------------------------------------------------
    def _add_person(self, p: Person) -> int:
        self.people[p.id] = p
        return p.id

    def _add_movie(self, m: Movie) -> Movie:
        self.movies[m.id] = m
        return m

    def _add_show(self, s: TVShow) -> TVShow:
        self.shows[s.id] = s
        return s

    # --- namesakes ----------------------------------------------------------------------------------------
    def _cap_for(self, name: str, authored: list[tuple[list[str], float]], own: float) -> float:
        """Below the seed, and below every authored entity whose name, searched for, would also find this one
        (``search.name_matches``, evaluated through the set of every prefix of the name's words)."""
        prefixes = _prefixes(name)
        caps = [own] + [pop for words, pop in authored if words and all(w in prefixes for w in words)]
        return min(caps) * 0.9

    @staticmethod
    def _shadows(name: str, authored: list[tuple[set[str], str]]) -> bool:
        """Would searching exactly this name rank a generated entity (an exact match) above an authored one the same search
        finds (a partial match)? ``authored``: (every prefix of the name's words, normalised name) per authored entity."""
        words = query_words(name)
        exact = " ".join(words)
        found = [norm for prefixes, norm in authored if words and all(w in prefixes for w in words)]
        return bool(found) and exact not in found

    def _namesakes(self, ext: Extender) -> None:
        movies = [(query_words(m.title), m.popularity) for m in self.facts.movies.values()]
        shows = [(query_words(s.name), s.popularity) for s in self.facts.shows.values()]
        people = AuthoredNames(
            (n, x.popularity) for x in self.facts.people.values() for n in [x.name, *x.also_known_as]
        )
        found = {
            kind: [(_prefixes(n), normalise(n)) for n in names]
            for kind, names in (
                ("movie", [m.title for m in self.facts.movies.values()]),
                ("show", [s.name for s in self.facts.shows.values()]),
                ("person", [x.name for x in self.facts.people.values()]),
            )
        }
        for m in sorted(self.facts.movies.values(), key=lambda m: m.id):
            for form, genre in self.rng.sample(MOVIE_PATTERNS, _count(m.popularity, 8, 28, 2.5)):
                title = _embed(form, m.title)
                if self._shadows(title, found["movie"]):
                    continue
                new = self._add_movie(
                    self.make.movie(
                        self._cap_for(title, movies, m.popularity),
                        self.floor,
                        self.frozen,
                        title=title,
                        genres=[genre] if genre else None,
                    )
                )
                ext.filler_movie_credits(new)
            if m.popularity > 20 and not self._shadows(
                m.title, found["show"]
            ):  # a TV namesake of a well-known film
                ext.filler_show_credits(
                    self._add_show(
                        self.make.show(
                            self._cap_for(m.title, shows, self.cap["show"] * 1.1),
                            self.tv_floor,
                            self.frozen,
                            name=m.title,
                        )
                    )
                )
        for s in sorted(self.facts.shows.values(), key=lambda s: s.id):
            for form, kind in self.rng.sample(SHOW_PATTERNS, _count(s.popularity, 6, 23, 2.0)):
                name = _embed(form, s.name)
                if self._shadows(name, found["show"]):
                    continue
                ext.filler_show_credits(
                    self._add_show(
                        self.make.show(
                            self._cap_for(name, shows, s.popularity),
                            self.tv_floor,
                            self.frozen,
                            name=name,
                            kind=kind,
                        )
                    )
                )
            if s.popularity > 20 and not self._shadows(
                s.name, found["movie"]
            ):  # a film namesake of a well-known show
                ext.filler_movie_credits(
                    self._add_movie(
                        self.make.movie(
                            self._cap_for(s.name, movies, self.cap["movie"] * 1.1),
                            self.floor,
                            self.frozen,
                            title=s.name,
                        )
                    )
                )
        for x in sorted(self.facts.people.values(), key=lambda x: x.id):
            first, _, last = x.name.partition(" ")
            if not last:
                continue
            for form in [
                PERSON_PATTERNS[0],
                *self.rng.sample(PERSON_PATTERNS[1:], self.rng.randint(0, len(PERSON_PATTERNS) - 1)),
            ]:  # one same-name person at least
                name = form.format(
                    f=first, l=last, i=self.rng.choice("ABCDEFGHJKLMNPRSTW"), s=self.rng.choice(SURNAMES)
                )
                if self._shadows(name, found["person"]):
                    continue
                pid = self._add_person(
                    self.make.person(people.cap(name, x.popularity), name=name, gender=x.gender)
                )
                ext.namesake_credits(pid)
        for c in sorted(self.facts.companies.values(), key=lambda c: c.id):
            for form in self.rng.sample(COMPANY_PATTERNS, self.rng.randint(2, 6)):
                cid = self.make.company_id()
                self.companies[cid] = Company.model_construct(
                    id=cid,
                    name=form.format(t=c.name),
                    headquarters=c.headquarters,
                    homepage="",
                    origin_country=c.origin_country,
                    parent=c.id,
                    description="",
                )


def _prefixes(name: str) -> set[str]:
    return {part[:k] for part in normalise(name).split() for k in range(1, len(part) + 1)}


def _embed(form: str, title: str) -> str:
    """``Inside {t}`` + "The Witcher" -> "Inside the Witcher" (a leading article is not capitalised mid-title)."""
    if not form.startswith("{t}") and title.startswith("The "):
        title = "the " + title[4:]
    return form.format(t=title)


def pad(facts: World) -> World:
    return Padder(facts).run()
