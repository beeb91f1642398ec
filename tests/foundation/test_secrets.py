"""Secrets in a model reply or in a tool call never reach traces.jsonl, config.json or summaries."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from langchain_core.messages import HumanMessage
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from restgraph.agents.scripted import register_scripted
from restgraph.evals.redact import REDACTED, redact
from restgraph.graphs.chat import ChatState
from restgraph.graphs.registry import register_agent
from restgraph.tools.events import HttpExchange, emit
from tests.foundation.conftest import cli, one_node_graph, trace_rows

OPENAI_KEY = "sk-proj-" + "A1b2C3d4E5f6G7h8I9j0K1l2"
BEARER = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJl"
CLI_KEY = "my-endpoint-key-7f3a9c"  # no recognisable shape: only registration can catch it
BASIC = "dXNlcjpodW50ZXIydmVyeXNlY3JldA=="
AUTH_TOKEN = "tok-5e1d9a7c3b2f"
QUERY_KEY = "0123456789abcdef0123456789abcdef"  # a TMDB-style v3 key


def _leaky_policy(task: Any, params: dict[str, str]):
    return lambda messages: (
        f"Sure. Use {OPENAI_KEY} with header 'Authorization: Bearer {BEARER}'; the endpoint key is {CLI_KEY}. Answer: 42"
    )


register_scripted("test-leaky", _leaky_policy)


def _files(run_dir: Path) -> dict[str, str]:
    """Every file of the run as text (the gzip'd prompt store decompressed: secrets must not hide there)."""
    return {
        p.name: (gzip.decompress(p.read_bytes()) if p.suffix == ".gz" else p.read_bytes()).decode("utf-8")
        for p in run_dir.iterdir()
        if p.is_file()
    }


def _assert_clean(run_dir: Path, secrets: list[str]) -> None:
    files = _files(run_dir)
    assert {"traces.jsonl", "config.json", "summary.json"} <= set(files)
    for name, text in files.items():
        for secret in secrets:
            assert secret not in text, f"{secret!r} leaked into {name}"
    assert REDACTED in files["traces.jsonl"]


def test_secrets_in_a_model_reply_and_the_api_key_option_are_redacted(tmp_path: Path) -> None:
    result = cli(
        "run",
        "smoke",
        "--model",
        "scripted:test-leaky",
        "--api-key",
        CLI_KEY,
        "-B",
        "n=3",
        "--out",
        tmp_path,
        "--quiet",
    )
    assert result.exit_code == 0, result
    _assert_clean(tmp_path, [OPENAI_KEY, BEARER, CLI_KEY])
    assert CLI_KEY not in result.stdout + result.stderr
    row = trace_rows(tmp_path)[0]
    raw = row["steps"][0]["model_calls"][0]["raw_output"]
    assert raw.startswith("Sure. Use [REDACTED]") and raw.endswith("Answer: 42")  # the rest is kept
    assert (
        json.loads((tmp_path / "config.json").read_text())["options"]["model_options"]["api_key"] == REDACTED
    )


def _tool_agent(model: Any, env: Any, options: dict[str, Any]) -> Any:
    async def act(state: ChatState) -> dict[str, Any]:
        emit(
            HttpExchange(
                name="GET /search/movie",
                method="GET",
                path="/search/movie",
                url=f"https://api.themoviedb.org/3/search/movie?api_key={QUERY_KEY}&query=batman",
                params={"api_key": QUERY_KEY, "query": "batman", "page": 1},
                body={"client_secret": "cs-8d7f6e5d4c3b", "password": 12345678},
                status=200,
                response=json.dumps({"echo_headers": f"Authorization: Basic {BASIC}", "results": []}),
                details={
                    "headers": {
                        "Authorization": f"Bearer {BEARER}",
                        "X-Auth-Token": AUTH_TOKEN,
                        "Proxy-Authorization": f"Basic {BASIC}",
                        "Accept": "application/json",
                    }
                },
            )
        )
        await model.ainvoke([HumanMessage(state["instruction"])])
        return {"final_answer": "done", "status": "finished"}

    return one_node_graph(act)


register_agent("test-tool-secrets", _tool_agent, env_kind="none")


def test_secrets_in_a_tool_call_are_redacted_and_the_rest_is_kept(tmp_path: Path) -> None:
    result = cli(
        "run",
        "smoke",
        "--agent",
        "test-tool-secrets",
        "--model",
        "scripted:smoke-oracle",
        "-B",
        "n=2",
        "--out",
        tmp_path,
        "--quiet",
    )
    assert result.exit_code == 0, result
    _assert_clean(tmp_path, [QUERY_KEY, BEARER, BASIC, AUTH_TOKEN, "cs-8d7f6e5d4c3b", "12345678"])
    call = trace_rows(tmp_path)[0]["steps"][0]["tool_calls"][0]
    assert call["params"] == {"api_key": REDACTED, "query": "batman", "page": 1}
    assert call["extra"]["headers"]["Accept"] == "application/json"
    assert call["url"].endswith("query=batman")


async def test_http_tool_token_echoed_by_the_server_is_redacted() -> None:
    """The real HttpTool: its token is registered, so even a server echoing it back is cleaned."""
    from restgraph.evals.recording import EpisodeRecorder, reset_recorder, set_recorder
    from restgraph.tools.openapi.client import HttpTool

    async def echo(request: Request) -> JSONResponse:
        return JSONResponse({"you_sent": request.headers.get("authorization")})

    token = "spotify-user-token-a1b2c3d4"
    app = Starlette(routes=[Route("/v1/me", echo)])
    tool = HttpTool("http://sandbox/v1", transport=httpx.ASGITransport(app=app), token=token)
    recorder = EpisodeRecorder()
    reset = set_recorder(recorder)
    try:
        result = await tool.request("GET", "/me")
    finally:
        reset_recorder(reset)
        await tool.aclose()
    assert token in result.text  # the agent does see it; the trace must not
    step = recorder.close_step("act")
    assert token not in json.dumps(redact(step.model_dump(mode="json")))


@pytest.mark.parametrize(
    "key",
    [
        "Authorization",
        "authorization",
        "X-API-Key",
        "api_key",
        "apiKey",
        "X-Auth-Token",
        "Proxy-Authorization",
        "access_token",
        "refresh_token",
        "client_secret",
        "password",
        "Cookie",
        "Set-Cookie",
        "X-Goog-Api-Key",
        "private_key",
    ],
)
def test_secret_keys_are_redacted_whatever_the_value_type(key: str) -> None:
    assert redact({key: "s3cr3t-value-1"}) == {key: REDACTED}
    assert redact({"nested": [{key: 987654321}]}) == {"nested": [{key: REDACTED}]}


@pytest.mark.parametrize(
    "key", ["max_tokens", "input_tokens", "query", "keyword", "page", "author", "passage"]
)
def test_ordinary_keys_are_kept(key: str) -> None:
    assert redact({key: "value-1234567"}) == {key: "value-1234567"}


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (f"Authorization: Basic {BASIC}", BASIC),
        (f'{{"api_key": "{QUERY_KEY}"}}', QUERY_KEY),
        (f"GET /x?api_key={QUERY_KEY}&page=2", QUERY_KEY),
        (f"x-api-key: {QUERY_KEY}", QUERY_KEY),
        ("hf_" + "a" * 30, "hf_" + "a" * 30),
        ("AKIA" + "ABCDEFGHIJKLMNOP", "AKIAABCDEFGHIJKLMNOP"),
    ],
)
def test_secret_shaped_text_is_redacted(text: str, secret: str) -> None:
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "BEARER abcdefgh12345678",
        "Authorization: Basic dXNlcjpwYXNzd29yZA==",
        "X-API-KEY: abcdef123456",
        "https://x/y?API_KEY=abcdef123456",
        "ACCESS-TOKEN = 'abcdef123456'",
        "client_secret: abcdef123456",
        "sk-proj-ABCDEFGHIJKLMNOPQRST",
        "hf_ABCDEFGHIJKLMNOPQRSTUV",
        "ghs_ABCDEFGHIJKLMNOPQRSTUV",
        "AKIAABCDEFGHIJKLMNOP",
        "pasſword=abcdef123456",  # (?i) folds the long s to 's': the cheap pre-check must fold it too
    ],
)
def test_the_cheap_pre_check_never_skips_a_secret_shape(text: str) -> None:
    from restgraph.tools.redact import redact_text

    assert "[REDACTED]" in redact_text(f"some prose around it: {text} and after")


