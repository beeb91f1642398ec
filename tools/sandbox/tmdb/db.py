"""The TMDB fixture database: loads and validates ``fixtures/*.json``, pads it to scale, and indexes it.

Loaded once per process (``get_db``); read-only, so one instance serves every episode. Person
credits are not authored: they are the reverse index of the movie/TV credits, so a person's
filmography and a film's cast can never disagree.
"""

from __future__ import annotations

import gc
import json
from collections import defaultdict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

from restgraph.tools.derived_cache import collector_paused
from restgraph.tools.sandbox.tmdb.models import (
    Collection,
    Company,
    FrozenLists,
    Movie,
    MovieFile,
    Network,
    Orgs,
    PeopleFile,
    Person,
    TVFile,
    TVShow,
)
from restgraph.tools.sandbox.tmdb.padding.cache import padded_world
from restgraph.tools.sandbox.tmdb.padding.generate import World

FIXTURES = Path(__file__).with_name("fixtures")


@dataclass(frozen=True)
class Credit:
    """One person's credit on a movie or show (``job`` None for cast)."""

    media_type: str  # "movie" | "tv"
    media_id: int
    character: str | None = None
    job: str | None = None
    episode_count: int = 0


class PersonCredits(Mapping[int, list[Credit]]):
    """person id -> that person's credits, read-only. The reverse index is kept as plain tuples (40 ms
    to build) and a person's ``Credit`` objects are made when first asked for: making all ~150,000 up
    front took 0.17 s of a run's start-up, and an episode looks at a few people. As the defaultdict
    it replaces, a person without credits has an empty list."""

    def __init__(self, rows: dict[int, list[tuple[str, int, str | None, str | None, int]]]):
        self._rows = rows
        self._made: dict[int, list[Credit]] = {}

    def __getitem__(self, person_id: int) -> list[Credit]:
        made = self._made.get(person_id)
        if made is None:
            made = self._made[person_id] = [Credit(*row) for row in self._rows.get(person_id, ())]
        return made

    def get(self, person_id: int, default: Any = None) -> Any:
        return self[person_id] if person_id in self._rows else default

    def __contains__(self, person_id: object) -> bool:
        return person_id in self._rows

    def __iter__(self) -> Iterator[int]:
        return iter(self._rows)

    def __len__(self) -> int:
        return len(self._rows)


class FixtureError(ValueError):
    """The fixture files are inconsistent (an id referenced but not defined, a duplicate id)."""


