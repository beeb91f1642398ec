"""The search backends: the offline FTS5 index (crawl, ranking, query safety) and the Brave API
client against a loopback fake server (no network)."""

from __future__ import annotations

import html
import json
import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi import FastAPI
from fastapi.responses import HTMLResponse, Response

from restgraph.tools.browser.sites import create_app
from restgraph.tools.redact import redact_text
from restgraph.tools.search import SearchBackend, SearchError, make_backend
from restgraph.tools.search.crawl import asgi_fetcher, crawl, read_html
from restgraph.tools.search.local import LocalSearch, fts_query
from restgraph.tools.search.online import BraveSearch


def _page(title: str, body: str) -> HTMLResponse:
    return HTMLResponse(
        f"<html><head><title>{title}</title></head><body><nav><a href='/'>Home</a> lighthouse</nav><main>{body}</main></body></html>"
    )


def _tiny_app() -> FastAPI:
    """A start page linking a list page, a select-only filter form, a search-only page listed in the
    sitemap, an engine results page that must not be indexed, and a duplicate address."""
    app = FastAPI()

    @app.get("/")
    def home():
        form = (
            "<form action='/filter' method='get'><select name='colour'><option "
            "value=''>Any</option><option value='red' "
            "selected>Red</option></select><button>Go</button></form>"
        )
        return _page(
            "Home",
            "<a href='/list'>All items</a> <a href='https://example.com/x'>outside</a> <a href='/search?q=x'>engine</a>"
            + form,
        )

    @app.get("/list")
    def listing(page: int = 1):
        return _page("Item list", "<a href='/item/1'>Blue kettle</a> <a href='/list?page=1'>first page</a>")

    @app.get("/filter")
    def filtered(colour: str = ""):
        return _page(
            f"Filter {colour}", "<a href='/item/2'>Red lantern</a>" if colour == "red" else "nothing"
        )

    @app.get("/item/{n}")
    def item(n: int):
        names = {
            1: ("Blue kettle", "A copper kettle, blue enamel, 2 litres."),
            2: ("Red lantern", "A paper lantern."),
            3: ("Hidden atlas", "An atlas of the river delta, only found through search."),
        }
        title, body = names[n]
        return _page(title, f"<p>{body}</p><script>var lantern = 1;</script>")

    @app.get("/sitemap.xml")
    def sitemap():
        return Response(
            "<urlset><url><loc>http://whatever.invalid/item/3</loc></url></urlset>",
            media_type="application/xml",
        )

    @app.get("/search")
    def engine(q: str = ""):
        return _page("Results", "Blue kettle Red lantern Hidden atlas")

    return app


def test_crawl_follows_links_forms_and_sitemap_but_not_the_engine() -> None:
    pages = crawl(asgi_fetcher(_tiny_app()), exclude=("/search",))
    urls = {p.url for p in pages}
    assert {"/", "/list", "/filter?colour=red", "/item/1", "/item/2", "/item/3"} <= urls
    assert not any(u.startswith("/search") for u in urls)
    assert "/list?page=1" not in urls  # the same content under a second address is indexed once
    assert not any("example.com" in u for u in urls)


def test_crawl_is_bounded() -> None:
    assert len(crawl(asgi_fetcher(_tiny_app()), max_pages=2, sitemap=None)) == 2


def test_page_text_is_main_content_without_scripts_or_controls() -> None:
    title, text, links, forms = read_html(
        "<title> A  page </title><nav>Menu words</nav><main><h1>Head</h1><p>Body &amp; more</p><select name='s'><option>Choice</option></select>"
        "<script>hidden()</script></main>"
    )
    assert (title, text) == ("A page", "Head\nBody & more")


def test_local_search_ranks_by_bm25_with_title_weight_and_snippets() -> None:
    index = LocalSearch.from_app(_tiny_app(), base_url="http://127.0.0.1:9/")
    assert isinstance(index, SearchBackend)
    hits = index.search("kettle", 5)
    assert hits[0].url == "http://127.0.0.1:9/item/1" and hits[0].title == "Blue kettle"
    assert "copper kettle" in hits[0].snippet
    assert index.search("atlas delta", 1)[0].url.endswith("/item/3")  # reachable only through the sitemap
    assert index.search("lantern", 10) and all(
        "lighthouse" not in h.snippet for h in index.search("lantern", 10)
    )
    assert index.search("kettles", 1)[0].url.endswith("/item/1")  # porter stemming
    assert len(index.search("kettle lantern atlas", 2)) == 2
    assert index.search("zeppelin", 5) == [] and index.search("", 5) == [] and index.search("kettle", 0) == []