def test_every_pattern_trigger_passes_a_gate() -> None:
    """The gates are a necessary condition: each trigger of each pattern contains one of them."""
    from restgraph.tools.redact import _GATES, _PATTERNS

    assert all(any(g in t for g in _GATES) for _, triggers in _PATTERNS for t in triggers)


CLEAN_DOC = {
    "steps": [
        {
            "node": "model",
            "update": {
                "messages": [{"type": "human", "content": "What is 3 + 4? Reply with the number only."}]
            },
            "input_tokens": 10,
        }
    ],
    "extra": {"in_flight": 3},
    "final_answer": "7",
}


@pytest.mark.parametrize(
    "doc",
    [
        {"content": f"use {OPENAI_KEY} now", "n": 1},  # a secret shape in a string
        {"headers": {"Authorization": "Basic abc123"}, "n": 1},  # a secret-named field
        {"a": {"Set-Cookie": 12345678}},  # a secret-named field holding a number
        {"passwd": "x" * 8},  # a secret-named field without a gate word in its name ...
        {"session": {"pasſword": "abcdef123456"}},  # ... or with a folded letter
        {"deep": [[{"text": f"Bearer {BEARER}"}]]},
        {"big": 10**30, "text": f"Bearer {BEARER}"},  # not plain JSON for orjson: walked
        CLEAN_DOC,
    ],
    ids=lambda d: next(iter(d)),
)
def test_redact_document_is_redact(doc: dict[str, Any]) -> None:
    from restgraph.tools.redact import redact_document

    assert redact_document(doc, plain_keys=("input_tokens", "in_flight")) == redact(doc)


