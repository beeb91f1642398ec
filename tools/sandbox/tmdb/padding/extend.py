"""Credits, episodes, lists and filmographies of the padding (the part of ``generate`` that touches
authored entities: it only ever appends after their authored content, see ``generate``)."""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from random import Random
from typing import Any, Protocol

from restgraph.tools.sandbox.tmdb.models import Episode, FrozenLists, Movie, Person, TVShow
from restgraph.tools.sandbox.tmdb.padding import pools as p
from restgraph.tools.sandbox.tmdb.padding.entities import Maker, shift
from restgraph.tools.sandbox.tmdb.padding.world import World


class Padder(Protocol):
    """What the extender reads and fills of ``generate.Padder`` (which imports this module)."""

    facts: World
    rng: Random
    make: Maker
    frozen: str
    people: dict[int, Person]
    movies: dict[int, Movie]
    shows: dict[int, TVShow]


WRITERS = ("Writer", "Teleplay", "Story")


def _size(popularity: float, low: int, high: int, per: float) -> int:
    return max(low, min(high, int(low + popularity / per)))


class Extender:
    def __init__(self, padder: Padder, pool: list[int], fillers: list[Movie]):
        self.pad = padder
        self._by_date = sorted(fillers, key=lambda m: (m.release_date, m.id))
        self._dates = [m.release_date for m in self._by_date]
        self.rng = padder.rng
        self.make = padder.make
        people = padder.people
        self.actors = [i for i in pool if people[i].known_for_department == "Acting"]
        self.crew = [i for i in pool if people[i].known_for_department != "Acting"]
        self.directors = [i for i in pool if people[i].known_for_department == "Directing"] or self.crew

    # --- generated works ---------------------------------------------------------------------------------
    def _cast(self, n: int) -> list[tuple[int, str]]:
        out = []
        for pid in self.rng.sample(self.actors, n):
            role = self.rng.choice(p.ROLES) if self.rng.random() < 0.6 else self.make.name()[0]
            out.append((pid, role + (" (uncredited)" if self.rng.random() < 0.12 else "")))
        return out

    def _crew(self, n: int) -> list[tuple[int, str]]:
        return [(pid, self.rng.choice(p.CREW_JOBS)[0]) for pid in self.rng.sample(self.crew, n)]

    def filler_movie_credits(self, m: Movie) -> None:
        m.cast.extend(self._cast(self.rng.randint(5, 14)))
        m.crew.extend(
            [(self.rng.choice(self.directors), "Director"), (self.rng.choice(self.crew), "Screenplay")]
            + self._crew(self.rng.randint(2, 7))
        )

    def filler_show_credits(self, s: TVShow) -> None:
        if s.type == "Talk":
            s.cast.append((self.rng.choice(self.actors), "Self - Host"))
        s.cast.extend(self._cast(self.rng.randint(3, 9)))
        s.created_by.extend(self.rng.sample(self.crew, self.rng.randint(0, 2)))
        s.crew.extend(self._crew(self.rng.randint(1, 4)))

    def namesake_credits(self, pid: int) -> None:
        dept = self.pad.people[pid].known_for_department
        for m in self.rng.sample(self._movies_before(self.pad.frozen), self.rng.randint(1, 5)):
            (
                m.cast.append((pid, self.rng.choice(p.ROLES)))
                if dept == "Acting"
                else m.crew.append((pid, self.rng.choice(p.CREW_JOBS)[0]))
            )

    def _movies_before(self, when: str, after: str = "") -> list[Movie]:
        return self._by_date[bisect_left(self._dates, after) if after else 0 : bisect_left(self._dates, when)]

    # --- authored works: append only ---------------------------------------------------------------------
    def authored_movies(self, fillers: list[Movie]) -> None:
        for mid in sorted(self.pad.facts.movies):
            m = self.pad.facts.movies[mid]
            taken = {r.country for r in m.release_dates}
            countries = [
                c for c in self.rng.sample(p.COUNTRIES, _size(m.popularity, 14, 40, 4)) if c not in taken
            ]
            extra_similar = [x.id for x in self.rng.sample(fillers, 40)]
            self.pad.movies[mid] = m.model_copy(
                update={
                    "cast": m.cast + self._cast(_size(m.popularity, 12, 60, 4)),
                    "crew": m.crew + self._crew(_size(m.popularity, 14, 70, 4)),
                    "release_dates": m.release_dates
                    + self.make.release_dates(m.release_date, countries, self.pad.frozen),
                    "reviews": m.reviews
                    + [self.make.review(self.pad.frozen) for _ in range(_size(m.popularity, 3, 10, 25))],
                    "similar": m.similar
                    + [i for i in extra_similar[: 20 + self.rng.randint(0, 20)] if i not in m.similar],
                    "recommendations": m.recommendations
                    + [i for i in extra_similar[::-1][:20] if i not in m.recommendations],
                    "images": max(m.images, _size(m.popularity, 6, 40, 8)),
                }
            )

    def authored_shows(self, shows: list[TVShow]) -> None:
        for tid in sorted(self.pad.facts.shows):
            s = self.pad.facts.shows[tid]
            extra = [x.id for x in self.rng.sample(shows, 40)]
            self.pad.shows[tid] = s.model_copy(
                update={
                    "cast": s.cast + self._cast(_size(s.popularity, 10, 40, 8)),
                    "crew": s.crew + self._crew(_size(s.popularity, 8, 30, 10)),
                    "seasons": [self._season(s, season) for season in s.seasons],
                    "reviews": s.reviews
                    + [self.make.review(self.pad.frozen) for _ in range(_size(s.popularity, 2, 6, 60))],
                    "similar": s.similar
                    + [i for i in extra[: 20 + self.rng.randint(0, 20)] if i not in s.similar],
                    "recommendations": s.recommendations
                    + [i for i in extra[::-1][:20] if i not in s.recommendations],
                    "images": max(s.images, _size(s.popularity, 30, 110, 3)),
                }
            )

    def _season(self, s: TVShow, season: Any) -> Any:
        """Every episode of the season: the authored ones as they are plus guests and non-directing crew, the rest generated.
        Generated episodes are directed by the season's authored directors (in turn), so no one new directs a real season."""
        directors = [pid for pid, job in season.crew if job == "Director"]
        authored = {e.episode_number: e for e in season.episodes}
        episodes = []
        for n in range(1, season.episode_count + 1):
            if n in authored:
                e = authored[n]
                episodes.append(
                    e.model_copy(
                        update={
                            "guest_stars": e.guest_stars + self._cast(self.rng.randint(2, 6)),
                            "crew": e.crew + self._crew(self.rng.randint(2, 4)),
                            "images": max(e.images, 8),
                        }
                    )
                )
                continue
            air = shift(season.air_date, 7 * (n - 1))
            if air > self.pad.frozen:
                air = season.air_date
            director = directors[(n - 1) % len(directors)] if directors else self.rng.choice(self.directors)
            crew = [
                (director, "Director"),
                (self.rng.choice(self.crew), self.rng.choice(WRITERS)),
            ] + self._crew(self.rng.randint(1, 3))
            episodes.append(
                Episode.model_construct(
                    episode_number=n,
                    name=self.make.title(),
                    air_date=air,
                    overview=self.make.overview(1),
                    vote_average=round(self.rng.uniform(6.0, 9.0), 1),
                    vote_count=self.rng.randint(5, 400),
                    guest_stars=self._cast(self.rng.randint(1, 6)),
                    crew=crew,
                    images=self.rng.randint(2, 6),
                )
            )
        overview = season.overview or (
            f"{season.name or f'Season {season.season_number}'} of {s.name} premiered on {season.air_date} "
            f"and ran for {season.episode_count} episodes."
        )
        return season.model_copy(
            update={
                "episodes": episodes,
                "overview": overview,
                "images": max(season.images, _size(s.popularity, 6, 24, 20)),
            }
        )

    # --- filmographies of authored people ----------------------------------------------------------------
    def filmographies(self, fillers: list[Movie], shows: list[TVShow]) -> None:
        """Credits on filler works dated strictly before the person's latest *released* authored credit of that medium (so
        every "latest ..." and "latest released ..." answer stands), as cast or as non-directing, non-writing crew (so no
        directed count changes)."""
        latest: dict[int, dict[str, str]] = defaultdict(dict)
        facts = self.pad.facts
        for m in sorted(
            facts.movies.values(), key=lambda m: (m.release_date > self.pad.frozen, m.release_date)
        ):
            for pid, _ in (
                m.cast + m.crew
            ):  # released films sort first: a later unreleased one only counts for people with no released one
                latest[pid].setdefault("movie", m.release_date)
                if m.release_date <= self.pad.frozen:
                    latest[pid]["movie"] = max(latest[pid]["movie"], m.release_date)
        for s in facts.shows.values():
            pairs = (
                s.cast
                + s.crew
                + [
                    x
                    for se in s.seasons
                    for x in se.cast + se.crew + [y for e in se.episodes for y in e.guest_stars + e.crew]
                ]
            )
            for pid, _ in pairs + [(c, "") for c in s.created_by]:
                latest[pid]["tv"] = max(latest[pid].get("tv", ""), s.first_air_date)
        shows = sorted(shows, key=lambda s: (s.first_air_date, s.id))
        show_dates = [s.first_air_date for s in shows]
        for pid in sorted(facts.people):
            person = facts.people[pid]
            acting = person.known_for_department == "Acting"
            born = shift(person.birthday, 16 * 365) if person.birthday else "1950-01-01"
            before = latest[pid].get("movie", self.pad.frozen)
            choices = self._movies_before(before, born)
            for m in self.rng.sample(choices, min(len(choices), _size(person.popularity, 40, 110, 0.5))):
                if acting or self.rng.random() < 0.3:
                    m.cast.append((pid, "Self" if not acting else self.rng.choice(p.ROLES)))
                else:
                    m.crew.append((pid, self.rng.choice(p.PERSON_JOBS)))
            tv_before = latest[pid].get("tv", self.pad.frozen)
            tv_choices = shows[bisect_left(show_dates, born) : bisect_left(show_dates, tv_before)]
            for s in self.rng.sample(tv_choices, min(len(tv_choices), _size(person.popularity, 18, 45, 1))):
                s.cast.append(
                    (
                        pid,
                        "Self" if s.type in ("Talk", "Documentary", "Reality") else self.rng.choice(p.ROLES),
                    )
                )

    def biographies(self) -> None:
        """A TMDB-style biography for authored people who have none, written from their served credits (the real API's
        biographies run to a few thousand characters; the authored ones are mostly empty)."""
        works: dict[int, dict[tuple[str, int], tuple[float, str, str]]] = defaultdict(dict)
        for kind, table, when in (
            ("movie", self.pad.movies, "release_date"),
            ("tv", self.pad.shows, "first_air_date"),
        ):
            for item in table.values():
                for pid, _ in item.cast + item.crew:
                    works[pid][(kind, item.id)] = (
                        item.popularity,
                        str(getattr(item, "title", None) or getattr(item, "name", "")),
                        getattr(item, when)[:4],
                    )
        for pid in sorted(self.pad.facts.people):
            person = self.pad.facts.people[pid]
            if person.biography:
                continue
            ranked = sorted(works[pid].values(), key=lambda w: (-w[0], w[1]))
            if not ranked:
                continue
            films = sum(1 for kind, _ in works[pid] if kind == "movie")
            born = (
                f" (born {person.birthday}{' in ' + person.place_of_birth if person.place_of_birth else ''})"
                if person.birthday
                else ""
            )
            role = {"Acting": "an actor", "Directing": "a director", "Writing": "a writer"}.get(
                person.known_for_department, "a filmmaker"
            )
            listed = ", ".join(f"{title} ({year})" for _, title, year in ranked[:3])
            more = ", ".join(f"{title} ({year})" for _, title, year in ranked[3:45])
            bio = (
                f"{person.name}{born} is {role} with {films} film and {len(ranked) - films} television credits. Best known for {listed}."
                + (f" Other credits include {more}." if more else "")
            )
            self.pad.people[pid] = person.model_copy(update={"biography": bio})

    # --- lists --------------------------------------------------------------------------------------------
    def lists(
        self,
        fillers: list[Movie],
        current: list[Movie],
        upcoming: list[Movie],
        shows: list[TVShow],
        on_air: list[TVShow],
        pool: list[int],
    ) -> FrozenLists:
        """Authored entries stay the first page, in their order; later pages hold generated entries ranked below them."""
        old = self.pad.facts.lists
        people = self.pad.people

        def ranked(items: list[Any], key: str, n: int, below: float) -> list[int]:
            chosen = [
                x for x in items if getattr(x, key) < below and (key != "vote_average" or x.vote_count >= 150)
            ]
            return [x.id for x in sorted(chosen, key=lambda x: (-getattr(x, key), x.id))][:n]

        def low(ids: list[int], table: dict[int, Any], key: str) -> float:
            return min(getattr(table[i], key) for i in ids)

        movies, tv = self.pad.movies, self.pad.shows
        update: dict[str, list[int]] = {
            "movie_popular": ranked(fillers, "popularity", 180, low(old.movie_popular, movies, "popularity")),
            "movie_top_rated": ranked(
                fillers, "vote_average", 180, low(old.movie_top_rated, movies, "vote_average")
            ),
            "movie_now_playing": ranked(
                current, "popularity", 54, low(old.movie_now_playing, movies, "popularity")
            ),
            "movie_upcoming": ranked(upcoming, "popularity", 34, 1e9),
            "tv_popular": ranked(shows, "popularity", 180, low(old.tv_popular, tv, "popularity")),
            "tv_top_rated": ranked(shows, "vote_average", 120, low(old.tv_top_rated, tv, "vote_average")),
            "tv_on_the_air": ranked(on_air, "popularity", 56, low(old.tv_on_the_air, tv, "popularity")),
            "tv_airing_today": ranked(
                on_air[::2], "popularity", 26, low(old.tv_airing_today, tv, "popularity")
            ),
            "person_popular": [x for x in sorted(pool, key=lambda i: (-people[i].popularity, i))][:190],
        }
        for kind, items, key in (("movie", fillers, "popularity"), ("tv", shows, "popularity")):
            for window in ("day", "week"):
                name = f"trending_{kind}_{window}"
                update[name] = ranked(
                    items, key, 40, low(getattr(old, name), movies if kind == "movie" else tv, key)
                )
        for window in ("day", "week"):
            update[f"trending_person_{window}"] = [
                x for x in sorted(pool, key=lambda i: (-people[i].popularity, i))
            ][:40]
        note = old.note + (
            " Padding (generated, not facts): ids from 10,000,000 up are generated by tools/sandbox/tmdb/padding "
            "(seeded, deterministic); pages after the first of every list hold generated entries only."
        )
        return old.model_copy(
            update={
                k: getattr(old, k) + [i for i in v if i not in getattr(old, k)] for k, v in update.items()
            }
            | {"note": note}
        )
