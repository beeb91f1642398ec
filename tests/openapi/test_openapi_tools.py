"""tools/openapi: template matching, the HTTP tool's recording and error handling, validation,
the RestBench loader's gold normalisation, path metrics and the oracle's placeholders."""

from __future__ import annotations

import httpx
import pytest
from fastapi import FastAPI
from fastapi.responses import JSONResponse, Response

from restgraph.evals.datasets.restbench import load_queries, load_spec, normalise_gold
from restgraph.evals.recording import EpisodeRecorder, reset_recorder, set_recorder
from restgraph.evals.scorers.restbench import aggregate_restbench, is_subsequence
from restgraph.graphs.oracle import ReferenceError_, substitute
from restgraph.tools.openapi.client import HttpTool
from restgraph.tools.openapi.matching import endpoints_in_text, match_endpoint
from restgraph.tools.openapi.spec import operations
from restgraph.tools.openapi.validate import validate_response

KEYS = ["GET /movie/{movie_id}", "GET /movie/popular", "GET /movie/{movie_id}/credits", "GET /search/movie"]


def test_exact_literal_beats_template_and_first_template_wins():
    assert match_endpoint("GET", "/movie/popular", KEYS) == "GET /movie/popular"
    assert match_endpoint("GET", "/movie/603", KEYS) == "GET /movie/{movie_id}"
    assert match_endpoint("GET", "/movie/603/credits?x=1", KEYS) == "GET /movie/{movie_id}/credits"
    assert match_endpoint("POST", "/movie/603", KEYS) is None
    assert match_endpoint("GET", "/tv/1", KEYS) is None


def test_endpoints_in_text_drops_query_strings():
    assert endpoints_in_text("call GET /movie/603?language=en then PUT /me/player/volume") == [
        ("GET", "/movie/603"),
        ("PUT", "/me/player/volume"),
    ]


def test_gold_normalisation_matches_every_spec_operation(data_dir):
    for scenario in ("tmdb", "spotify"):
        keys = {op.key for op in operations(load_spec(scenario))}
        for query in load_queries(scenario):
            for item in query.solution:
                assert item in keys, (scenario, query.index, item)
    assert normalise_gold(" GET /movie/now_playing") == "GET /movie/now_playing"
    assert normalise_gold("GET /track/{id}") == "GET /tracks/{id}"


def test_tmdb_path_level_parameters_are_kept(data_dir):
    op = next(o for o in operations(load_spec("tmdb")) if o.key == "GET /movie/{movie_id}")
    assert any(p["name"] == "movie_id" and p["in"] == "path" for p in op.parameters)


def _app() -> FastAPI:
    app = FastAPI()

    @app.get("/3/movie/{movie_id}")
    def movie(movie_id: int):
        if movie_id == 0:
            return JSONResponse({"status_code": 34, "status_message": "not found"}, status_code=404)
        return {"id": movie_id, "title": "Inception"}

    @app.put("/3/me/player/volume")
    def volume():
        return Response(status_code=204)

    return app


async def test_http_tool_records_calls_and_turns_errors_into_results():
    recorder = EpisodeRecorder()
    token = set_recorder(recorder)
    try:
        tool = HttpTool(
            "http://sandbox/3",
            transport=httpx.ASGITransport(app=_app()),
            token="secret-token-123",
            endpoint_keys=["GET /movie/{movie_id}", "PUT /me/player/volume"],
        )
        ok = await tool.request("GET", "/movie/27205")
        missing = await tool.request("GET", "https://sandbox/3/movie/0")
        empty = await tool.request("PUT", "/me/player/volume", params={"volume_percent": 60})
        placeholder = await tool.request("GET", "/movie/{movie_id}")
        await tool.aclose()
    finally:
        reset_recorder(token)
    assert ok.ok and ok.json["title"] == "Inception" and ok.template == "GET /movie/{movie_id}"
    assert missing.status == 404 and "Status 404" in missing.observation()
    assert empty.status == 204 and "no content" in empty.observation()
    assert placeholder.status == 0 and "placeholder" in placeholder.observation()
    recorder.close_step("call")
    calls = recorder.steps[0].tool_calls
    assert [c.status for c in calls] == [200, 404, 204, 0]
    assert calls[0].extra["template"] == "GET /movie/{movie_id}"


def test_validate_response_reports_schema_errors(data_dir):
    op = next(o for o in operations(load_spec("tmdb")) if o.key == "GET /movie/{movie_id}")
    assert validate_response(op, 200, {"id": 603, "title": "The Matrix"}) == []
    errors = validate_response(op, 200, {"id": "not-an-int"})
    assert errors and "id" in errors[0]


def test_substitute_resolves_placeholders_keeping_types():
    responses = [{"id": "u1", "items": [{"id": 7}]}]
    assert substitute({"path": "/users/${0.id}/playlists", "n": "${0.items.0.id}"}, responses) == {
        "path": "/users/u1/playlists",
        "n": 7,
    }
    with pytest.raises(ReferenceError_):
        substitute("${1.id}", responses)


def test_path_metrics():
    assert is_subsequence(["GET /a", "GET /b"], ["GET /a", "GET /x", "GET /b"])
    assert not is_subsequence(["GET /b", "GET /a"], ["GET /a", "GET /b"])
    metrics = aggregate_restbench(
        [
            {"success": True, "correct_path": True, "api_calls": 3, "gold_len": 2},
            {"success": False, "correct_path": True, "api_calls": 5, "gold_len": 2},
        ]
    )
    assert metrics == {
        "success_rate": 0.5,
        "correct_path_rate": 1.0,
        "delta_solution_len": 1.0,
        "mean_api_calls": 4.0,
    }
