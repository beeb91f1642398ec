"""RestGPT-style OAS reduction with the §3.4 fixes, on the real specs and the fake one."""

from __future__ import annotations

import copy
import json

from restgraph.evals.datasets.restbench import load_spec
from restgraph.tools.openapi.reduce import merge_allof, narrow_search_schema, reduce_openapi_spec
from tests.restgpt.conftest import SPEC


def test_tmdb_path_level_parameters_are_kept(data_dir) -> None:
    spec = load_spec("tmdb")
    fixed = reduce_openapi_spec(spec, dereferenced=True)
    faithful = reduce_openapi_spec(spec, dereferenced=True, faithful=True)
    assert len(fixed.endpoints) == 54
    names = lambda r, key: {p["name"] for p in r.get(key).parameters}  # noqa: E731
    assert "person_id" in names(fixed, "GET /person/{person_id}/movie_credits")
    assert "person_id" not in names(faithful, "GET /person/{person_id}/movie_credits")  # upstream pitfall
    with_path_params = [e for e in fixed.endpoints if any(p.get("in") == "path" for p in e.parameters)]
    assert len(with_path_params) == 34
    assert (
        fixed.get("GET /search/person").short_description
        and "." not in fixed.get("GET /search/person").short_description
    )


def test_spotify_success_schemas_allof_and_search_narrowing(data_dir) -> None:
    spec = load_spec("spotify")
    before = json.dumps(spec, sort_keys=True)
    fixed = reduce_openapi_spec(spec, dereferenced=True, merge_allof_schemas=True)
    faithful = reduce_openapi_spec(spec, dereferenced=True, merge_allof_schemas=True, faithful=True)
    create = "POST /users/{user_id}/playlists"
    assert fixed.get(create).success_status == 201 and fixed.get(create).response_schema is not None
    assert faithful.get(create).response_schema is None  # only 200 kept upstream
    assert fixed.get("PUT /me/player/volume").response_schema is None  # 204: no body anywhere
    assert '"allOf"' not in json.dumps(fixed.get("GET /playlists/{playlist_id}").response_schema)
    search = fixed.get("GET /search").response_schema
    snapshot = copy.deepcopy(search)
    both = narrow_search_schema(search, "track,artist")
    assert set(both["properties"]) == {"tracks", "artists"}
    assert set(narrow_search_schema(search, ["album"])["properties"]) == {"albums"}
    assert narrow_search_schema(search, "nonsense")["properties"].keys() == snapshot["properties"].keys()
    assert search == snapshot  # deep copies: a second narrowing of another type still works (defect 4)
    assert json.dumps(spec, sort_keys=True) == before


def test_fake_spec_reduction() -> None:
    reduced = reduce_openapi_spec(SPEC)
    thing = reduced.get("POST /things")
    assert thing.success_status == 201 and "allOf" in thing.response_schema
    assert set(merge_allof(thing.response_schema)["properties"]) == {"id", "name", "created"}
    assert (
        reduced.get("PUT /player/pause").success_status == 204
        and reduced.get("PUT /player/pause").response_schema is None
    )
    assert [p["name"] for p in reduced.get("GET /items/{item_id}").parameters] == ["item_id"]
    docs = reduced.get("GET /items/{item_id}").docs()
    assert "responses" not in docs and docs["parameters"][0]["name"] == "item_id"
