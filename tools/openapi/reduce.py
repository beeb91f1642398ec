"""RestGPT-style OpenAPI reduction: the compact per-endpoint docs the selector, caller and parser read.

RestGPT forked LangChain's OpenAPI-agent reducer (restbench.md §3.4): keep get/post/put/patch/delete,
dereference, optionally merge ``allOf``, keep ``description``, ``parameters``, ``requestBody`` and
only the ``200`` response. That reducer has two documented pitfalls which the default here fixes
(``faithful=True`` reproduces them for comparison runs):

- path-item ``parameters`` were dropped, so TMDB's 34 path parameters were invisible; here they are
  merged into each operation (the operation wins on a (name, in) clash);
- only ``200`` was kept, so Spotify's 201/204 operations had no response schema; here the lowest
  2xx response with a JSON body is kept.

Everything returned is a deep copy: narrowing a schema (Spotify ``GET /search`` per ``type``, §3.5)
must never touch the shared spec (upstream defect 4).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from restgraph.tools.openapi.spec import HTTP_METHODS, dereference, merge_parameters

#: characters per token for the "cut to N tokens" approximations (no tokenizer at run time)
CHARS_PER_TOKEN = 4


def cut_tokens(text: str, tokens: int, suffix: str = "...") -> str:
    """Cut ``text`` to about ``tokens`` tokens (chars/4 approximation, documented as such)."""
    limit = tokens * CHARS_PER_TOKEN
    return text if len(text) <= limit else text[:limit] + suffix


@dataclass
class ReducedEndpoint:
    """One operation as RestGPT's roles see it."""

    method: str
    path: str
    description: str
    parameters: list[dict[str, Any]] = field(default_factory=list)
    request_body: dict[str, Any] | None = None
    #: the kept success response: status code and its JSON schema (None: bodiless)
    success_status: int | None = None
    response_schema: dict[str, Any] | None = None

    @property
    def key(self) -> str:
        return f"{self.method} {self.path}"

    @property
    def short_description(self) -> str:
        """The selector's list entry: the description up to its first '.' (as upstream)."""
        text = " ".join(self.description.split())
        return text.split(".", 1)[0].strip()

    def docs(self) -> dict[str, Any]:
        """The caller's view: everything but the responses."""
        out: dict[str, Any] = {"description": self.description}
        if self.parameters:
            out["parameters"] = self.parameters
        if self.request_body is not None:
            out["requestBody"] = self.request_body
        return out


@dataclass
class ReducedSpec:
    servers: list[dict[str, Any]]
    description: str
    endpoints: list[ReducedEndpoint]

    def get(self, key: str) -> ReducedEndpoint | None:
        return next((e for e in self.endpoints if e.key == key), None)

    @property
    def keys(self) -> list[str]:
        return [e.key for e in self.endpoints]


def merge_allof(schema: Any) -> Any:
    """Fold every ``allOf`` into one object schema (properties and required unioned), recursively."""
    if isinstance(schema, list):
        return [merge_allof(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: merge_allof(v) for k, v in schema.items() if k != "allOf"}
    for part in schema.get("allOf", []):
        part = merge_allof(part)
        if not isinstance(part, dict):
            continue
        for key, value in part.items():
            if key == "properties":
                out.setdefault("properties", {}).update(value)
            elif key == "required":
                out["required"] = sorted(set(out.get("required", [])) | set(value))
            else:
                out.setdefault(key, value)
    if "properties" in out:
        out.setdefault("type", "object")
    return out


def _json_schema(response: dict[str, Any]) -> dict[str, Any] | None:
    for media, body in (response.get("content") or {}).items():
        if "json" in media and isinstance(body, dict) and "schema" in body:
            return body["schema"]
    return None


def _success(responses: dict[str, Any], faithful: bool) -> tuple[int | None, dict[str, Any] | None]:
    if faithful:
        return (200, _json_schema(responses["200"])) if "200" in responses else (None, None)
    codes = sorted(int(c) for c in responses if str(c).isdigit() and 200 <= int(c) < 300)
    for code in codes:
        schema = _json_schema(responses[str(code)])
        if schema is not None:
            return code, schema
    return (codes[0] if codes else None), None


def reduce_openapi_spec(
    spec: dict[str, Any],
    *,
    merge_allof_schemas: bool = False,
    faithful: bool = False,
    dereferenced: bool = False,
) -> ReducedSpec:
    """Reduce a spec (raw, or already dereferenced with ``dereferenced=True``) for RestGPT's roles.

    Only the kept parts are copied (a dereferenced spec is never mutated), so reducing TMDB's
    1.3 MB spec does not deep-copy its inline examples."""
    full = spec if dereferenced else dereference(spec)
    endpoints = []
    for path, item in full.get("paths", {}).items():
        for method in HTTP_METHODS:
            if method not in item:
                continue
            op = item[method]
            params = (
                op.get("parameters", [])
                if faithful
                else merge_parameters(item.get("parameters", []), op.get("parameters", []))
            )
            status, schema = _success(op.get("responses", {}), faithful)
            body = op.get("requestBody")
            if merge_allof_schemas:
                schema, body = merge_allof(schema), merge_allof(body)
            endpoints.append(
                ReducedEndpoint(
                    method.upper(),
                    path,
                    op.get("description") or op.get("summary") or "",
                    copy.deepcopy(params),
                    copy.deepcopy(body),
                    status,
                    copy.deepcopy(schema),
                )
            )
    return ReducedSpec(
        servers=full.get("servers", []),
        description=(full.get("info") or {}).get("description", ""),
        endpoints=endpoints,
    )


def narrow_search_schema(
    schema: dict[str, Any] | None, types: str | list[str] | None
) -> dict[str, Any] | None:
    """Spotify ``GET /search``: keep only the ``{type}s`` properties the request asked for.

    Works on a deep copy and accepts a comma-separated ``type`` ("track,artist"); unknown types are
    ignored and, if nothing is left, the whole schema is returned (upstream raised KeyError)."""
    if schema is None or not types:
        return copy.deepcopy(schema)
    wanted = [t.strip() for t in (types.split(",") if isinstance(types, str) else types) if t and t.strip()]
    props = schema.get("properties") or {}
    kept = {f"{t}s": props[f"{t}s"] for t in wanted if f"{t}s" in props}
    out = copy.deepcopy(schema)
    if kept:
        out["properties"] = copy.deepcopy(kept)
        if "required" in out:
            out["required"] = [r for r in out["required"] if r in kept]
    return out
