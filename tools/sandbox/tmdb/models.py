"""Pydantic models of the TMDB sandbox's fixture files (``fixtures/*.json``).

The files are written by hand in a compact form: credits are ``[person_id, character_or_job]``
pairs, genres and keywords are names, and images, credit ids and review ids are derived
deterministically (``derive.py``), so the authored files hold only facts. Loading validates every
file; ``FixtureDB`` then cross-checks that every id referenced anywhere exists.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=False)


class Review(_Strict):
    author: str
    content: str
    created_at: str = "2023-07-01T00:00:00.000Z"


class ReleaseDate(_Strict):
    country: str  # ISO 3166-1
    date: str  # YYYY-MM-DD
    type: int = 3  # 1 premiere, 2 limited, 3 theatrical, 4 digital, 5 physical, 6 TV
    certification: str = ""
    note: str = ""


class Person(_Strict):
    id: int
    name: str
    gender: int = 0  # TMDB: 0 unknown, 1 female, 2 male
    birthday: str | None = None
    deathday: str | None = None
    place_of_birth: str | None = None
    known_for_department: str = "Acting"
    popularity: float = 5.0
    also_known_as: list[str] = Field(default_factory=list)
    biography: str = ""
    imdb_id: str = ""
    homepage: str | None = None
    images: int = 2


class Movie(_Strict):
    id: int
    title: str
    original_title: str | None = None
    original_language: str = "en"
    release_date: str
    overview: str = ""
    genres: list[str] = Field(default_factory=list)
    popularity: float = 10.0
    vote_average: float = 7.0
    vote_count: int = 1000
    runtime: int | None = None
    budget: int = 0
    revenue: int = 0
    status: str = "Released"
    tagline: str | None = None
    imdb_id: str | None = None
    homepage: str | None = None
    collection: int | None = None
    companies: list[int] = Field(default_factory=list)
    countries: list[str] = Field(default_factory=lambda: ["US"])
    languages: list[str] = Field(default_factory=list)
    cast: list[tuple[int, str]] = Field(default_factory=list)
    crew: list[tuple[int, str]] = Field(default_factory=list)
    keywords: list[str] = Field(default_factory=list)
    release_dates: list[ReleaseDate] = Field(default_factory=list)
    similar: list[int] = Field(default_factory=list)
    recommendations: list[int] = Field(default_factory=list)
    reviews: list[Review] = Field(default_factory=list)
    images: int = 2


class Episode(_Strict):
    episode_number: int
    name: str
    air_date: str
    overview: str = ""
    vote_average: float = 7.5
    vote_count: int = 100
    guest_stars: list[tuple[int, str]] = Field(default_factory=list)
    crew: list[tuple[int, str]] = Field(default_factory=list)
    images: int = 2


class Season(_Strict):
    season_number: int
    name: str | None = None
    air_date: str
    episode_count: int
    overview: str = ""
    cast: list[tuple[int, str]] = Field(default_factory=list)
    crew: list[tuple[int, str]] = Field(default_factory=list)
    episodes: list[Episode] = Field(default_factory=list)
    images: int = 2


class TVShow(_Strict):
    id: int
    name: str
    original_name: str | None = None
    original_language: str = "en"
    first_air_date: str
    last_air_date: str | None = None
    overview: str = ""
    genres: list[str] = Field(default_factory=list)
    popularity: float = 10.0
    vote_average: float = 7.5
    vote_count: int = 1000
    status: str = "Ended"
    type: str = "Scripted"
    in_production: bool = False
    homepage: str = ""
    episode_run_time: list[int] = Field(default_factory=list)
    origin_country: list[str] = Field(default_factory=lambda: ["US"])
    languages: list[str] = Field(default_factory=list)
    created_by: list[int] = Field(default_factory=list)
    networks: list[int] = Field(default_factory=list)
    companies: list[int] = Field(default_factory=list)
    number_of_episodes: int | None = None  # default: sum of the seasons' episode counts (season 0 excluded)
    seasons: list[Season] = Field(default_factory=list)
    cast: list[tuple[int, str]] = Field(default_factory=list)
    crew: list[tuple[int, str]] = Field(default_factory=list)
    keywords: list[str] = Field(default_factory=list)
    similar: list[int] = Field(default_factory=list)
    recommendations: list[int] = Field(default_factory=list)
    reviews: list[Review] = Field(default_factory=list)
    images: int = 2


class Company(_Strict):
    id: int
    name: str
    headquarters: str = ""
    homepage: str = ""
    origin_country: str = "US"
    parent: int | None = None
    description: str = ""


class Network(_Strict):
    id: int
    name: str
    headquarters: str = ""
    homepage: str = ""
    origin_country: str = "US"


class Collection(_Strict):
    id: int
    name: str
    overview: str = ""
    parts: list[int]  # movie ids, in the order TMDB lists them


class Orgs(_Strict):
    companies: list[Company]
    networks: list[Network]
    collections: list[Collection]


class FrozenLists(_Strict):
    """Time-dependent lists, frozen at ``frozen_at`` (ordered; TMDB pages them 20 at a time)."""

    frozen_at: str
    note: str = ""
    movie_popular: list[int]
    movie_top_rated: list[int]
    movie_now_playing: list[int]
    movie_upcoming: list[int]
    movie_latest: int
    tv_popular: list[int]
    tv_top_rated: list[int]
    tv_on_the_air: list[int]
    tv_airing_today: list[int]
    tv_latest: int
    person_popular: list[int]
    trending_movie_day: list[int]
    trending_movie_week: list[int]
    trending_tv_day: list[int]
    trending_tv_week: list[int]
    trending_person_day: list[int]
    trending_person_week: list[int]


class MovieFile(_Strict):
    movies: list[Movie]


class TVFile(_Strict):
    shows: list[TVShow]


class PeopleFile(_Strict):
    people: list[Person]
