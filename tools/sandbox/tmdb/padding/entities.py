"""Generated entities: people, films and shows with plausible names and realistic field distributions.

Every generated id lies in a padding range (``GENERATED_FROM`` and up, above every authored id), so
a body can always be told apart from the authored facts. Popularity is drawn below a cap the caller
gives (``generate`` passes the minimum popularity of the authored entities it must not outrank).
"""

from __future__ import annotations

import random
from datetime import date, timedelta

from restgraph.tools.sandbox.tmdb.models import Movie, Person, ReleaseDate, Review, Season, TVShow
from restgraph.tools.sandbox.tmdb.padding import pools as p

GENERATED_FROM = 10_000_000
PERSON_BASE, MOVIE_BASE, COMPANY_BASE, SHOW_BASE = 10_000_000, 10_200_000, 10_300_000, 10_500_000


def is_generated(entity_id: int) -> bool:
    return entity_id >= GENERATED_FROM


def day(text: str) -> date:
    return date.fromisoformat(text[:10])


def shift(text: str, days: int) -> str:
    return (day(text) + timedelta(days=days)).isoformat()


class Maker:
    """Makes one kind of generated entity at a time from a shared seeded RNG (call order is fixed)."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.next_id = {
            "person": PERSON_BASE,
            "movie": MOVIE_BASE,
            "company": COMPANY_BASE,
            "show": SHOW_BASE,
        }

    def _id(self, kind: str) -> int:
        self.next_id[kind] += 1
        return self.next_id[kind]

    # --- small draws ----------------------------------------------------------------------------------
    def popularity(self, cap: float, floor: float = 0.6) -> float:
        """Long-tailed like TMDB's: most entities near the floor, a few close to the cap (never above it)."""
        value = floor + self.rng.expovariate(1 / max(cap / 12, 0.2))
        return round(min(value, cap * self.rng.uniform(0.4, 0.9)), 3)

    def date_between(self, lo: str, hi: str) -> str:
        a, b = day(lo), day(hi)
        return (a + timedelta(days=self.rng.randint(0, max((b - a).days, 0)))).isoformat()

    def name(self, gender: int | None = None) -> tuple[str, int]:
        gender = gender if gender is not None else self.rng.choice((1, 2))
        first = self.rng.choice(p.FIRST_F if gender == 1 else p.FIRST_M)
        return f"{first} {self.rng.choice(p.SURNAMES)}", gender

    def title(self, forms: tuple[str, ...] = p.TITLE_FORMS) -> str:
        return self.rng.choice(forms).format(
            adj=self.rng.choice(p.TITLE_ADJ),
            noun=self.rng.choice(p.TITLE_NOUN),
            place=self.rng.choice(p.TITLE_PLACES),
        )

    def overview(self, n: int = 2) -> str:
        name, gender = self.name()
        return " ".join(
            self.rng.choice(p.SENTENCES).format(
                noun=self.rng.choice(p.TITLE_NOUN).lower(),
                adj=self.rng.choice(p.TITLE_ADJ).lower(),
                place=self.rng.choice(p.TITLE_PLACES),
                name=name.split()[0],
                pron="she" if gender == 1 else "he",
            )
            for _ in range(n)
        )

    def votes(self, top_rated_floor: float) -> tuple[float, int]:
        """(vote_average, vote_count): a long-tailed count; a film rated above the top-rated floor has too few votes to qualify."""
        count = int(self.rng.lognormvariate(4.0, 1.6))
        if count == 0:
            return 0.0, 0
        average = round(min(9.4, max(1.5, self.rng.gauss(6.3, 0.9))), 3)
        if average >= top_rated_floor:
            count = min(count, 120)
        return average, count

    def review(self, when: str) -> Review:
        author = f"{self.rng.choice(p.USER_WORDS)}{self.rng.choice(p.USER_WORDS)}{self.rng.randint(1, 999)}"
        lines = [self.rng.choice(p.REVIEW_LINES) for _ in range(self.rng.randint(6, 16))]
        return Review.model_construct(
            author=author,
            content=" ".join(lines),
            created_at=f"{when}T{self.rng.randint(0, 23):02d}:{self.rng.randint(0, 59):02d}:00.000Z",
        )

    def release_dates(self, primary: str, countries: list[str], frozen_at: str) -> list[ReleaseDate]:
        out = []
        for country in countries:
            when = (
                min(shift(primary, self.rng.randint(0, 75)), frozen_at)
                if primary <= frozen_at
                else shift(primary, self.rng.randint(0, 30))
            )
            out.append(
                ReleaseDate.model_construct(
                    country=country, date=when, type=3, certification=p.CERTS.get(country, ""), note=""
                )
            )
            if self.rng.random() < 0.35 and primary <= frozen_at:
                out.append(
                    ReleaseDate.model_construct(
                        country=country,
                        date=min(shift(when, self.rng.randint(90, 200)), frozen_at),
                        type=4,
                        certification=p.CERTS.get(country, ""),
                        note="Digital",
                    )
                )
        return out

    # --- entities -------------------------------------------------------------------------------------
    def person(
        self, cap: float, name: str | None = None, dept: str | None = None, gender: int | None = None
    ) -> Person:
        drawn, gender = self.name(gender)
        birthday = self.date_between("1935-01-01", "2004-12-31") if self.rng.random() < 0.8 else None
        place = self.rng.choice(p.PLACES) if birthday and self.rng.random() < 0.8 else None
        return Person.model_construct(
            id=self._id("person"),
            name=name or drawn,
            gender=gender,
            birthday=birthday,
            deathday=None,
            place_of_birth=place,
            known_for_department=dept or self.rng.choice(p.DEPARTMENTS),
            popularity=self.popularity(cap),
            also_known_as=[],
            biography="",
            imdb_id=f"nm{self.rng.randint(1_000_000, 9_999_999)}",
            homepage=None,
            images=self.rng.randint(0, 4),
        )

    def movie(
        self,
        cap: float,
        top_rated_floor: float,
        frozen_at: str,
        title: str | None = None,
        released: tuple[str, str] = ("1950-01-01", ""),
        genres: list[str] | None = None,
    ) -> Movie:
        when = self.date_between(released[0], released[1] or frozen_at)
        lang = self.rng.choice(p.LANGS)
        average, count = self.votes(top_rated_floor)
        name = title or self.title()
        return Movie.model_construct(
            id=self._id("movie"),
            title=name,
            original_title=name,
            original_language=lang,
            release_date=when,
            overview=self.overview(),
            genres=genres or self.rng.sample(p.MOVIE_GENRES, self.rng.randint(1, 3)),
            popularity=self.popularity(cap),
            vote_average=average,
            vote_count=count,
            runtime=self.rng.randint(72, 150),
            budget=0,
            revenue=0,
            status="Released" if when <= frozen_at else "Post Production",
            tagline=None,
            imdb_id=f"tt{self.rng.randint(1_000_000, 9_999_999)}",
            homepage=None,
            collection=None,
            companies=[],
            countries=[self.rng.choice(p.COUNTRIES)],
            languages=[lang],
            cast=[],
            crew=[],
            keywords=[],
            release_dates=self.release_dates(
                when, self.rng.sample(p.COUNTRIES, self.rng.randint(1, 4)), frozen_at
            ),
            similar=[],
            recommendations=[],
            reviews=[],
            images=self.rng.randint(1, 8),
        )

    def show(
        self,
        cap: float,
        top_rated_floor: float,
        frozen_at: str,
        name: str | None = None,
        first_aired: tuple[str, str] = ("1960-01-01", ""),
        kind: str | None = None,
        current: bool = False,
    ) -> TVShow:
        start = self.date_between(first_aired[0], first_aired[1] or frozen_at)
        genres = [kind] if kind else self.rng.sample(p.TV_GENRES, self.rng.randint(1, 2))
        seasons = []
        air = start
        for number in range(1, self.rng.randint(1, 5) + 1):
            if air > frozen_at:
                break
            seasons.append(
                Season.model_construct(
                    season_number=number,
                    name=f"Season {number}",
                    air_date=air,
                    episode_count=self.rng.randint(6, 24),
                    overview="",
                    cast=[],
                    crew=[],
                    episodes=[],
                    images=self.rng.randint(1, 4),
                )
            )
            air = shift(air, self.rng.randint(300, 420))
        last = frozen_at if current else min(shift(seasons[-1].air_date, 120), frozen_at)
        average, count = self.votes(top_rated_floor)
        lang = self.rng.choice(p.LANGS)
        title = name or self.title(p.SHOW_FORMS)
        return TVShow.model_construct(
            id=self._id("show"),
            name=title,
            original_name=title,
            original_language=lang,
            first_air_date=start,
            last_air_date=last,
            overview=self.overview(),
            genres=genres,
            popularity=self.popularity(cap),
            vote_average=average,
            vote_count=count,
            status="Returning Series" if current else "Ended",
            type=kind if kind in ("Documentary", "Reality", "News", "Talk") else "Scripted",
            in_production=current,
            homepage="",
            episode_run_time=[self.rng.choice((22, 30, 45, 50, 60))],
            origin_country=[self.rng.choice(p.COUNTRIES[:12])],
            languages=[lang],
            created_by=[],
            networks=[],
            companies=[],
            number_of_episodes=None,
            seasons=seasons,
            cast=[],
            crew=[],
            keywords=[],
            similar=[],
            recommendations=[],
            reviews=[],
            images=self.rng.randint(1, 6),
        )

    def company_id(self) -> int:
        return self._id("company")
