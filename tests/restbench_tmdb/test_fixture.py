"""The fixture database: validated files, consistent ids, the prompt-example ids of spec §8.1, and
JSON files that are exactly what the authoring modules produce."""

from __future__ import annotations

import json

import pytest

from restgraph.tools.sandbox.tmdb.authoring.build import render
from restgraph.tools.sandbox.tmdb.db import FIXTURES, FixtureDB, FixtureError, get_db
from restgraph.tools.sandbox.tmdb.handlers import ROUTES

PROMPT_IDS = {
    "people": {
        12453: "Wong Kar-wai",
        1337: "Tony Leung Chiu-wai",
        1032: "Martin Scorsese",
        20294: "Laeta Kalogridis",
        5026: "Akira Kurosawa",
        1769: "Sofia Coppola",
    },
    "movies": {
        843: "In the Mood for Love",
        18329: "Happy Together",
        44865: "The Grandmaster",
        11324: "Shutter Island",
        11104: "Chungking Express",
        315162: "Puss in Boots: The Last Wish",
        808: "Shrek",
        629542: "The Bad Guys",
        597: "Titanic",
        9799: "The Fast and the Furious",
        584: "2 Fast 2 Furious",
        9615: "The Fast and the Furious: Tokyo Drift",
    },
}


def test_committed_json_matches_the_authoring_source():
    for name, text in render().items():
        assert (FIXTURES / name).read_text(encoding="utf-8") == text, (
            f"{name} is stale: run python -m restgraph.tools.sandbox.tmdb.authoring.build"
        )


def test_files_are_small_and_valid():
    total = 0
    for path in FIXTURES.glob("*.json"):
        size = path.stat().st_size
        assert size < 1_000_000, path
        total += size
        json.loads(path.read_text(encoding="utf-8"))
    assert total < 2_000_000
    db = get_db()
    assert len(db.movies) > 100 and len(db.shows) > 30 and len(db.people) > 150


def test_prompt_example_ids_keep_their_meaning():
    db = get_db()
    for pid, name in PROMPT_IDS["people"].items():
        assert db.people[pid].name == name
    for mid, title in PROMPT_IDS["movies"].items():
        assert db.movies[mid].title == title
    assert db.companies[521].name == "DreamWorks Animation"
    assert db.collections[9485].name == "The Fast and the Furious Collection" and db.collections[9485].parts[
        :3
    ] == [9799, 584, 9615]
    assert {pid for pid, _ in db.movies[11324].crew} >= {1032, 20294}  # Shutter Island: Scorsese, Kalogridis
    assert all(db.movies[m].companies == [521] for m in (315162, 808, 629542))


def test_dangling_reference_is_rejected(tmp_path):
    for path in FIXTURES.glob("*.json"):
        (tmp_path / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    lists = json.loads((tmp_path / "lists.json").read_text(encoding="utf-8"))
    lists["movie_popular"].append(123456789)
    (tmp_path / "lists.json").write_text(json.dumps(lists), encoding="utf-8")
    with pytest.raises(FixtureError, match="123456789"):
        FixtureDB(tmp_path)


def test_routes_are_exactly_the_spec_operations(tmdb_spec):
    from restgraph.tools.openapi import operations

    ops = operations(tmdb_spec)
    assert len(ops) == 54 and {op.template for op in ops} == {template for template, _ in ROUTES}
