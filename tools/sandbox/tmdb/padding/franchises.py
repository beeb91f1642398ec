"""Collections that share an authored collection's franchise name, as TMDB lists them beside the main
one: animated and LEGO series, documentary and box-set collections ("Star Wars" finds the Star Wars
Collection, LEGO Star Wars Collection, Star Wars (Animated) Collection, ...).

How many: the estimate of ``realtotals`` for a search of the franchise name (a handful, never a page:
the spec's captured 'The Fast and the Furious' search found one). Their parts are generated films
whose titles hold the franchise's words (the movie namesakes), never an authored film, so no
authored film changes collection and no collection's authored parts change. A search lists authored
collections before generated ones (``finders._index``), so a search that found an authored collection
first still does; generated collection names always add words to the franchise name, so none is an
exact match either. Ids from ``COLLECTION_BASE`` up; a separate seeded RNG.
"""

from __future__ import annotations

import random

from restgraph.tools.sandbox.tmdb.derive import normalise
from restgraph.tools.sandbox.tmdb.models import Collection, Movie
from restgraph.tools.sandbox.tmdb.padding.entities import GENERATED_FROM
from restgraph.tools.sandbox.tmdb.realtotals import estimate
from restgraph.tools.sandbox.tmdb.search import SearchIndex

COLLECTION_BASE = GENERATED_FROM + 400_000
FORMS = (
    "{t} (Animated) Collection",
    "LEGO {t} Collection",
    "{t} Documentary Collection",
    "{t}: Behind the Scenes Collection",
    "{t} Fan Films Collection",
    "{t} Parody Collection",
    "{t} Extended Editions Collection",
    "{t} Live Collection",
)
OVERVIEWS = (
    "Animated films set in the world of {t}.",
    "Documentaries about the making of {t}.",
    "Films made around {t}.",
)


def franchise(name: str) -> str:
    """ "Star Wars Collection" -> "Star Wars"."""
    return name[: -len(" Collection")] if name.endswith(" Collection") else name


def generate(
    collections: dict[int, Collection],
    movies: dict[int, Movie],
    authored_movies: set[int],
    rng: random.Random,
) -> dict[int, Collection]:
    """Generated collections (authored ones untouched); sets ``collection`` on the generated films they hold."""
    generated = [m for m in movies.values() if m.id not in authored_movies and m.collection is None]
    index = SearchIndex(generated, lambda m: [m.title], lambda m: (-m.popularity, m.id))
    used: set[int] = set()
    out: dict[int, Collection] = {}
    next_id = COLLECTION_BASE
    for c in sorted(collections.values(), key=lambda c: c.id):
        title = franchise(c.name)
        want = estimate("collection", title, [normalise(c.name)]).total - 1
        pool = [m for m in index.search(title) if m.id not in used]
        for form in rng.sample(FORMS, min(len(FORMS), rng.randint(max(2, want - 1), want + 2))):
            parts = [m for m in pool[: rng.randint(2, 4)]]
            pool = pool[len(parts) :]
            if len(parts) < 2:
                break
            next_id += 1
            name = form.format(t=title)
            out[next_id] = Collection.model_construct(
                id=next_id,
                name=name,
                overview=rng.choice(OVERVIEWS).format(t=title),
                parts=[m.id for m in sorted(parts, key=lambda m: (m.release_date, m.id))],
            )
            for m in parts:
                used.add(m.id)
                movies[m.id] = m.model_copy(update={"collection": next_id})
    return out