@pytest.mark.parametrize(
    "query", ['kettle" OR body:*', "NEAR(kettle", "kettle AND -- ;", "title:kettle^", "'\""]
)
def test_fts_syntax_in_the_query_is_never_interpreted(query: str) -> None:
    index = LocalSearch.from_app(_tiny_app())
    index.search(query, 5)  # no sqlite3.OperationalError
    assert fts_query('a "b" c') == '"b" OR "c"'


def test_every_fixture_page_is_indexed_and_found_by_its_title() -> None:
    """Generic over the fixture: every detail page the offline web lists is found by its own title."""
    app = create_app()
    index = LocalSearch.from_app(app)
    fetch = asgi_fetcher(app)
    listed = [
        urlsplit(html.unescape(loc)).path
        for loc in re.findall(r"<loc>([^<]+)</loc>", fetch("/sitemap.xml")[2])
    ]
    assert len(listed) >= 10 and index.size >= len(listed)
    for path in (
        p for p in listed if p.strip("/").count("/") >= 2
    ):  # detail pages (a site's home shares its words with all of them)
        title = read_html(fetch(path)[2])[0]
        urls = [h.url for h in index.search(title, 5)]
        assert any(u.split("?")[0] == path for u in urls), (title, urls)


def test_make_backend_errors_are_clear(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BRAVE_SEARCH_API_KEY", raising=False)
    with pytest.raises(SearchError, match="BRAVE_SEARCH_API_KEY"):
        make_backend("brave")
    with pytest.raises(SearchError, match="site's URL"):
        make_backend("local")
    with pytest.raises(SearchError, match="unknown search backend"):
        make_backend("google")


# --- the online backend against a loopback fake of the Brave API ---

KEY = "test-brave-key-0123456789"


class _FakeBrave(BaseHTTPRequestHandler):
    statuses: list[int] = []
    seen: list[dict[str, str]] = []

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        parts = urlsplit(self.path)
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        type(self).seen.append(
            {"path": parts.path, "token": self.headers.get("X-Subscription-Token", ""), **query}
        )
        status = type(self).statuses.pop(0) if type(self).statuses else 200
        if self.headers.get("X-Subscription-Token") != KEY:
            status = 401
        body = (
            {
                "web": {
                    "results": [
                        {
                            "title": "<strong>Kettle</strong> &amp; co",
                            "url": "https://kettle.example/",
                            "description": "The <strong>best</strong> kettle",
                        },
                        {"title": "No url"},
                        {"title": "Second", "url": "https://two.example/", "description": ""},
                    ]
                }
            }
            if status == 200
            else {"error": "nope"}
        )
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def fake_brave() -> Iterator[str]:
    _FakeBrave.statuses, _FakeBrave.seen = [], []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _FakeBrave)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_brave_search_sends_the_key_and_parses_results(
    fake_brave: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BRAVE_SEARCH_API_KEY", KEY)
    backend = BraveSearch(base_url=fake_brave)
    hits = backend.search("best kettle", 5)
    assert [(h.title, h.url, h.snippet) for h in hits] == [
        ("Kettle & co", "https://kettle.example/", "The best kettle"),
        ("Second", "https://two.example/", ""),
    ]
    assert _FakeBrave.seen[-1] == {
        "path": "/res/v1/web/search",
        "token": KEY,
        "q": "best kettle",
        "count": "5",
    }
    assert len(backend.search("kettle", 1)) == 1
    assert KEY not in redact_text(f"request header X-Subscription-Token: {KEY}")  # registered as a secret


def test_brave_search_retries_transient_errors_then_raises_without_the_key(fake_brave: str) -> None:
    backend = BraveSearch(KEY, base_url=fake_brave, attempts=3)
    _FakeBrave.statuses = [503, 429]
    assert backend.search("kettle", 2)  # two transient failures, then an answer
    _FakeBrave.statuses = [500, 500, 500]
    with pytest.raises(SearchError, match="HTTP 500") as failed:
        backend.search("kettle", 2)
    assert KEY not in str(failed.value)
    with pytest.raises(SearchError, match="HTTP 401"):
        BraveSearch("wrong-key-abcdef", base_url=fake_brave).search("kettle")
