"""Loopback Search: the offline web's search engine, a site of its own (its own loopback origin,
the entry point of every ``assistantbench-local`` episode, as a search engine is on the real web).

Its home page is a search box; ``/search?q=`` lists the results of a ``restgraph.tools.search`` backend
(offline: the SQLite FTS5 index over the fixture sites' crawled pages) as a results page: title
link, address and snippet per hit, at most ``RESULTS_PER_PAGE``. The browser's ``search`` action
opens that page (``/search?q={q}`` on the start page's origin). The engine renders what the
backend returns and ranks nothing itself.
"""

from __future__ import annotations

from html import escape

from fastapi import FastAPI
from fastapi.responses import HTMLResponse

from restgraph.tools.search import SearchBackend, SearchError, SearchResult

ENGINE = "Loopback Search"
RESULTS_PER_PAGE = 10


def _layout(title: str, heading: str, query: str = "", body: str = "") -> HTMLResponse:
    """A page of the engine: heading, the search box (holding ``query``), then ``body`` (already HTML)."""
    box = (
        '<form action="/search" method="get" role="search"><input type="text" name="q" '
        f'aria-label="Search the web" value="{escape(query, quote=True)}">'
        ' <button type="submit">Search</button></form>'
    )
    return HTMLResponse(
        f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{escape(title)}</title></head>"
        f"<body><header><a href='/'>{ENGINE}</a></header><main><h1>{escape(heading)}</h1>{box}{body}</main>"
        f"<footer><p>{ENGINE} indexes the offline fixture sites only. Elsewhere on the web: "
        '<a href="https://example.com/">example.com</a> (not reachable in offline mode).</p></footer></body></html>'
    )


def results_html(query: str, hits: list[SearchResult]) -> str:
    """The results list: one heading link per hit, then its address and snippet."""
    items = "".join(
        f'<li><h3><a href="{escape(h.url, quote=True)}">{escape(h.title)}</a></h3><p><cite>{escape(h.url)}</cite></p><p>{escape(h.snippet)}</p></li>'
        for h in hits
    )
    return f'<ol aria-label="Results for {escape(query, quote=True)}">{items}</ol>'


def create_engine_app(backend: SearchBackend) -> FastAPI:
    app = FastAPI(title=ENGINE, docs_url=None, redoc_url=None, openapi_url=None)

    @app.get("/")
    def home() -> HTMLResponse:
        return _layout(ENGINE, "Search the offline web")

    @app.get("/search")
    def search(
        q: str = "",
    ) -> HTMLResponse:  # sync: FastAPI runs it in a worker thread, the backend is synchronous
        query = q.strip()
        if not query:
            return _layout(ENGINE, "Search the offline web")
        try:
            hits = backend.search(query, RESULTS_PER_PAGE)
        except SearchError as exc:
            return _layout(
                f"{query} - {ENGINE}",
                f"Results for {query}",
                query,
                f"<p>The search failed: {escape(str(exc))}</p>",
            )
        listing = results_html(query, hits) if hits else f"<p>No results for {escape(query)}.</p>"
        return _layout(
            f"{query} - {ENGINE}", f"Results for {query}", query, f"<p>{len(hits)} results</p>{listing}"
        )

    return app
