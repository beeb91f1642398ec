"""``restgraph sandbox serve NAME``: a sandbox on loopback that says where it is and how to use it.

Why: a newcomer who starts the TMDB sandbox needs three facts before the first request works: the
API lives under ``/3`` (Spotify's under ``/v1``), every call needs a token, and which operations
exist. The command prints the first two and serves the benchmark's own OpenAPI spec at
``/openapi.json`` with Swagger UI at ``/docs`` (its files come from the ``swagger-ui-bundle``
package, so the docs work offline).

The spec served is RestBench's upstream file (read at run time through ``restgraph.tools.datafiles``), with
two edits for the docs page only: ``servers`` points at this server's base path, and a bearer-token
scheme is declared so Swagger's "Authorize" and "Try it out" reach the sandbox.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ApiFacts:
    """A sandbox with an API spec: base path, how to authenticate, a first request to try."""

    base: str
    spec: str  # the evals.datasets.restbench scenario whose OpenAPI file describes it
    auth: str
    example: str


API_FACTS: dict[str, ApiFacts] = {
    "tmdb": ApiFacts(
        "/3",
        "tmdb",
        "any non-empty token, as header 'Authorization: Bearer <token>' or query '?api_key=<token>' (none: 401)",
        "/3/search/movie?query=godfather",
    ),
    "spotify": ApiFacts(
        "/v1",
        "spotify",
        "header 'Authorization: Bearer <token>'; each token is its own user with a fresh copy of the initial state "
        "(routes also answer without /v1)",
        "/v1/me",
    ),
}
BEARER = {"type": "http", "scheme": "bearer", "description": "any non-empty token (offline sandbox)"}


def docs_spec(name: str) -> dict[str, Any]:
    """The upstream spec of sandbox ``name``, pointed at this server and authenticated by a bearer token."""
    from restgraph.evals.datasets.restbench import spec_path

    facts = API_FACTS[name]
    spec = copy.deepcopy(json.loads(spec_path(facts.spec).read_text(encoding="utf-8")))
    spec["servers"] = [{"url": facts.base, "description": "this sandbox (restgraph sandbox serve)"}]
    schemes = spec.setdefault("components", {}).setdefault("securitySchemes", {})
    schemes["sandbox_bearer"] = BEARER
    spec["security"] = [{"sandbox_bearer": []}] + [
        {k: []} for k, v in schemes.items() if v.get("type") == "apiKey"
    ]
    for item in spec.get("paths", {}).values():
        for op in item.values():
            if isinstance(op, dict) and "security" in op:
                op["security"] = spec[
                    "security"
                ]  # Spotify's per-operation OAuth would send to accounts.spotify.com
    return spec


def serving_app(name: str) -> tuple[Any, str | None]:
    """The sandbox's app with ``/docs`` and ``/openapi.json`` in front (API sandboxes), and why
    there are no docs when there are none (the web sandbox serves pages; a spec file missing)."""
    from fastapi import FastAPI
    from fastapi.openapi.docs import get_swagger_ui_html
    from fastapi.responses import HTMLResponse, JSONResponse
    from fastapi.staticfiles import StaticFiles

    from restgraph.tools.sandbox import get_sandbox_app

    sandbox = get_sandbox_app(name)
    if name not in API_FACTS:
        return sandbox, "web pages, not an API"
    try:
        spec = docs_spec(name)
    except Exception as exc:  # the upstream spec cannot be had (no data folder, offline): serve without docs
        return sandbox, f"no OpenAPI file ({type(exc).__name__}: {exc})"
    import swagger_ui_bundle

    outer = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)
    outer.mount("/_docs_static", StaticFiles(directory=swagger_ui_bundle.swagger_ui_path), name="docs_static")

    @outer.get("/openapi.json", include_in_schema=False)
    def openapi() -> JSONResponse:
        return JSONResponse(spec)

    @outer.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url="/openapi.json",
            title=f"restgraph sandbox {name}: OpenAPI docs",
            swagger_js_url="/_docs_static/swagger-ui-bundle.js",
            swagger_css_url="/_docs_static/swagger-ui.css",
            swagger_favicon_url="/_docs_static/favicon-32x32.png",
        )

    outer.mount("/", sandbox)
    return outer, None


def banner(name: str, root: str, no_docs: str | None) -> str:
    """What ``sandbox serve`` prints: URL with base path, authentication, docs, a request to try."""
    facts = API_FACTS.get(name)
    if facts is None:
        return f"restgraph sandbox {name}: {root}/  ({no_docs}; no authentication)\nCtrl-C stops."
    lines = [
        f"restgraph sandbox {name}: {root}{facts.base}  (base path {facts.base})",
        f"  auth: {facts.auth}",
    ]
    lines.append(
        f"  docs: {root}/docs  (OpenAPI: {root}/openapi.json)"
        if no_docs is None
        else f"  docs: none here: {no_docs}"
    )
    lines.append(f"  try:  curl -H 'Authorization: Bearer dev' '{root}{facts.example}'")
    return "\n".join([*lines, "Ctrl-C stops."])


def serve(name: str, host: str, port: int) -> None:
    import uvicorn

    from restgraph.evals.listen import listening_socket

    asgi, no_docs = serving_app(name)
    sock = listening_socket(host, port)
    print(banner(name, f"http://{host}:{sock.getsockname()[1]}", no_docs), flush=True)
    uvicorn.Server(uvicorn.Config(asgi, log_level="warning")).run(sockets=[sock])
