"""The tables of the TMDB fixture (``World``), apart from the padder that fills them.

A module of its own so the padder (``generate``) and its extender (``extend``, which ``generate``
imports) can both name the type without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass

from restgraph.tools.sandbox.tmdb.models import (
    Collection,
    Company,
    FrozenLists,
    Movie,
    Network,
    Person,
    TVShow,
)


@dataclass
class World:
    """The tables a ``FixtureDB`` serves (authored facts, or facts plus padding)."""

    people: dict[int, Person]
    movies: dict[int, Movie]
    shows: dict[int, TVShow]
    companies: dict[int, Company]
    networks: dict[int, Network]
    collections: dict[int, Collection]
    lists: FrozenLists
