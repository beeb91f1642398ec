"""RestGPT's OpenAPI reduction (``utils/oas_utils.py``), re-implemented for the upstream prompt pack.

The upstream prompts show this reduction's output: the selector lists ``METHOD /path`` with the
description up to its first '.', in the spec's own method order; the caller shows the reduced
operation as YAML; the parser shows the ``200`` schema's properties as JSON. Reproducing its
exact shape (only operation-level parameters, only the ``200`` response, ``allOf`` merged the way
upstream merges it, which drops an ``allOf`` object's sibling keys) is what makes those texts
identical. The fixed reducer (``restgraph.tools.openapi.reduce``) still decides which endpoints exist.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

_METHODS = ("get", "post", "patch", "delete", "put")


@dataclass(frozen=True)
class UpstreamEndpoint:
    name: str  # "METHOD /template"
    description: str | None
    docs: dict[str, Any]


def _merge(parts: list[Any]) -> dict[str, Any]:
    merged: dict[str, Any] = {"properties": {}, "required": [], "type": "object"}
    for part in parts:
        if "allOf" in part:
            inner = _merge(part["allOf"])
            merged["properties"].update(inner["properties"])
            merged["required"].extend(inner.get("required", []))
            continue
        if "properties" in part:
            merged["properties"].update(part["properties"])
        if "required" in part:
            merged["required"].extend(part["required"])
    return merged


def merge_allof_properties(obj: Any) -> Any:
    """Upstream's ``merge_allof_properties``: an object holding ``allOf`` becomes the merged object."""
    if isinstance(obj, dict):
        out: dict[str, Any] = {}
        for key, value in obj.items():
            if key == "allOf":
                return merge_allof_properties(_merge(value))
            out[key] = merge_allof_properties(value) if isinstance(value, dict | list) else value
        return out
    if isinstance(obj, list):
        return [merge_allof_properties(v) for v in obj]
    return obj


def _reduce_docs(docs: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if docs.get("description"):
        out["description"] = docs["description"]
    if docs.get("parameters"):
        out["parameters"] = list(docs["parameters"])
    if docs.get("requestBody"):
        out["requestBody"] = docs["requestBody"]
    responses = docs.get("responses") or {}
    if "200" in responses:
        out["responses"] = responses["200"]
    return out


def reduce_upstream(spec: dict[str, Any], *, merge_allof: bool) -> list[UpstreamEndpoint]:
    """``reduce_openapi_spec(spec, only_required=False, merge_allof=...)`` over a dereferenced spec."""
    endpoints = []
    for route, item in spec.get("paths", {}).items():
        for method, docs in item.items():
            if method not in _METHODS:
                continue
            full = copy.deepcopy(docs)
            if merge_allof:
                full = merge_allof_properties(full)
            endpoints.append(
                UpstreamEndpoint(f"{method.upper()} {route}", docs.get("description"), _reduce_docs(full))
            )
    return endpoints


def endpoint_listing(endpoints: list[UpstreamEndpoint]) -> str:
    """The selector's ``{endpoints}``: name and description up to the first '.'."""
    return "\n".join(
        f"{e.name} {e.description.split('.')[0] if e.description is not None else ''}" for e in endpoints
    )
