"""The offline web fixture: four small fictional websites on one loopback FastAPI app.

- ``/gyms/``: FitFinder, a gym directory (select-based search, paginated table, timetables);
- ``/homes/``: Harbor Homes, real-estate listings (filters, sort select, pagination, detail pages);
- ``/books/``: Lantern Books, a bookshop catalogue (free-text search, pagination, detail pages);
- ``/transit/``: Riverton Metro, bus routes with per-day timetables and a stop search;
- ``/``: a portal listing the sites, and ``/search?q=``: a toy search engine over every page
  (the target of the browser's ``search`` action in offline mode).

Served by ``restgraph sandbox serve web`` or, during a run, by the ``assistantbench-local``
benchmark on a free loopback port. ``tools.browser.sites.tasks`` holds the tasks whose answers
are on these pages.
"""

from __future__ import annotations

from html import escape

from fastapi import FastAPI
from fastapi.responses import HTMLResponse, Response

from tools.browser.sites import books, gyms, homes, transit
from tools.browser.sites.html import link, page, table

SITES = [("FitFinder", "/gyms/", "Gyms and studios in Riverton"), ("Harbor Homes", "/homes/", "Real estate listings"), ("Lantern Books", "/books/", "Bookshop catalogue"), ("Riverton Metro", "/transit/", "Bus routes and timetables")]


def page_index() -> list[tuple[str, str, str]]:
    """(title, url, text) of every detail page, for the toy search engine."""
    out = [(g[0] + " - FitFinder", f"/gyms/g/{gyms.slug(g[0])}", f"{g[0]} gym {g[1]} Riverton " + " ".join(a for _, _, a in g[3])) for g in gyms.GYMS]
    out += [(f"{x[1]} - Harbor Homes", f"/homes/listing/{x[0]}", f"{x[1]} {x[2]} {x[3]} {x[7]} real estate") for x in homes.LISTINGS]
    out += [(f"{b[1]} - Lantern Books", f"/books/book/{b[0]}", f"{b[1]} {b[2]} book") for b in books.BOOKS]
    out += [(f"Route {r[0]}: {r[1]} - Riverton Metro", f"/transit/route/{r[0]}", f"route {r[0]} {r[1]} bus " + " ".join(r[2])) for r in transit.ROUTES]
    out += [(name, url, f"{name} {about}") for name, url, about in SITES]
    return out


def create_app() -> FastAPI:
    app = FastAPI(title="restgraph offline web fixture", docs_url=None, redoc_url=None, openapi_url=None)
    for module in (gyms, homes, books, transit):
        app.include_router(module.router())
    index = page_index()

    @app.get("/")
    def portal() -> HTMLResponse:
        rows = [(link(url, name), about) for name, url, about in SITES]
        search = '<form action="/search" method="get" role="search"><input type="text" name="q" aria-label="Search the web"> <button type="submit">Search</button></form>'
        outside = '<p>Elsewhere: <a href="https://example.com/">example.com</a> (not reachable in offline mode)</p>'
        return page("Loopback Web", "Start page", search + table("Sites", ["Site", "About"], rows, raw=True) + outside)

    @app.get("/sitemap.xml")
    def sitemap() -> Response:
        """Every detail page, as sites list them for search engines (``tools.search`` crawls from it)."""
        urls = "".join(f"<url><loc>{escape(url)}</loc></url>" for _, url, _ in index)
        return Response(f'<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{urls}</urlset>', media_type="application/xml")

    @app.get("/search")
    def search(q: str = "") -> HTMLResponse:
        words = {w for w in q.lower().split() if len(w) > 2}
        hits = sorted(((sum(w in text.lower() for w in words), title, url) for title, url, text in index), key=lambda h: (-h[0], h[1]))
        rows = [(link(url, title), url) for n, title, url in hits[:10] if n]
        return page("Loopback Web", f"Results for {q}", table("Search results", ["Page", "Address"], rows, raw=True) if rows else "<p>No results.</p>")

    return app
