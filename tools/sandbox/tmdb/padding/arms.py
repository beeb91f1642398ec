"""Regional, divisional and distribution arms of authored companies, as TMDB lists them beside the
parent (the spec's captured 'Sony Pictures' search: Sony Pictures Releasing, Sony Pictures Television
International, Sony Pictures Entertainment Japan, ... 19 in all).

Tops each authored company's search up to the estimate of ``realtotals`` (never past the forms
below; shared among authored companies of one stem, "Walt Disney Pictures" and "The Walt Disney
Company"), after the arms ``generate`` already made. An arm's name is its parent's name plus words, so it
is never an exact match of a search for an authored company, and a company search lists authored
companies before generated ones (``finders._index``): every search that found an authored company
first still does. Ids continue the generated company range.
"""

from __future__ import annotations

import random

from restgraph.tools.sandbox.tmdb.derive import normalise
from restgraph.tools.sandbox.tmdb.models import Company
from restgraph.tools.sandbox.tmdb.padding.entities import Maker
from restgraph.tools.sandbox.tmdb.realtotals import distinctive, estimate
from restgraph.tools.sandbox.tmdb.search import SearchIndex

FORMS = (
    "{t} Releasing",
    "{t} Classics",
    "{t} Digital",
    "{t} Productions",
    "{t} Networks",
    "{t} Worldwide Acquisitions",
    "{t} Television International",
    "{t} Entertainment",
    "{t} Studio",
    "{t} UK",
    "{t} France",
    "{t} Italia",
    "{t} España",
    "{t} Australia",
    "{t} Canada",
    "{t} India",
    "{t} Korea",
    "{t} Brazil",
    "{t} Mexico",
    "{t} Nordic",
    "{t} Distribution",
    "{t} Visual Effects",
)


def top_up(
    companies: dict[int, Company], authored: dict[int, Company], maker: Maker, rng: random.Random
) -> None:
    index = SearchIndex(companies.values(), lambda c: [c.name], lambda c: (c.id,))
    parents = SearchIndex(authored.values(), lambda c: [c.name], lambda c: (c.id,))
    for c in sorted(authored.values(), key=lambda c: c.id):
        names = {normalise(x.name) for x in index.search(c.name)}
        stem = " ".join(
            distinctive(c.name)[:2]
        )  # companies sharing a stem ("Walt Disney ...") share its search's estimate
        want = estimate("company", c.name, [normalise(c.name)]).total // len(parents.search(stem))
        forms = [f for f in FORMS if normalise(f.format(t=c.name)) not in names]
        for form in rng.sample(forms, max(0, min(len(forms), rng.randint(want - 3, want + 1) - len(names)))):
            cid = maker.company_id()
            companies[cid] = Company.model_construct(
                id=cid,
                name=form.format(t=c.name),
                headquarters=c.headquarters,
                homepage="",
                origin_country=c.origin_country,
                parent=c.id,
                description="",
            )
