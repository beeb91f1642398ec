"""Write ``fixtures/*.json`` from the authoring modules: ``python -m restgraph.tools.sandbox.tmdb.authoring.build``.

The JSON files are what the sandbox loads (and validates with ``models``); this script only keeps
the authored source compact. Re-run it after editing the authoring modules; a test checks that
the committed JSON is what this script produces.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from restgraph.tools.sandbox.tmdb.authoring.movies import MOVIES
from restgraph.tools.sandbox.tmdb.authoring.orgs import COLLECTIONS, COMPANIES, LISTS, NETWORKS
from restgraph.tools.sandbox.tmdb.authoring.people import ALSO_KNOWN_AS, BIOS, PEOPLE
from restgraph.tools.sandbox.tmdb.authoring.tv import SHOWS
from restgraph.tools.sandbox.tmdb.models import FrozenLists, MovieFile, Orgs, PeopleFile, TVFile

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def people() -> list[dict[str, Any]]:
    out = []
    for pid, name, gender, birthday, deathday, place, dept, pop in PEOPLE:
        out.append(
            {
                "id": pid,
                "name": name,
                "gender": gender,
                "birthday": birthday,
                "deathday": deathday,
                "place_of_birth": place,
                "known_for_department": dept,
                "popularity": pop,
                "also_known_as": ALSO_KNOWN_AS.get(pid, []),
                "biography": BIOS.get(pid, ""),
            }
        )
    return out


def ordered_lists() -> dict[str, Any]:
    """The frozen lists, each sorted by its own measure like TMDB's (popularity, or rating for top rated)."""
    movies = {m["id"]: m for m in MOVIES}
    shows = {t["id"]: t for t in SHOWS}
    pops = {p[0]: p[7] for p in PEOPLE}
    out: dict[str, Any] = dict(LISTS)
    ids: dict[str, list[int]] = {k: v for k, v in LISTS.items() if isinstance(v, list)}
    for key, table, field in [
        ("movie_popular", movies, "popularity"),
        ("movie_top_rated", movies, "vote_average"),
        ("tv_popular", shows, "popularity"),
        ("tv_top_rated", shows, "vote_average"),
        ("tv_on_the_air", shows, "popularity"),
    ]:

        def measure(i: int, t: dict[int, Any] = table, f: str = field) -> float:
            return -t[i][f]

        out[key] = sorted(ids[key], key=measure)
    out["person_popular"] = sorted(ids["person_popular"], key=lambda i: -pops[i])
    return out


def render() -> dict[str, str]:
    """File name -> JSON text (validated through the pydantic models, defaults left out)."""
    docs = {
        "people.json": PeopleFile.model_validate({"people": people()}),
        "movies.json": MovieFile.model_validate({"movies": MOVIES}),
        "tv.json": TVFile.model_validate({"shows": SHOWS}),
        "orgs.json": Orgs.model_validate(
            {"companies": COMPANIES, "networks": NETWORKS, "collections": COLLECTIONS}
        ),
        "lists.json": FrozenLists.model_validate(ordered_lists()),
    }
    out = {}
    for name, doc in docs.items():
        data = doc.model_dump(mode="json", exclude_defaults=True)
        key = next(iter(data)) if name != "lists.json" and name != "orgs.json" else None
        if key:  # one entity per line keeps diffs readable
            lines = ",\n".join("  " + json.dumps(item, ensure_ascii=False) for item in data[key])
            out[name] = f'{{"{key}": [\n{lines}\n]}}\n'
        else:
            out[name] = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    return out


def main() -> None:
    FIXTURES.mkdir(exist_ok=True)
    for name, text in render().items():
        (FIXTURES / name).write_text(text, encoding="utf-8")
        print(f"{name}: {len(text.encode()):,} bytes")


if __name__ == "__main__":
    main()
