"""Decoding as published: a default RestBench run sends temperature 0 and max_tokens 256 (TMDB) /
700 (Spotify) to an OpenAI-compatible server, one user message with upstream's stop sequences;
``-M`` overrides; config.json records what was used. The server is a fake on 127.0.0.1 that
records every request."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi import FastAPI, Request

from restgraph.evals.benchmark import RunOptions
from restgraph.evals.runner import EpisodeRunner
from restgraph.tools.openapi.serve import serve_on_loopback


def fake_openai(seen: list[dict[str, Any]]) -> FastAPI:
    app = FastAPI()

    @app.post("/v1/chat/completions")
    async def chat(request: Request) -> dict[str, Any]:
        seen.append(await request.json())
        message = {"role": "assistant", "content": "Thought: I am finished\nFinal Answer: nothing to do"}
        return {
            "id": "c1",
            "object": "chat.completion",
            "created": 0,
            "model": "fake",
            "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 3, "completion_tokens": 3, "total_tokens": 6},
        }

    return app


def sent_max_tokens(body: dict[str, Any]) -> Any:
    """The cap, under the name every OpenAI-compatible server honours (``max_completion_tokens``
    is ignored by servers that implement the older API: the reply then ran to their own limit)."""
    assert "max_completion_tokens" not in body, body
    return body["max_tokens"]


@pytest.mark.parametrize(("bench", "max_tokens"), [("restbench-tmdb", 256), ("restbench-spotify", 700)])
async def test_default_run_sends_the_published_decoding(
    data_dir, tmp_path, bench: str, max_tokens: int
) -> None:
    seen: list[dict[str, Any]] = []
    async with serve_on_loopback(fake_openai(seen)) as url:
        model_options = {"base_url": url + "/v1", "api_key": "not-a-secret"}
        await EpisodeRunner(
            RunOptions(
                benchmark=bench,
                agent="restgpt",
                model="openai:fake-davinci",
                limit=1,
                model_options=model_options,
            ),
            tmp_path / "default",
            progress=False,
        ).run()
        overridden = {**model_options, "temperature": 0.7, "max_tokens": 99}
        await EpisodeRunner(
            RunOptions(
                benchmark=bench,
                agent="restgpt",
                model="openai:fake-davinci",
                limit=1,
                model_options=overridden,
            ),
            tmp_path / "override",
            progress=False,
        ).run()
    first, override = seen[0], seen[-1]
    assert first["temperature"] == 0 and sent_max_tokens(first) == max_tokens
    assert [m["role"] for m in first["messages"]] == ["user"] and first["stop"] == [
        "\nAPI response:",
        "\n\tAPI response:",
    ]
    assert first["messages"][0]["content"].startswith("You are an agent that plans solution to user queries.")
    assert override["temperature"] == 0.7 and sent_max_tokens(override) == 99
    config = json.loads((tmp_path / "default" / "config.json").read_text())
    assert (
        config["options"]["model_options"]["temperature"] == 0.0
        and config["options"]["model_options"]["max_tokens"] == max_tokens
    )
    assert config["options"]["max_steps"] > 60  # derived from the agent's budgets


@pytest.mark.parametrize(
    ("base_url", "field"),
    [
        (
            None,
            "max_completion_tokens",
        ),  # OpenAI's own API: its current name (reasoning models refuse the old)
        ("https://api.openai.com/v1", "max_completion_tokens"),
        ("http://127.0.0.1:8000/v1", "max_tokens"),  # vLLM, llama.cpp, Ollama...: what the original sent
        ("https://models.example.org/openai/v1", "max_tokens"),
    ],
)
async def test_the_cap_goes_under_the_name_the_endpoint_honours(base_url: str | None, field: str) -> None:
    import httpx

    from restgraph.agents.models import make_chat_model

    seen: list[dict[str, Any]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(json.loads(request.content))
        message = {"role": "assistant", "content": "ok"}
        choice = {"index": 0, "message": message, "finish_reason": "stop"}
        return httpx.Response(
            200,
            json={"id": "c", "object": "chat.completion", "created": 0, "model": "m", "choices": [choice]},
        )

    client = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    model = make_chat_model(
        "openai:gpt-4o-mini", base_url=base_url, api_key="k", max_tokens=256, http_async_client=client
    )
    await model.ainvoke("hi")
    other = "max_tokens" if field == "max_completion_tokens" else "max_completion_tokens"
    assert seen[0][field] == 256 and other not in seen[0]
