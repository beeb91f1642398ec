"""Shared fixtures: the typed Spotify spec, a sandbox client, and episodes built from raw calls."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from openapi_schema_validator import OAS30Validator

from restgraph.evals.scorers.spotify_predicates import Episode
from restgraph.tools.sandbox.spotify.app import create_app
from restgraph.tools.sandbox.spotify.models import SpotifyState
from restgraph.tools.sandbox.spotify.schema import typed_spec
from restgraph.tools.sandbox.spotify.state import initial_state


@pytest.fixture(scope="session")
def spotify_spec(data_dir) -> dict[str, Any]:
    from restgraph.evals.datasets.restbench import load_spec

    return typed_spec(load_spec("spotify"))


@pytest.fixture(scope="session")
def schema_errors(spotify_spec) -> Callable[[str, str, int, Any], list[str]]:
    """``(method, template, status, body) -> errors`` against the spec's response schema."""
    from restgraph.tools.openapi import operations

    ops = {op.key: op for op in operations(spotify_spec)}
    cache: dict[tuple[str, int], OAS30Validator | None] = {}

    def check(method: str, template: str, status: int, body: Any) -> list[str]:
        key = f"{method} {template}"
        if key not in ops:
            return [f"{key} is not in the spec"]
        if (key, status) not in cache:
            schema = ops[key].response_schema(status)
            cache[(key, status)] = OAS30Validator(schema) if schema is not None else None
        validator = cache[(key, status)]
        if validator is None:
            documented = str(status) in ops[key].operation.get("responses", {})
            return [] if documented else [f"{key} answered undocumented status {status}"]
        return [
            f"{key} {status} {'/'.join(map(str, e.absolute_path))}: {e.message[:200]}"
            for e in validator.iter_errors(body)
        ]

    return check


@pytest.fixture
def app():
    return create_app()


@pytest.fixture
def client(app) -> TestClient:
    return TestClient(app, base_url="https://api.spotify.com")


def auth(token: str = "tok") -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Driver:
    """Sends raw requests as one user and turns the result into a predicate ``Episode``."""

    def __init__(self, client: TestClient, token: str):
        self.client, self.token = client, token

    def __call__(self, method: str, path: str, params: dict[str, Any] | None = None, body: Any = None) -> Any:
        response = self.client.request(
            method, "/v1" + path, params=params, json=body, headers=auth(self.token)
        )
        assert response.status_code < 300, (method, path, response.status_code, response.text)
        return response.json() if response.content else None

    def episode(self, answer: str = "") -> Episode:
        snap = self.client.app.state.store.snapshot(self.token)
        from restgraph.tools.sandbox.spotify.models import LogEntry

        return Episode(
            initial=initial_state(),
            final=SpotifyState.model_validate(snap["final_state"]),
            answer=answer,
            log=[LogEntry.model_validate(e) for e in snap["request_log"]],
        )


@pytest.fixture
def user(client) -> Driver:
    return Driver(client, "user-under-test")