#: a RestGPT-sized prompt: gate words everywhere ("keywords"), lines repeated, nothing secret
PROMPT = "GET /movie/{movie_id}/keywords Get the keywords that have been added to a movie.\n" * 400


@pytest.mark.parametrize(
    "doc",
    [
        {"content": f"use {OPENAI_KEY} now", "n": 1},
        {"headers": {"Authorization": "Basic abc123"}, "n": 1},
        {"a": {"Set-Cookie": 12345678}},
        {"session": {"pasſword": "abcdef123456"}},
        {"deep": [[{"text": f"Bearer {BEARER}"}]]},
        {"text": f"Authorization:\n  {AUTH_TOKEN}"},  # a match across a line break
        {"text": PROMPT.replace("added to", f"added to (key={QUERY_KEY})", 1)},  # one line in 400
        {"text": "ok"},
    ],
    ids=lambda d: next(iter(d)),
)
def test_a_large_document_is_checked_string_by_string_and_still_redacted(doc: dict[str, Any]) -> None:
    """Past the size where scanning its JSON text pays (it always finds "key" in a RestGPT trace),
    a document is walked, each string's lines checked against a memo of the lines seen clean: the
    same result as ``redact``, and a clean document is returned as is, without a copy."""
    from restgraph.tools.redact import redact_document

    big = {"prompts": [PROMPT, PROMPT + "one more line\n"], **doc}
    redact_document({"warm": PROMPT})  # its lines are in the memo now: a later secret must still be found
    assert redact_document(big) == redact(big)
    if redact(big) == big:
        assert redact_document(big) is big


def test_redact_document_skips_the_walk_only_when_nothing_could_match() -> None:
    """A clean trace is returned as is (no walk); a registered secret, even one JSON escapes, still
    forces the walk and is redacted."""
    from restgraph.tools.redact import redact_document, register_secret

    assert redact_document(CLEAN_DOC, plain_keys=("input_tokens", "in_flight")) is CLEAN_DOC
    assert redact_document(CLEAN_DOC) is not CLEAN_DOC  # "input_tokens" holds a gate word: walked
    odd = 'q"uo\\te\n-7Zx9'  # nothing secret-shaped, and escaped in JSON text
    register_secret(odd)
    assert redact_document({"a": [f"x{odd}y"]}) == {"a": [f"x{REDACTED}y"]}


def test_plain_trace_keys_name_no_secret() -> None:
    from restgraph.evals.trace import PLAIN_KEYS
    from restgraph.tools.redact import _SECRET_KEYS

    assert not any(_SECRET_KEYS.match(key) for key in PLAIN_KEYS)
