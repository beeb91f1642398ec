"""The offline web fixture: six small fictional websites of one town on one loopback FastAPI app.

- ``/gyms/``: FitFinder, a gym directory (select-based search, paginated table, timetables);
- ``/homes/``: Harbor Homes, real-estate listings (filters, sort select, pagination, detail pages);
- ``/books/``: Lantern Books, a bookshop catalogue (free-text search, detail pages, author events);
- ``/transit/``: Riverton Metro, bus routes with per-day timetables and a stop search;
- ``/eats/``: Riverton Eats, restaurants with opening hours, menus and their nearest bus stop;
- ``/care/``: Little Steps, childcare centres with tuition and hours;
- ``/``: a portal listing the sites; ``/sitemap.xml``: every detail page, for the crawler.

The sites link to each other's facts (a gym's nearest bus stop, an author event's restaurant), so
AssistantBench-style tasks need several sites. The search engine is a separate site on its own
origin (``restgraph.tools.browser.sites.engine``); ``restgraph.tools.browser.sites.world`` serves both.
Served by ``restgraph sandbox serve web`` (the sites only) or, during a run, by the
``assistantbench-local`` benchmark on free loopback ports. ``restgraph.tools.browser.sites.tasks`` holds the
tasks whose answers are on these pages.
"""

from __future__ import annotations

from html import escape

from fastapi import FastAPI
from fastapi.responses import HTMLResponse, Response

from restgraph.tools.browser.sites import books, care, eats, gyms, homes, transit
from restgraph.tools.browser.sites.html import link, page, slug, table

SITES = [
    ("FitFinder", "/gyms/", "Gyms and studios in Riverton"),
    ("Harbor Homes", "/homes/", "Real estate listings"),
    ("Lantern Books", "/books/", "Bookshop catalogue and author events"),
    ("Riverton Metro", "/transit/", "Bus routes and timetables"),
    ("Riverton Eats", "/eats/", "Restaurant guide: hours and menus"),
    ("Little Steps", "/care/", "Childcare centres: tuition and hours"),
]


def detail_pages() -> list[str]:
    """The address of every detail page (the sitemap lists them: some are reached only through a
    site's own search box, and a search engine's crawler must still find them)."""
    out = [f"/gyms/g/{slug(g[0])}" for g in gyms.GYMS]
    out += [f"/homes/listing/{x[0]}" for x in homes.LISTINGS]
    out += [f"/books/book/{b[0]}" for b in books.BOOKS]
    out += [f"/transit/route/{r[0]}?day={day}" for r in transit.ROUTES for day in transit.DAYS]
    out += [f"/eats/r/{slug(r[0])}" for r in eats.RESTAURANTS]
    out += [f"/care/c/{slug(c[0])}" for c in care.CENTERS]
    out += [f"/books/events/{e[0]}" for e in books.EVENTS]
    return out + [url for _, url, _ in SITES]


def create_app() -> FastAPI:
    app = FastAPI(title="restgraph offline web fixture", docs_url=None, redoc_url=None, openapi_url=None)
    for module in (gyms, homes, books, transit, eats, care):
        app.include_router(module.router())
    pages = detail_pages()

    @app.get("/")
    def portal() -> HTMLResponse:
        rows = [(link(url, name), about) for name, url, about in SITES]
        outside = (
            '<p>Elsewhere: <a href="https://example.com/">example.com</a> (not reachable in offline mode)</p>'
        )
        return page("Loopback Web", "Start page", table("Sites", ["Site", "About"], rows, raw=True) + outside)

    @app.get("/sitemap.xml")
    def sitemap() -> Response:
        """Every detail page, as sites list them for search engines (``restgraph.tools.search`` crawls from it)."""
        urls = "".join(f"<url><loc>{escape(url)}</loc></url>" for url in pages)
        return Response(
            f'<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{urls}</urlset>',
            media_type="application/xml",
        )

    return app
