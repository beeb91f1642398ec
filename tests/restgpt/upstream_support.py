"""Helpers for the differential tests against the original RestGPT (upstream_vectors/).

An episode recorded from the original code is replayed: its completions through
``scripted:replay?file=...`` and its HTTP exchanges through a transport that answers each request
with the recorded response (and fails on any request the original did not make), so every prompt
restgraph builds can be compared with the recorded one.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from langchain_core.callbacks import AsyncCallbackHandler

from restgraph.agents.models import make_chat_model
from restgraph.tools.openapi import HttpTool, OpenAPIEnvironment, operations

OFFICIAL = {"tmdb": "https://api.themoviedb.org/3", "spotify": "https://api.spotify.com/v1"}


def data_root() -> Path:
    root = os.environ.get("RESTGRAPH_DATA_DIR")
    if not root or not (Path(root) / "restbench" / "upstream_vectors").is_dir():
        pytest.skip("RESTGRAPH_DATA_DIR with restbench/upstream_vectors is needed for the differential tests")
    return Path(root)


def vector(name: str) -> dict[str, Any]:
    return json.loads((data_root() / "restbench" / "upstream_vectors" / f"{name}.json").read_text())


def spec(scenario: str) -> dict[str, Any]:
    from restgraph.evals.datasets.restbench import load_spec

    return load_spec(scenario)


class PromptLog(AsyncCallbackHandler):
    """Every chat-model call's messages and stop sequences, in order."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    async def on_chat_model_start(self, serialized: Any, messages: list[list[Any]], **kwargs: Any) -> None:
        batch = messages[0]
        stop = (kwargs.get("invocation_params") or {}).get("stop")
        self.calls.append({"n_messages": len(batch), "prompt": str(batch[-1].content), "stop": stop})


def replay_transport(exchanges: list[dict[str, Any]]) -> httpx.MockTransport:
    """Answers the i-th request with the i-th recorded response after checking method and path."""
    queue = list(exchanges)

    def handler(request: httpx.Request) -> httpx.Response:
        assert queue, f"unexpected extra request {request.method} {request.url}"
        expected = queue.pop(0)
        assert request.method == expected["method"]
        assert request.url.path.rstrip("/").endswith(
            urlsplit(expected["url"]).path.split("/", 2)[-1].rstrip("/")
        )
        if expected.get("json") is not None:
            assert json.loads(request.content) == expected["json"]
        return httpx.Response(
            expected["status"], text=expected["response_text"], headers={"content-type": "application/json"}
        )

    return httpx.MockTransport(handler)


def replay_env(scenario: str, exchanges: list[dict[str, Any]]) -> OpenAPIEnvironment:
    full = spec(scenario)
    base = OFFICIAL[scenario]
    http = HttpTool(
        base, transport=replay_transport(exchanges), endpoint_keys=[op.key for op in operations(full)]
    )
    return OpenAPIEnvironment(scenario, full, http, base)


def replay_model(completions: list[str], tmp_path: Path) -> Any:
    path = tmp_path / "completions.json"
    path.write_text(json.dumps(completions))
    return make_chat_model(f"scripted:replay?file={path}")


async def drive(graph: Any, query: str, limit: int = 400) -> tuple[dict[str, Any], PromptLog]:
    log = PromptLog()
    state = await graph.ainvoke(
        {"instruction": query, "task_id": "t"}, {"callbacks": [log], "recursion_limit": limit}
    )
    return state, log
