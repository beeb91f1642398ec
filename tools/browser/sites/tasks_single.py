"""The first ``assistantbench-local`` tasks: one site each (a filter, a sort, a detail page), the
warm-up of the set; ``tasks_multi`` holds the multi-site ones."""

from __future__ import annotations

from restgraph.tools.browser.sites.plan import LocalTask, open_page, open_site


def homes_search(town: str, kind: str, status: str, sort: str) -> list[tuple]:
    return [
        *open_site("homes"),
        ("select", "Town", town),
        ("select", "Property type", kind),
        ("select", "Status", status),
        ("select", "Sort by", sort),
        ("click", "button", "Search listings"),
    ]


SINGLE_SITE: list[LocalTask] = [
    LocalTask(
        "gyms-eastside-pilates",
        "I live in Riverton's Eastside neighborhood. According to the FitFinder gym directory, which gyms or studios in Eastside offer Pilates classes?",
        "Avea Pilates\nCore & Reformer",
        "list",
        [
            *open_site("gyms"),
            ("select", "Neighborhood", "Eastside"),
            ("select", "Activity", "Pilates"),
            ("click", "button", "Find gyms"),
            ("answer", '["Avea Pilates", "Core & Reformer"]'),
        ],
    ),
    LocalTask(
        "gyms-northgate-yoga-price",
        "What is the cheapest monthly membership price, in US dollars, among FitFinder gyms in Riverton's Northgate neighborhood that offer yoga classes?",
        "72.50",
        "number",
        [
            *open_site("gyms"),
            ("select", "Neighborhood", "Northgate"),
            ("select", "Activity", "Yoga"),
            ("click", "button", "Find gyms"),
            ("answer", "72.5"),
        ],
    ),
    LocalTask(
        "gyms-most-expensive",
        "Which gym listed in Riverton on FitFinder has the most expensive monthly membership?",
        "CrossFit East River",
        "string",
        [
            *open_site("gyms"),
            ("click", "button", "Find gyms"),
            ("click", "link", "Next page"),
            ("click", "link", "Next page"),
            ("answer", "CrossFit East River"),
        ],
        "Hard",
    ),
    LocalTask(
        "homes-maple-bay-condo-2023",
        "According to Harbor Homes, what was the highest price (in US dollars) paid for a condo in Maple Bay that sold in 2023?",
        "462500",
        "number",
        [
            *homes_search("Maple Bay", "Condo", "Sold", "Price: high to low"),
            ("click", "link", "3 Lighthouse Way, Unit 9"),
            ("back",),
            ("click", "link", "60 Kelp Ave, Unit 3"),
            ("back",),
            ("click", "link", "7 Anchor St, Unit 4"),
            ("answer", "462500"),
        ],
        "Hard",
    ),
    LocalTask(
        "homes-cedar-falls-largest",
        'Among the houses sold in Cedar Falls listed on Harbor Homes, find the one with the largest floor area. Give its sold price and floor area as a JSON object with keys "price" (US dollars) and "sqft".',
        '{"price": 612000, "sqft": 2850}',
        "dict",
        [
            *homes_search("Cedar Falls", "House", "Sold", "Newest first"),
            ("click", "link", "77 Millrace Rd"),
            ("back",),
            ("click", "link", "14 Cedar Ridge Dr"),
            ("answer", '{"price": 612000, "sqft": 2850}'),
        ],
        "Hard",
    ),
    LocalTask(
        "homes-maple-bay-cheapest-3bed",
        "What is the street address of the cheapest 3-bedroom house currently for sale in Maple Bay on Harbor Homes?",
        "41 Willow Lane",
        "string",
        [*homes_search("Maple Bay", "House", "For sale", "Price: low to high"), ("answer", "41 Willow Lane")],
    ),
    LocalTask(
        "books-oldest-river",
        "Who wrote the oldest book sold by Lantern Books that has the word 'River' in its title?",
        "Clara Voss",
        "string",
        [
            *open_site("books"),
            ("type", "Search books by title or author", "river", True),
            ("answer", "Clara Voss"),
        ],
    ),
    LocalTask(
        "books-hale-under-20",
        'List every book by Imogen Hale that Lantern Books sells for less than $20, as JSON objects with keys "title" and "price" (US dollars).',
        '{"title": "River of Glass Lanterns", "price": 18.5}\n{"title": "The Salt Orchard", "price": 16}\n{"title": "The Copper Kettle", "price": 12.75}',
        "dict",
        [
            *open_site("books"),
            ("type", "Search books by title or author", "Imogen Hale", True),
            (
                "answer",
                '[{"title": "River of Glass Lanterns", "price": 18.5}, {"title": "The Salt Orchard", "price": 16}, {"title": "The Copper Kettle", "price": 12.75}]',
            ),
        ],
        "Hard",
    ),
    LocalTask(
        "books-quiet-harbor-pages",
        "How many pages does the book 'The Quiet Harbor' sold by Lantern Books have?",
        "333",
        "number",
        [*open_page("The Quiet Harbor Lantern Books", "The Quiet Harbor - Lantern Books"), ("answer", "333")],
    ),
    LocalTask(
        "transit-route7-minutes",
        "How many minutes does the first weekday Riverton Metro Route 7 bus take to get from Central Station to Airport Terminal?",
        "35",
        "number",
        [*open_site("transit"), ("click", "link", "Route 7"), ("answer", "35")],
    ),
    LocalTask(
        "transit-museum-quarter-routes",
        "Which Riverton Metro bus routes stop at Museum Quarter?",
        "Route 7\nRoute 15\nRoute 22",
        "list",
        [
            *open_site("transit"),
            ("type", "Stop name", "Museum Quarter", True),
            ("answer", '["Route 7", "Route 15", "Route 22"]'),
        ],
    ),
    LocalTask(
        "transit-route12-last-saturday",
        "At what time does the last Saturday Route 12 bus of Riverton Metro leave Harbor Point?",
        "22:40",
        "string",
        [
            *open_site("transit"),
            ("click", "link", "Route 12"),
            ("click", "link", "Saturday timetable"),
            ("answer", "22:40"),
        ],
    ),
]

#: one site each, the one their id starts with
SINGLE_SITE = [t._replace(sites=(t.id.split("-")[0],)) for t in SINGLE_SITE]
