"""A tiny fake API (FastAPI, in-process) and helpers to drive RestGPT-family graphs with role policies."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from fastapi import FastAPI, Response
from langchain_core.messages import BaseMessage

from restgraph.agents.restgpt.llm import message_role
from restgraph.agents.scripted import ScriptedChatModel
from restgraph.evals.recording import EpisodeRecorder, TraceCallbackHandler, reset_recorder, set_recorder
from restgraph.tools.openapi import HttpTool, OpenAPIEnvironment, operations

BASE = "http://fake.test/api"

SPEC: dict[str, Any] = {
    "openapi": "3.0.0",
    "info": {"title": "fake", "version": "1"},
    "servers": [{"url": BASE}],
    "paths": {
        "/items/{item_id}": {
            "parameters": [
                {"name": "item_id", "in": "path", "required": True, "schema": {"type": "integer"}}
            ],
            "get": {
                "description": "Get an item. Returns its name.",
                "responses": {
                    "200": {
                        "description": "ok",
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}},
                    },
                    "404": {"description": "missing"},
                },
            },
        },
        "/search": {
            "get": {
                "description": "Search things by name. Types are item and tag.",
                "parameters": [
                    {"name": "q", "in": "query", "schema": {"type": "string"}},
                    {"name": "type", "in": "query", "schema": {"type": "string"}},
                ],
                "responses": {
                    "200": {
                        "description": "ok",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "properties": {
                                        "items": {
                                            "type": "array",
                                            "items": {"$ref": "#/components/schemas/Item"},
                                        },
                                        "tags": {"type": "array", "items": {"type": "string"}},
                                    },
                                }
                            }
                        },
                    }
                },
            }
        },
        "/things": {
            "post": {
                "description": "Create a thing.",
                "requestBody": {"content": {"application/json": {"schema": {"type": "object"}}}},
                "responses": {
                    "201": {
                        "description": "made",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "allOf": [
                                        {"$ref": "#/components/schemas/Item"},
                                        {"type": "object", "properties": {"created": {"type": "boolean"}}},
                                    ]
                                }
                            }
                        },
                    }
                },
            }
        },
        "/player/pause": {
            "put": {"description": "Pause. No body.", "responses": {"204": {"description": "done"}}}
        },
    },
    "components": {
        "schemas": {
            "Item": {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}
        }
    },
}


def fake_app() -> FastAPI:
    app = FastAPI()
    names = {1: "apple", 2: "pear"}

    @app.get("/api/items/{item_id}")
    def item(item_id: int, response: Response) -> dict[str, Any]:
        if item_id not in names:
            response.status_code = 404
            return {"status_message": "The resource you requested could not be found."}
        return {"id": item_id, "name": names[item_id]}

    @app.get("/api/search")
    def search(q: str = "", type: str = "item") -> dict[str, Any]:
        return {
            "items": [{"id": i, "name": n} for i, n in names.items() if q.lower() in n],
            "tags": ["fruit"],
        }

    @app.post("/api/things", status_code=201)
    def things(body: dict[str, Any]) -> dict[str, Any]:
        return {"id": 3, "name": body.get("name", "?"), "created": True}

    @app.put("/api/player/pause", status_code=204)
    def pause() -> Response:
        return Response(status_code=204)

    return app


@pytest.fixture
def fake_env() -> OpenAPIEnvironment:
    from restgraph.tools.openapi import dereference

    spec = dereference(SPEC)
    http = HttpTool(
        BASE, transport=httpx.ASGITransport(app=fake_app()), endpoint_keys=[op.key for op in operations(spec)]
    )
    return OpenAPIEnvironment("fake", spec, http, BASE)


Handler = Callable[[str, str, str], str]


def role_model(handlers: dict[str, Any], *, structured: bool = False) -> ScriptedChatModel:
    """A scripted model answering per role: ``handlers[role]`` is a string, a list (consumed in
    order, last one repeated) or ``fn(system, user) -> str``."""
    counters: dict[str, int] = {}

    def policy(messages: list[BaseMessage]) -> str:
        role = message_role(messages)
        handler = handlers.get(role, handlers.get("*", "Final Answer: none"))
        if callable(handler):
            return handler(str(messages[0].content), str(messages[-1].content))
        if isinstance(handler, list):
            i = counters.get(role, 0)
            counters[role] = i + 1
            return handler[min(i, len(handler) - 1)]
        return handler

    return ScriptedChatModel(policy=policy, structured=structured)


async def run_graph(
    graph: Any, instruction: str = "what is item 1 called?", recursion_limit: int = 200
) -> tuple[dict[str, Any], EpisodeRecorder]:
    recorder = EpisodeRecorder()
    token = set_recorder(recorder)
    try:
        state = await graph.ainvoke(
            {"instruction": instruction, "task_id": "t"},
            {"callbacks": [TraceCallbackHandler(recorder)], "recursion_limit": recursion_limit},
        )
    finally:
        recorder.flush()
        reset_recorder(token)
    return state, recorder


def caller_op(
    method: str,
    path: str,
    params: dict[str, Any] | None = None,
    data: Any = None,
    instructions: str = "the name",
) -> str:
    payload: dict[str, Any] = {"url": BASE + path, "description": "d", "output_instructions": instructions}
    if params:
        payload["params"] = params
    if data is not None:
        payload["data"] = data
    return f"Thought: call it\nOperation: {method}\nInput: {json.dumps(payload)}"


def http_calls(recorder: EpisodeRecorder) -> list[Any]:
    return [c for s in recorder.steps for c in s.tool_calls if c.kind == "http"]


def model_calls(recorder: EpisodeRecorder) -> list[Any]:
    return [c for s in recorder.steps for c in s.model_calls]
