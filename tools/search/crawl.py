"""Find and read every page a site serves, the way a search engine's crawler does.

Seeds are the start page and the URLs of the site's ``/sitemap.xml`` when it serves one (the
standard way a site lists pages that only a search form leads to). From each HTML page the crawler
follows same-origin ``<a href>`` links and submits GET forms that need no free text (selects,
checkboxes, hidden fields) with their default values, so filter pages and their pagination are
reached too. It is bounded (``max_pages``), never leaves the origin, and skips excluded path
prefixes (a search engine must not index its own results pages).

The crawler only needs ``fetch(path) -> (status, content_type, text)``: ``asgi_fetcher`` reads an
in-process ASGI app (FastAPI), ``http_fetcher`` a served site.
"""

from __future__ import annotations

import html
import re
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urldefrag, urlencode, urljoin, urlsplit

Fetch = Callable[[str], tuple[int, str, str]]

#: tags whose text is not page content
_SKIP = {"script", "style", "noscript", "template", "svg"}
#: form-control tags whose text is a choice list, not content (a select's options repeat on every page)
_CONTROLS = {"select", "button", "textarea"}
#: block tags: their boundaries separate words
_BLOCK = {
    "p",
    "div",
    "br",
    "li",
    "tr",
    "td",
    "th",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "table",
    "caption",
    "section",
    "article",
    "header",
    "footer",
    "nav",
    "main",
    "form",
    "label",
    "option",
    "dt",
    "dd",
    "ul",
    "ol",
}
_LOC = re.compile(r"<loc>\s*([^<\s]+)\s*</loc>", re.I)


@dataclass
class Page:
    """A crawled page: its path (with query), title and visible text."""

    url: str
    title: str
    text: str


@dataclass
class _Form:
    action: str
    method: str
    fields: dict[str, str] = field(default_factory=dict)
    free_text: bool = False
    _select: str | None = None


class _Reader(HTMLParser):
    """Title, visible text, links and forms of one HTML page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.title = ""
        self.parts: list[str] = []
        self.links: list[str] = []
        self.forms: list[_Form] = []
        self._skip = 0
        self._in_title = False
        #: text inside <main> (the page's own content, without site navigation) and whether one was seen
        self.main_parts: list[str] = []
        self._main = 0
        self.has_main = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag in _SKIP or tag in _CONTROLS:
            self._skip += 1
        if tag == "main":
            self._main += 1
            self.has_main = True
        if tag == "title":
            self._in_title = True
        elif tag == "a" and a.get("href"):
            self.links.append(a["href"])
        elif tag == "form":
            self.forms.append(_Form(a.get("action", ""), a.get("method", "get").lower()))
        elif self.forms and tag in ("input", "select", "textarea", "option"):
            self._form_field(self.forms[-1], tag, a)
        if tag in _BLOCK:
            self._add("\n")

    def _form_field(self, form: _Form, tag: str, a: dict[str, str]) -> None:
        name = a.get("name", "")
        kind = a.get("type", "text").lower()
        if tag == "select":
            form._select = name
        elif tag == "option" and form._select:
            if form._select not in form.fields or "selected" in a:
                form.fields[form._select] = a.get("value", "")
        elif tag == "textarea" or (
            tag == "input" and kind in ("text", "search", "email", "url", "tel", "number", "date")
        ):
            form.free_text = form.free_text or bool(name)
        elif (
            tag == "input"
            and name
            and (kind == "hidden" or (kind in ("checkbox", "radio") and "checked" in a))
        ):
            form.fields[name] = a.get("value", "on")

    def handle_endtag(self, tag: str) -> None:
        if (tag in _SKIP or tag in _CONTROLS) and self._skip:
            self._skip -= 1
        if tag == "main" and self._main:
            self._main -= 1
        if tag == "title":
            self._in_title = False
        elif tag == "select" and self.forms:
            self.forms[-1]._select = None
        if tag in _BLOCK:
            self._add("\n")

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data
        elif not self._skip:
            self._add(data)

    def _add(self, text: str) -> None:
        self.parts.append(text)
        if self._main:
            self.main_parts.append(text)

    def text(self) -> str:
        """The text of ``<main>`` when the page marks it, else of the whole page."""
        lines = (
            " ".join(line.split())
            for line in "".join(self.main_parts if self.has_main else self.parts).split("\n")
        )
        return "\n".join(line for line in lines if line)


def read_html(html: str) -> tuple[str, str, list[str], list[_Form]]:
    """(title, text, hrefs, forms) of an HTML document."""
    reader = _Reader()
    reader.feed(html)
    reader.close()
    return " ".join(reader.title.split()), reader.text(), reader.links, reader.forms


def _local(href: str, base: str) -> str | None:
    """``href`` resolved against ``base`` as a path+query on the same origin, or None."""
    url = urldefrag(urljoin("http://site.invalid" + base, href.strip()))[0]
    parts = urlsplit(url)
    if parts.scheme != "http" or parts.netloc != "site.invalid":
        return None
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")


def _own_path(loc: str) -> str:
    """A sitemap entry's path and query: a site lists its own pages, under whatever host it was served."""
    parts = urlsplit(html.unescape(loc))
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")


