"""Catalogue-wide candidate pools read from the TMDB sandbox's authored facts, so that every key of a
kind has distractors without anyone listing them per query.

``wrong_from: keywords | genres | places | homepages | tracks`` in a key makes every pool entry that the key does
not accept a distractor: all keywords of all movies and shows, TMDB's movie and TV genres, every city
a person was born in or a company or network is based in, every homepage domain, every track name
of the Spotify sandbox's catalogue. Image paths need no
pool: every TMDB-shaped file path (``/<base62>.jpg``) is a candidate of its kind (``IMAGE_PATH``).
The pools come from the facts (``fixtures/*.json``), never from the generated padding.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from urllib.parse import urlparse

from restgraph.evals.scorers.tmdb_success import normalise
from restgraph.tools.sandbox import spotify as spotify_sandbox
from restgraph.tools.sandbox.tmdb.db import FIXTURES, FixtureDB
from restgraph.tools.sandbox.tmdb.derive import MOVIE_GENRES, TV_GENRES

SPOTIFY_CATALOGUE = Path(spotify_sandbox.__file__).with_name("catalogue.json")

#: an image file path as TMDB serves them (the sandbox derives 27 base62 characters; real ones vary)
IMAGE_PATH = re.compile(r"/[0-9A-Za-z]{20,40}\.(?:jpe?g|png|svg|webp|gif)\b")


def domain(url: str) -> str:
    host = urlparse(url if "//" in url else f"https://{url}").hostname or ""
    return host.removeprefix("www.")


@cache
def pools() -> dict[str, list[str]]:
    def load(name: str) -> dict:
        return json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))

    movies, shows = load("movies")["movies"], load("tv")["shows"]
    people, orgs = load("people")["people"], load("orgs")
    keywords = {k for item in [*movies, *shows] for k in item.get("keywords") or []}
    places = {
        p.split(",")[0].strip()
        for p in [
            *(x.get("place_of_birth") or "" for x in people),
            *(x.get("headquarters") or "" for k in ("companies", "networks") for x in orgs[k]),
        ]
        if p.strip()
    }
    homepages = {
        domain(x["homepage"])
        for x in [*movies, *shows, *(x for k in ("companies", "networks") for x in orgs[k])]
        if x.get("homepage")
    }
    spotify = json.loads((SPOTIFY_CATALOGUE).read_text(encoding="utf-8"))
    return {
        "tracks": sorted({t["name"] for t in spotify["tracks"]}),
        "keywords": sorted(keywords),
        "genres": sorted({*MOVIE_GENRES, *TV_GENRES}),
        "places": sorted(places),
        "homepages": sorted(h for h in homepages if h),
    }


@cache
def known_titles() -> frozenset[str]:
    """Every movie and show title the TMDB sandbox serves, padding included (normalised): a title in an
    answer's list that is none of them is no title of the sandbox (a wrong item of a title list). Loaded
    on first use (~0.6 s): only a title list with an unknown item needs it."""
    db = _sandbox()
    return frozenset(
        normalise(t) for t in [*(m.title for m in db.movies.values()), *(s.name for s in db.shows.values())]
    )


@cache
def known_people() -> frozenset[str]:
    """Every person the TMDB sandbox serves, padding included (normalised): a name in a closed list of
    people that is none of them is an extra item ("Richard Hammond, James May and Kaleb Cooper"), while
    a padded cast member the sandbox lists is not."""
    return frozenset(normalise(p.name) for p in _sandbox().people.values())


@cache
def _sandbox() -> FixtureDB:
    """The sandbox's world, padding included, built on first use (~0.6 s)."""
    return FixtureDB()


@cache
def title_years() -> dict[str, frozenset[int]]:
    """normalised title -> the years the TMDB facts date it by (a movie's release dates in any country,
    a show's first air date): "The Frozen Ground (2019)" gives the right title a wrong year."""

    def load(name: str) -> dict:
        return json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))

    out: dict[str, set[int]] = {}
    for m in load("movies")["movies"]:
        dates = [m.get("release_date") or "", *(r.get("date") or "" for r in m.get("release_dates") or [])]
        out.setdefault(normalise(m["title"]), set()).update(int(d[:4]) for d in dates if d[:4].isdigit())
    for s in load("tv")["shows"]:
        if (s.get("first_air_date") or "")[:4].isdigit():
            out.setdefault(normalise(s["name"]), set()).add(int(s["first_air_date"][:4]))
    return {k: frozenset(v) for k, v in out.items() if v}
