"""The Spotify sandbox answers in the real API's wire format (Jackson's pretty printing), and that text
is what RestGPT reads: upstream's caller hands on ``response.text``, so the bytes and tokens of a
Spotify episode are those of the format, not of the JSON values alone (issue 32)."""

from __future__ import annotations

import json
from pathlib import Path

import orjson

from restgraph.evals.benchmark import RunOptions
from restgraph.evals.runner import run_sync
from restgraph.evals.trace import TraceStore
from restgraph.tools.sandbox.spotify import wire
from tests.restbench_spotify.conftest import auth


def test_a_profile_reads_as_the_real_api_sent_it(client):
    text = client.get("/v1/me", headers=auth()).text
    assert text.startswith('{\n  "external_urls" : {\n    "spotify" : "https://open.spotify.com/user/')
    assert '\n  },\n  "href" : "https://api.spotify.com/v1/users/' in text
    assert '"images" : [ {\n    "height" : 64,' in text and not text.endswith("\n")


def test_a_search_page_nests_objects_in_arrays_without_indenting_them(client):
    response = client.get("/v1/search", params={"q": "Taylor Swift", "type": "track"}, headers=auth())
    text, body = response.text, response.json()
    assert response.headers["content-type"].startswith("application/json")
    assert text.startswith('{\n  "tracks" : {\n    "href" : ')
    assert '"items" : [ {\n      "album" : {\n        "album_type" : ' in text
    assert '"available_markets" : [ "AD", "AE", ' in text  # scalar arrays stay on one line
    assert "\n      }, {\n" in text and "\n    } ],\n" in text
    assert len(text.encode()) > 1.2 * len(orjson.dumps(body))


def test_errors_are_pretty_too(client):
    text = client.get("/v1/albums/nope", headers=auth()).text
    assert text.startswith('{\n  "error" : {\n    "status" : ')


def test_every_json_value_round_trips():
    values = [
        {},
        [],
        {"a": [], "b": {}, "c": [{"x": 1}, {"y": [1, 2.5, None, True]}]},
        ["AD", 'say "hi"', "back\\slash", "line\nbreak", "é", "\u2028", '","'],
        {"deep": [[[{"z": [[], {}]}]]], "": "", 'é"': -1},
    ]
    for value in values:
        assert json.loads(wire.dumps(value)) == value
    assert wire.dumps({"a": [{"b": [1, {"c": []}]}]}).decode() == (
        '{\n  "a" : [ {\n    "b" : [ 1, {\n      "c" : [ ]\n    } ]\n  } ]\n}'
    )


def test_the_no_parser_reader_is_shown_the_pretty_text(tmp_path: Path, data_dir: Path):
    """Where a researcher looks: the recorded prompt of RestGPT without its parser holds the response
    as the wire carried it."""
    options = RunOptions(
        benchmark="restbench-spotify",
        agent="restgpt-no-parser",
        model="scripted:restgpt-oracle",
        task_ids=["spotify/17"],
    )
    run_sync(options, tmp_path / "run", progress=False)
    (trace,) = TraceStore(tmp_path / "run").load().traces
    prompts = [
        "\n".join(str(m.get("content") or "") for m in call.messages or [])
        for step in trace.steps
        for call in step.model_calls
        if call.role == "parser"
    ]
    assert prompts and any('JSON response:\n{\n  "' in p and '" : ' in p for p in prompts)