def _excluded(path: str, prefixes: tuple[str, ...]) -> bool:
    """``/search`` excludes ``/search``, ``/search?q=x`` and ``/search/x``, not ``/searchable``."""
    bare = path.split("?")[0].rstrip("/") or "/"
    return any(bare == p.rstrip("/") or bare.startswith(p.rstrip("/") + "/") for p in prefixes)


def crawl(
    fetch: Fetch,
    *,
    seeds: Iterable[str] = ("/",),
    exclude: Iterable[str] = (),
    max_pages: int = 5000,
    sitemap: str | None = "/sitemap.xml",
) -> list[Page]:
    """Every HTML page reachable from the seeds (breadth first, at most ``max_pages`` fetched)."""
    excluded = tuple(exclude)
    queue: deque[str] = deque(seeds)
    if sitemap:
        status, _, body = fetch(sitemap)
        if status == 200:
            queue.extend(_own_path(loc) for loc in _LOC.findall(body))
    seen: set[str] = set()
    pages: list[Page] = []
    contents: set[tuple[str, str]] = set()
    fetched = 0
    while queue and fetched < max_pages:
        path = queue.popleft()
        if path in seen or _excluded(path, excluded):
            seen.add(path)
            continue
        seen.add(path)
        fetched += 1
        status, ctype, body = fetch(path)
        if status != 200 or "html" not in ctype:
            continue
        title, text, links, forms = read_html(body)
        if (
            title,
            text,
        ) not in contents:  # the same page under another address (a default parameter) counts once
            contents.add((title, text))
            pages.append(Page(path, title, text))
        queue.extend(p for p in (_local(h, path) for h in links) if p and p not in seen)
        for form in forms:
            if form.method == "get" and not form.free_text:
                target = _local(form.action or path, path)
                if target:
                    queue.append(target.split("?")[0] + (f"?{urlencode(form.fields)}" if form.fields else ""))
    return pages


def asgi_fetcher(app: Any) -> Fetch:
    """Reads pages from an in-process ASGI app (no socket)."""
    from fastapi.testclient import TestClient

    client = TestClient(app)

    def fetch(path: str) -> tuple[int, str, str]:
        response = client.get(path, follow_redirects=True)
        return response.status_code, response.headers.get("content-type", ""), response.text

    return fetch


def http_fetcher(base_url: str, *, timeout: float = 10.0) -> Fetch:
    """Reads pages from a served site (``base_url`` is its origin, e.g. the loopback fixture)."""
    import httpx

    client = httpx.Client(base_url=base_url.rstrip("/"), timeout=timeout, follow_redirects=True)

    def fetch(path: str) -> tuple[int, str, str]:
        try:
            response = client.get(path)
        except httpx.HTTPError:
            return 0, "", ""
        return response.status_code, response.headers.get("content-type", ""), response.text

    return fetch
