"""The offline search engine: a SQLite FTS5 full-text index over crawled pages, BM25-ranked.

SQLite's FTS5 (in the standard library's ``sqlite3``) tokenises with ``porter unicode61`` (so
"gyms" finds "gym"), ranks with BM25 (title matches weigh more than body matches) and cuts the
snippet around the matched words. A query is read as a web search box reads it: its words, any of
which may match (OR), ranked by BM25, so a natural-language question still finds the pages that
share its rarest words; FTS5 query syntax in the user's text is never interpreted.

``LocalSearch.from_app(app)`` indexes an in-process ASGI app, ``LocalSearch.from_url(base)`` a
served site; both crawl (``restgraph.tools.search.crawl``), excluding the engine's own results path.
``shared_index(base)`` keeps one index per served origin for a run's episodes.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import Iterable
from typing import Any

from restgraph.tools.search.base import SearchResult
from restgraph.tools.search.crawl import Page, asgi_fetcher, crawl, http_fetcher

#: paths a search engine must not index (its own results pages)
DEFAULT_EXCLUDE = ("/search",)
#: BM25 column weights (title, body)
TITLE_WEIGHT, BODY_WEIGHT = 5.0, 1.0
_WORD = re.compile(r"\w+", re.UNICODE)
#: words too common to help (FTS5 would match them everywhere; BM25 alone ranks them low, but
#: they would still turn a miss into a page of noise)
_STOP = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "for",
        "from",
        "has",
        "have",
        "how",
        "i",
        "in",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "that",
        "the",
        "this",
        "to",
        "was",
        "were",
        "what",
        "when",
        "where",
        "which",
        "who",
        "why",
        "will",
        "with",
    ]
)


def fts_query(text: str) -> str:
    """A user's query as an FTS5 MATCH expression: its words, quoted, joined with OR ("" if none)."""
    words = [w for w in _WORD.findall(text.lower()) if w not in _STOP] or _WORD.findall(text.lower())
    unique = list(dict.fromkeys(words))
    return " OR ".join('"' + w.replace('"', '""') + '"' for w in unique)


class LocalSearch:
    """An in-memory FTS5 index; thread-safe (one connection behind a lock)."""

    name = "local"

    def __init__(self, pages: Iterable[Page], *, base_url: str = "", snippet_tokens: int = 24):
        self.base_url = base_url.rstrip("/")
        self.snippet_tokens = snippet_tokens
        self._lock = threading.Lock()
        self._db = sqlite3.connect(":memory:", check_same_thread=False)
        self._db.execute(
            "CREATE VIRTUAL TABLE pages USING fts5(title, body, url UNINDEXED, tokenize='porter unicode61 remove_diacritics 2')"
        )
        self._db.executemany(
            "INSERT INTO pages(title, body, url) VALUES (?, ?, ?)", [(p.title, p.text, p.url) for p in pages]
        )
        self.size = self._db.execute("SELECT count(*) FROM pages").fetchone()[0]

    @classmethod
    def from_app(
        cls, app: Any, *, base_url: str = "", exclude: Iterable[str] = DEFAULT_EXCLUDE, max_pages: int = 5000
    ) -> LocalSearch:
        return cls(crawl(asgi_fetcher(app), exclude=exclude, max_pages=max_pages), base_url=base_url)

    @classmethod
    def from_url(
        cls, base_url: str, *, exclude: Iterable[str] = DEFAULT_EXCLUDE, max_pages: int = 5000
    ) -> LocalSearch:
        """Crawls the site at ``base_url``; results carry absolute URLs on it."""
        return cls(crawl(http_fetcher(base_url), exclude=exclude, max_pages=max_pages), base_url=base_url)

    def search(self, query: str, k: int = 10) -> list[SearchResult]:
        match = fts_query(query)
        if not match or k <= 0:
            return []
        sql = (
            f"SELECT title, url, snippet(pages, 1, '', '', ' ... ', {int(self.snippet_tokens)}) FROM pages "
            f"WHERE pages MATCH ? ORDER BY bm25(pages, {TITLE_WEIGHT}, {BODY_WEIGHT}), url LIMIT ?"
        )
        with self._lock:
            rows = self._db.execute(sql, (match, int(k))).fetchall()
        return [
            SearchResult(title=title, url=self.base_url + url, snippet=" ".join(snippet.split()))
            for title, url, snippet in rows
        ]


_SHARED: dict[str, LocalSearch] = {}
_SHARED_LOCK = threading.Lock()


def shared_index(base_url: str) -> LocalSearch:
    """One index per served origin (built on first use): the episodes of a run share it."""
    key = base_url.rstrip("/")
    with _SHARED_LOCK:
        if key not in _SHARED:
            _SHARED[key] = LocalSearch.from_url(key)
        return _SHARED[key]
