"""Offline sandbox servers (ASGI apps: FastAPI, or Starlette where no route needs more), usable
in-process through httpx's ASGI transport or on loopback with ``restgraph sandbox serve NAME``.

Each sandbox registers a zero-argument app factory here under its name.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

#: name -> "module:factory" (imported lazily so that listing sandboxes stays cheap)
_SANDBOXES: dict[str, str] = {}


def register_sandbox(name: str, factory_path: str) -> None:
    _SANDBOXES[name] = factory_path


def sandbox_names() -> list[str]:
    return sorted(_SANDBOXES)


def get_sandbox_app(name: str) -> Any:
    module_name, _, attr = _SANDBOXES[name].partition(":")
    factory: Callable[[], Any] = getattr(importlib.import_module(module_name), attr)
    return factory()


register_sandbox("tmdb", "restgraph.tools.sandbox.tmdb.app:create_app")
register_sandbox("spotify", "restgraph.tools.sandbox.spotify.app:create_app")
register_sandbox("web", "restgraph.tools.browser.sites:create_app")
