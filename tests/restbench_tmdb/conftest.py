"""Shared fixtures: the TMDB spec's response validators and an authenticated sandbox client."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from openapi_schema_validator import OAS30Validator

from restgraph.tools.sandbox.tmdb.app import create_app


@pytest.fixture(scope="session")
def tmdb_spec(data_dir) -> dict[str, Any]:
    from restgraph.evals.datasets.restbench import load_spec

    return load_spec("tmdb")


@pytest.fixture(scope="session")
def schema_errors(tmdb_spec) -> Callable[[str, int, Any], list[str]]:
    """``(template, status, body) -> errors`` against tmdb_oas.json's response schema (undocumented 2xx is an error)."""
    from restgraph.tools.openapi import operations

    ops = {op.template: op for op in operations(tmdb_spec)}
    cache: dict[tuple[str, int], OAS30Validator | None] = {}

    def check(template: str, status: int, body: Any) -> list[str]:
        if template not in ops:
            return [f"{template} is not in the spec"]
        if (template, status) not in cache:
            schema = ops[template].response_schema(status)
            cache[(template, status)] = OAS30Validator(schema) if schema is not None else None
        validator = cache[(template, status)]
        if validator is None:
            return [] if status >= 400 else [f"{template} answered undocumented status {status}"]
        return [
            f"{template} {status} {'/'.join(map(str, e.absolute_path))}: {e.message[:200]}"
            for e in validator.iter_errors(body)
        ]

    return check


@pytest.fixture(scope="session")
def client() -> TestClient:
    return TestClient(
        create_app(), base_url="http://tmdb.test", headers={"Authorization": "Bearer test-token"}
    )
