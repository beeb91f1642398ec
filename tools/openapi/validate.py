"""Validating sandbox responses against the spec's response schemas (openapi-schema-validator).

Used by the sandboxes' tests and by the oracle checks: a response that does not validate is a
sandbox bug, because agents read the spec to decide what to parse.
"""

from __future__ import annotations

from typing import Any

from openapi_schema_validator import OAS30Validator

from restgraph.tools.openapi.spec import Operation


def validate_response(op: Operation, status: int, body: Any) -> list[str]:
    """Schema errors of ``body`` for ``op`` at ``status`` (empty list: valid or nothing to check)."""
    schema = op.response_schema(status)
    if schema is None:
        return []
    validator = OAS30Validator(schema)
    return [
        f"{'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message[:300]}"
        for e in validator.iter_errors(body)
    ]
