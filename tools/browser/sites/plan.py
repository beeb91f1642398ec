"""The shape of an ``assistantbench-local`` task and the plan steps its scripted oracle follows.

Each task has a gold answer in AssistantBench's format (a string, a number, newline-separated
strings for a list, one JSON object per line for dicts) and a *plan*: the browsing steps a person
would take, in a site-independent form the scripted oracles (``scripted:browser-oracle``, the SPA
one) turn into concrete actions by finding the element in each observation. Plan steps:

- ``("goto", url)``; ``("search", query)``;
- ``("select", combobox label, option)``; ``("type", textbox label, text, submit)``;
- ``("click", role, accessible name)``; ``("back",)``; ``("answer", text)``.

Every episode starts on the search engine (its own origin), so a plan opens a site the way a person
does: a ``search`` and a click on the result (``open_site``); relative ``goto`` URLs resolve on the
page the browser is on.
"""

from __future__ import annotations

from typing import Any, NamedTuple

Step = tuple[Any, ...]


class LocalTask(NamedTuple):
    id: str
    question: str
    gold: str
    answer_type: str  # string | number | list | dict
    plan: list[Step]
    difficulty: str = "Medium"
    #: the sites whose pages hold the facts the answer needs
    sites: tuple[str, ...] = ()


#: each site's home page as the search engine lists it (page title) and a query that finds it
HOMES = {
    "gyms": ("FitFinder gyms Riverton", "Gyms in Riverton - FitFinder"),
    "homes": ("Harbor Homes listings", "Homes for sale and recently sold - Harbor Homes"),
    "books": ("Lantern Books catalogue", "Catalogue - Lantern Books"),
    "events": ("Lantern Books author events", "Author events - Lantern Books"),
    "transit": ("Riverton Metro routes timetables", "Routes and timetables - Riverton Metro"),
    "eats": ("Riverton Eats restaurant guide", "Where to eat in Riverton - Riverton Eats"),
    "care": ("Little Steps childcare Riverton", "Childcare in Riverton - Little Steps"),
}


def open_site(site: str) -> list[Step]:
    """Search for a site and open it from the results page."""
    query, title = HOMES[site]
    return [("search", query), ("click", "link", title)]


def open_page(query: str, title: str) -> list[Step]:
    """Search for one page and open it from the results page."""
    return [("search", query), ("click", "link", title)]


def visit(*names: str) -> list[Step]:
    """Open each linked page from a list and come back to the list."""
    return [step for name in names for step in (("click", "link", name), ("back",))]
