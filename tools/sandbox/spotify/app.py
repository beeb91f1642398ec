"""FastAPI app of the Spotify sandbox: the 40 operations of RestBench's ``spotify_oas.json``.

Every bearer token is one user with its own copy of the §8.4 initial state (created on first
use), so concurrent episodes are isolated by giving each its own token. Each request a token
makes is logged (method, path, template, params, body, status) next to its state; predicates
read both. Routes answer at ``/...`` and ``/v1/...`` so base URLs with or without the API's
``/v1`` work. Errors use Spotify's body ``{"error": {"status": N, "message": ...}}``.

A small admin surface (``/_sandbox/state``, ``/_sandbox/reset``; not in the spec) lets tools
read a token's state when the sandbox runs out of process (``restgraph sandbox serve spotify``).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from restgraph.tools.sandbox.spotify import routes_catalogue, routes_player, routes_user, wire
from restgraph.tools.sandbox.spotify.context import Ctx, Reply
from restgraph.tools.sandbox.spotify.models import LogEntry
from restgraph.tools.sandbox.spotify.player import SpotifyError
from restgraph.tools.sandbox.spotify.state import SessionStore

ROUTES = routes_catalogue.ROUTES + routes_user.ROUTES + routes_player.ROUTES
Handler = Callable[[Ctx], Reply]


def _json(body: Any, status: int) -> Response:
    """A body as the real API sends it (``wire``: Jackson's pretty printing, errors included)."""
    return Response(wire.dumps(body), status, media_type="application/json")


def _error(status: int, message: str, reason: str | None = None) -> Response:
    return _json(SpotifyError(status, message, reason).body(), status)


def bearer_token(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _template(request: Request) -> str | None:
    route = request.scope.get("route")
    path = getattr(route, "path", None)
    return path[3:] if path and path.startswith("/v1/") else path


def _endpoint(store: SessionStore, handler: Handler) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        token = bearer_token(request)
        if token is None:
            message = (
                "No token provided" if "authorization" not in request.headers else "Invalid access token"
            )
            return _error(401, message)
        session = store.get(token)
        raw = await request.body()
        params = dict(request.query_params)
        body: Any = None
        response: Response
        ctx: Ctx | None = None
        try:
            if raw.strip():
                try:
                    body = json.loads(raw)
                except ValueError as exc:
                    raise SpotifyError(400, "Error parsing JSON.") from exc
            ctx = Ctx(request=request, session=session, cat=store.cat, params=params, body=body)
            reply = handler(ctx)
            response = (
                Response(status_code=reply.status) if reply.body is None else _json(reply.body, reply.status)
            )
        except SpotifyError as exc:
            response = _json(exc.body(), exc.status)
        except Exception as exc:  # a sandbox bug: answer like Spotify's 500 and keep it in the log
            response = _json(SpotifyError(500, f"Server error: {type(exc).__name__}").body(), 500)
        path = request.url.path[3:] if request.url.path.startswith("/v1/") else request.url.path
        session.log.append(
            LogEntry(
                method=request.method,
                path=path,
                template=_template(request),
                params=params,
                body=body,
                status=response.status_code,
                returned_uris=ctx.returned_uris if ctx else [],
            )
        )
        return response

    endpoint.__name__ = handler.__name__
    return endpoint


def _admin(store: SessionStore) -> APIRouter:
    router = APIRouter(prefix="/_sandbox")

    @router.get("/state")
    async def state(request: Request) -> Response:
        token = bearer_token(request)
        if token is None:
            return _error(401, "No token provided")
        return JSONResponse(store.snapshot(token))

    @router.post("/reset")
    async def reset(request: Request) -> Response:
        token = bearer_token(request)
        if token is None:
            return _error(401, "No token provided")
        store.reset(token)
        return Response(status_code=204)

    return router


def create_app(store: SessionStore | None = None) -> FastAPI:
    """A sandbox app; ``app.state.store`` holds the per-token sessions."""
    store = store or SessionStore()
    app = FastAPI(title="Spotify sandbox (RestBench)", openapi_url=None, docs_url=None, redoc_url=None)
    app.state.store = store
    router = APIRouter()
    for method, path, handler in ROUTES:
        router.add_api_route(path, _endpoint(store, handler), methods=[method], include_in_schema=False)
    app.include_router(_admin(store))
    app.include_router(router, prefix="/v1")
    app.include_router(router)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        message = "Service not found" if exc.status_code == 404 else str(exc.detail)
        return _error(exc.status_code, message)

    return app
