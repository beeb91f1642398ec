"""The TMDB sandbox: an ASGI app (Starlette) serving all 54 operations of RestBench's ``tmdb_oas.json``.

Mounted under ``/3`` like the real API (base URL ``http://<host>/3``). Behaviour modelled on TMDB:
- auth: ``Authorization: Bearer <token>`` or ``?api_key=<key>``; any non-empty credential is
  accepted (there is no secret offline), none gives 401 ``status_code`` 7;
- unknown ids (and non-numeric ids) give 404 ``status_code`` 34;
- bad query parameters give 422 (wrong type, missing ``query``) or 400 (page outside 1..500);
- lists are paged 20 per page; searches are case/accent-insensitive, partial and typo tolerant.
Every body is built by ``views`` from the fixture database (``db``), frozen in time.

Starlette rather than FastAPI: every route takes the bare request, so FastAPI added nothing but its
import, 0.19 s of each TMDB run's start-up (``bench/startup_time.py``). Its answers are kept exactly:
a route answers GET only (Starlette would add HEAD) and a method no route allows gets FastAPI's
JSON ``{"detail": "Method Not Allowed"}`` (``tests/restbench_tmdb/test_sandbox.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from restgraph.tools.sandbox.tmdb.db import FixtureDB, get_db
from restgraph.tools.sandbox.tmdb.handlers import ROUTES, BadParam, NotFound

API_PREFIX = "/3"


def _error(status: int, code: int, message: str) -> JSONResponse:
    return JSONResponse(
        {"success": False, "status_code": code, "status_message": message}, status_code=status
    )


def _authorised(request: Request) -> bool:
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer ") and auth[7:].strip():
        return True
    return bool(request.query_params.get("api_key", "").strip())


def _endpoint(db: FixtureDB, handler: Callable[..., Any]) -> Callable[[Request], Any]:
    async def endpoint(request: Request) -> Response:
        if not _authorised(request):
            return _error(401, 7, "Invalid API key: You must be granted a valid key.")
        try:
            body = handler(db, dict(request.path_params), request.query_params)
        except NotFound:
            return _error(404, 34, "The resource you requested could not be found.")
        except BadParam as exc:
            return _error(exc.status, exc.code, str(exc))
        return Response(
            orjson.dumps(body), media_type="application/json"
        )  # bodies run to 100 KB: orjson is ~5x json

    return endpoint


def _http_error(request: Request, exc: Exception) -> Response:
    """Router errors (405) as FastAPI answers them: ``{"detail": ...}``, no body where none is allowed."""
    assert isinstance(exc, HTTPException)
    if exc.status_code < 200 or exc.status_code in (204, 205, 304):
        return Response(status_code=exc.status_code, headers=exc.headers)
    return JSONResponse({"detail": exc.detail}, status_code=exc.status_code, headers=exc.headers)


async def _unknown(request: Request) -> Response:
    return _error(404, 34, "The resource you requested could not be found.")


def _route(path: str, endpoint: Callable[[Request], Any], methods: list[str]) -> Route:
    route = Route(path, endpoint, methods=methods)
    route.methods = set(methods)  # exactly these: Starlette adds HEAD to a GET route
    return route


def create_app(db: FixtureDB | None = None) -> Starlette:
    """The sandbox app (``restgraph.tools.sandbox`` registers it as ``tmdb``)."""
    db = db or get_db()
    routes = [_route(API_PREFIX + template, _endpoint(db, handler), ["GET"]) for template, handler in ROUTES]
    routes.append(_route("/{rest:path}", _unknown, ["GET", "POST", "PUT", "PATCH", "DELETE"]))
    return Starlette(routes=routes, exception_handlers={HTTPException: _http_error})