class FixtureDB:
    """``padded`` (the default, what the sandbox serves) adds the generated padding of ``padding.generate``
    to the authored facts; ``padded=False`` is the authored world alone (the facts the padding must keep)."""

    def __init__(self, root: Path = FIXTURES, padded: bool = True):
        def load(name: str, model):  # noqa: ANN001 - a pydantic model class
            return model.model_validate(json.loads((root / name).read_text(encoding="utf-8")))

        orgs = load("orgs.json", Orgs)
        world = World(
            people=_index(load("people.json", PeopleFile).people, "person"),
            movies=_index(load("movies.json", MovieFile).movies, "movie"),
            shows=_index(load("tv.json", TVFile).shows, "tv"),
            companies=_index(orgs.companies, "company"),
            networks=_index(orgs.networks, "network"),
            collections=_index(orgs.collections, "collection"),
            lists=load("lists.json", FrozenLists),
        )
        self.padded = padded
        self._use(world)
        self._check_references()  # the authored files; the padding references only ids it made or authored ones
        if padded:
            self._use(padded_world(world, root))

    def _use(self, world: World) -> None:
        self.people: dict[int, Person] = world.people
        self.movies: dict[int, Movie] = world.movies
        self.shows: dict[int, TVShow] = world.shows
        self.companies: dict[int, Company] = world.companies
        self.networks: dict[int, Network] = world.networks
        self.collections: dict[int, Collection] = world.collections
        self.lists: FrozenLists = world.lists

    @cached_property
    def credits(self) -> PersonCredits:
        """Each person's movie and TV credits, built on first use: a run whose episodes never ask for a
        person's credits never needs them (bench/restgpt_episode_cost.py). Built with the collector
        paused and then frozen (``collector_paused``): the ~150,000 long-lived rows set off
        collections that walked the whole world for nothing (bench/startup_time.py)."""
        with collector_paused():
            return PersonCredits(self._person_credit_rows())

    def _person_credit_rows(self) -> dict[int, list[tuple[str, int, str | None, str | None, int]]]:
        credits: dict[int, list[tuple[str, int, str | None, str | None, int]]] = defaultdict(list)
        for movie in self.movies.values():
            for pid, character in movie.cast:
                credits[pid].append(("movie", movie.id, character, None, 0))
            for pid, job in movie.crew:
                credits[pid].append(("movie", movie.id, None, job, 0))
        for show in self.shows.values():
            total = self.episode_total(show)
            for pid, character in show.cast:
                credits[pid].append(("tv", show.id, character, None, total))
            seen = {(pid, job) for pid, job in show.crew}
            for pid, job in show.crew:
                credits[pid].append(("tv", show.id, None, job, total))
            for season in show.seasons:  # episode-level crew (directors) shows up as TV crew credits too
                for episode in season.episodes:
                    for pid, job in episode.crew:
                        if (pid, job) not in seen:
                            seen.add((pid, job))
                            credits[pid].append(("tv", show.id, None, job, 1))
                for pid, job in season.crew:
                    if (pid, job) not in seen:
                        seen.add((pid, job))
                        credits[pid].append(("tv", show.id, None, job, 1))
        return dict(credits)

    def _check_references(self) -> None:
        missing: list[str] = []

        def need(table: dict, key: int | None, where: str) -> None:
            if key is not None and key not in table:
                missing.append(f"{where} -> {key}")

        for m in self.movies.values():
            for pid, _ in m.cast + m.crew:
                need(self.people, pid, f"movie {m.id} credits")
            for mid in m.similar + m.recommendations:
                need(self.movies, mid, f"movie {m.id} similar/recommendations")
            for cid in m.companies:
                need(self.companies, cid, f"movie {m.id} companies")
            need(self.collections, m.collection, f"movie {m.id} collection")
        for s in self.shows.values():
            pairs = s.cast + s.crew + [p for season in s.seasons for p in season.cast + season.crew]
            pairs += [p for season in s.seasons for e in season.episodes for p in e.guest_stars + e.crew]
            for pid, _ in pairs:
                need(self.people, pid, f"tv {s.id} credits")
            for pid in s.created_by:
                need(self.people, pid, f"tv {s.id} created_by")
            for tid in s.similar + s.recommendations:
                need(self.shows, tid, f"tv {s.id} similar/recommendations")
            for nid in s.networks:
                need(self.networks, nid, f"tv {s.id} networks")
            for cid in s.companies:
                need(self.companies, cid, f"tv {s.id} companies")
        for collection in self.collections.values():
            for mid in collection.parts:
                need(self.movies, mid, f"collection {collection.id} parts")
        for company in self.companies.values():
            need(self.companies, company.parent, f"company {company.id} parent")
        lists = self.lists
        for name in (
            "movie_popular",
            "movie_top_rated",
            "movie_now_playing",
            "movie_upcoming",
            "trending_movie_day",
            "trending_movie_week",
        ):
            for mid in getattr(lists, name):
                need(self.movies, mid, f"lists.{name}")
        need(self.movies, lists.movie_latest, "lists.movie_latest")
        for name in (
            "tv_popular",
            "tv_top_rated",
            "tv_on_the_air",
            "tv_airing_today",
            "trending_tv_day",
            "trending_tv_week",
        ):
            for tid in getattr(lists, name):
                need(self.shows, tid, f"lists.{name}")
        need(self.shows, lists.tv_latest, "lists.tv_latest")
        for name in ("person_popular", "trending_person_day", "trending_person_week"):
            for pid in getattr(lists, name):
                need(self.people, pid, f"lists.{name}")
        if missing:
            raise FixtureError("undefined ids in the TMDB fixture: " + "; ".join(missing[:20]))

    # --- helpers used by the views and the answer key -------------------------------------------
    @staticmethod
    def episode_total(show: TVShow) -> int:
        if show.number_of_episodes is not None:
            return show.number_of_episodes
        return sum(s.episode_count for s in show.seasons if s.season_number > 0)

    def season(self, show: TVShow, number: int):
        return next((s for s in show.seasons if s.season_number == number), None)

    def collection_of(self, movie_id: int) -> Collection | None:
        return next((c for c in self.collections.values() if movie_id in c.parts), None)

    def directed(self, person_id: int, media_type: str = "movie") -> list[int]:
        """Distinct media ids a person is credited as Director on, in credit order."""
        out: list[int] = []
        for c in self.credits.get(person_id, []):
            if c.media_type == media_type and c.job == "Director" and c.media_id not in out:
                out.append(c.media_id)
        return out


def _index(items: list, kind: str) -> dict:
    table: dict = {}
    for item in items:
        if item.id in table:
            raise FixtureError(f"duplicate {kind} id {item.id}")
        table[item.id] = item
    return table


@lru_cache(maxsize=1)
def get_db() -> FixtureDB:
    """The world the sandbox serves: authored facts plus generated padding (built once per process).

    Its ~10^6 objects live as long as the process: they go to the collector's permanent generation
    (``gc.freeze``, as the Spotify catalogue does) so that no later full collection walks them."""
    db = FixtureDB()
    gc.freeze()
    return db


@lru_cache(maxsize=1)
def get_facts_db() -> FixtureDB:
    """The authored facts alone (what the padding must leave intact; see tests/restbench_tmdb/test_padding.py)."""
    return FixtureDB(padded=False)
