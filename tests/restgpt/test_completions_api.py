"""The completions protocol (``-M api=completions``): what reaches ``POST /v1/completions`` is what
the original RestGPT sent: the recorded prompt text byte for byte, temperature 0, the published
cap as ``max_tokens`` and each role's stop sequences (none for the parser's calls).

A recorded upstream episode is replayed through the real OpenAI client against an in-process fake
server that answers with the recorded completions; a run through the CLI's runner shows the
protocol recorded in config.json."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from fastapi import FastAPI, Request

from restgraph.agents.models import make_chat_model
from restgraph.evals.benchmark import RunOptions
from restgraph.evals.runner import EpisodeRunner
from restgraph.graphs.restgpt import build_restgpt
from restgraph.tools.openapi.serve import serve_on_loopback
from tests.restgpt.upstream_support import data_root, drive, replay_env, vector


def completion_body(text: str, model: str) -> dict[str, Any]:
    choice = {"index": 0, "text": text, "finish_reason": "stop", "logprobs": None}
    usage = {"prompt_tokens": 5, "completion_tokens": 2, "total_tokens": 7}
    return {
        "id": "c",
        "object": "text_completion",
        "created": 0,
        "model": model,
        "choices": [choice],
        "usage": usage,
    }


@pytest.mark.parametrize(("episode", "cap"), [("tmdb_q000", 256), ("spotify_q000", 700)])
async def test_every_request_is_the_recorded_prompt_on_the_completions_endpoint(
    episode: str, cap: int
) -> None:
    rec = vector(episode)
    calls = rec["calls"]
    sent: list[tuple[str, dict[str, Any]]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        sent.append((request.url.path, body))
        return httpx.Response(200, json=completion_body(calls[len(sent) - 1]["completion"], body["model"]))

    # text-davinci-003 is a completion model: the protocol is completions without being asked
    model = make_chat_model(
        "openai:text-davinci-003",
        base_url="http://fake.invalid/v1",
        api_key="k",
        temperature=0.0,
        max_tokens=cap,
        http_async_client=httpx.AsyncClient(transport=httpx.MockTransport(handler)),
    )
    graph = build_restgpt(model, replay_env(rec["scenario"], rec["http"]), {})
    state, _ = await drive(graph, rec["query"])
    assert state["status"] == "finished", state.get("error")
    assert len(sent) == len(calls)
    for i, ((path, body), want) in enumerate(zip(sent, calls, strict=True)):
        assert path == "/v1/completions", i
        assert body["prompt"] == want["prompt"], f"call {i} ({want['role']}/{want['template']}) differs"
        assert body.get("stop") == want["stop"], f"call {i} stop"  # omitted where the original had none
        assert body["temperature"] == 0 and body["max_tokens"] == cap and body["model"] == "text-davinci-003"
        assert body["top_p"] == 1 and body["n"] == 1 and "messages" not in body


def fake_server(seen: list[tuple[str, dict[str, Any]]]) -> FastAPI:
    app = FastAPI()

    @app.post("/v1/completions")
    async def completions(request: Request) -> dict[str, Any]:
        body = await request.json()
        seen.append(("completions", body))
        return completion_body(" Final Answer: nothing to do", body["model"])

    @app.post("/v1/chat/completions")
    async def chat(request: Request) -> dict[str, Any]:
        body = await request.json()
        seen.append(("chat", body))
        message = {"role": "assistant", "content": "Final Answer: nothing to do"}
        choice = {"index": 0, "message": message, "finish_reason": "stop"}
        return {"id": "c", "object": "chat.completion", "created": 0, "model": "m", "choices": [choice]}

    return app


async def test_a_run_with_api_completions_sends_the_first_planner_prompt_and_records_it(
    data_dir, tmp_path
) -> None:
    rows = (data_root() / "restbench" / "upstream_vectors" / "first_planner_prompts.jsonl").read_text()
    first = next(json.loads(line) for line in rows.splitlines() if '"tmdb"' in line)
    seen: list[tuple[str, dict[str, Any]]] = []
    async with serve_on_loopback(fake_server(seen)) as url:
        for name, extra in (("completions", {"api": "completions"}), ("chat", {})):
            await EpisodeRunner(
                RunOptions(
                    benchmark="restbench-tmdb",
                    agent="restgpt",
                    model="openai:llama-2-13b",
                    limit=1,
                    model_options={"base_url": url + "/v1", "api_key": "k", **extra},
                ),
                tmp_path / name,
                progress=False,
            ).run()
    kinds = [kind for kind, _ in seen]
    assert kinds == ["completions", "chat"]
    body = seen[0][1]
    assert body["prompt"] == first["prompt"] and body["stop"] == first["stop"]
    assert body["temperature"] == 0 and body["max_tokens"] == 256
    for name in ("completions", "chat"):
        config = json.loads((tmp_path / name / "config.json").read_text())
        assert config["options"]["model_options"]["api"] == name
        assert (
            json.loads((tmp_path / name / "traces.jsonl").read_text().splitlines()[0])["status"] == "finished"
        )
