"""The offline world of ``assistantbench-local``: the fixture sites and the search engine, each on
its own loopback origin, the engine's index built from the served sites.

``serve_world()`` starts the sites (``restgraph.tools.browser.sites.create_app``), builds the local search
backend over them (``restgraph.tools.search.make_backend("local", site_url=...)``: the crawl happens over
HTTP, in a worker thread, since the server runs in this event loop; the index is shared per
origin, so retrieval-augmented agents calling ``make_backend`` with the same ``sites_url`` reuse
it), then serves the engine (``restgraph.tools.browser.sites.engine``) on a second port. Episodes start on
the engine's home page, like a person opening a search engine; both origins must be in
``BrowserConfig.reachable`` for the offline browser's network namespace.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass

from restgraph.tools.browser.sites import create_app
from restgraph.tools.browser.sites.engine import create_engine_app
from restgraph.tools.openapi.serve import serve_on_loopback
from restgraph.tools.search import SearchBackend, make_backend


@dataclass(frozen=True)
class World:
    #: origin of the fixture sites (``http://127.0.0.1:PORT``)
    sites_url: str
    #: origin of the search engine; its home page is every episode's start page
    engine_url: str
    backend: SearchBackend

    @property
    def start_url(self) -> str:
        return self.engine_url + "/"

    @property
    def origins(self) -> list[str]:
        return [self.sites_url, self.engine_url]


@contextlib.asynccontextmanager
async def serve_world() -> AsyncIterator[World]:
    async with serve_on_loopback(create_app()) as sites_url:
        backend = await asyncio.to_thread(make_backend, "local", site_url=sites_url)
        async with serve_on_loopback(create_engine_app(backend)) as engine_url:
            yield World(sites_url, engine_url, backend)
