"""The TMDB sandbox: a FastAPI app serving all 54 operations of RestBench's ``tmdb_oas.json``.

Mounted under ``/3`` like the real API (base URL ``http://<host>/3``). Behaviour modelled on TMDB:
- auth: ``Authorization: Bearer <token>`` or ``?api_key=<key>``; any non-empty credential is
  accepted (there is no secret offline), none gives 401 ``status_code`` 7;
- unknown ids (and non-numeric ids) give 404 ``status_code`` 34;
- bad query parameters give 422 (wrong type, missing ``query``) or 400 (page outside 1..500);
- lists are paged 20 per page; searches are case/accent-insensitive, partial and typo tolerant.
Every body is built by ``views`` from the fixture database (``db``), frozen in time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response

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


def create_app(db: FixtureDB | None = None) -> FastAPI:
    """The sandbox app (``restgraph.tools.sandbox`` registers it as ``tmdb``)."""
    db = db or get_db()
    app = FastAPI(
        title="TMDB sandbox (restgraph)", description=__doc__, docs_url=None, redoc_url=None, openapi_url=None
    )
    for template, handler in ROUTES:
        app.add_api_route(API_PREFIX + template, _endpoint(db, handler), methods=["GET"], name=template)

    @app.api_route("/{rest:path}", methods=["GET", "POST", "PUT", "PATCH", "DELETE"], include_in_schema=False)
    async def unknown(rest: str) -> JSONResponse:
        return _error(404, 34, "The resource you requested could not be found.")

    return app
