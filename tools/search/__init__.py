"""Web search behind one small interface (``SearchBackend``: ``search(query, k)`` -> ``SearchResult``s).

- ``restgraph.tools.search.local.LocalSearch``: offline, a SQLite FTS5 full-text index (BM25 ranking) over
  the pages a site serves, found by crawling it (``restgraph.tools.search.crawl``), so every fixture site
  the offline web serves is indexed without being named here;
- ``restgraph.tools.search.online.BraveSearch``: online, the Brave Search web API (key from
  ``BRAVE_SEARCH_API_KEY``, registered with ``restgraph.tools.redact`` so it never reaches a trace or log).

Used by the offline web's search-engine results page and by the retrieval-augmented agents.
"""

from restgraph.tools.search.base import SearchBackend, SearchError, SearchResult

__all__ = ["SearchBackend", "SearchError", "SearchResult"]

#: backend names ``make_backend`` knows
BACKENDS = ("local", "brave")


def make_backend(name: str, *, site_url: str | None = None) -> SearchBackend:
    """``local``: the FTS5 index of the site served at ``site_url`` (shared per origin); ``brave``: the
    Brave Search API (key from ``BRAVE_SEARCH_API_KEY``)."""
    if name == "local":
        if not site_url or not site_url.startswith("http"):
            raise SearchError(
                "the local search backend needs the served site's URL (an offline benchmark provides it)"
            )
        from restgraph.tools.search.local import shared_index

        return shared_index(site_url)
    if name == "brave":
        from restgraph.tools.search.online import BraveSearch

        return BraveSearch()
    raise SearchError(f"unknown search backend {name!r}; choose one of {', '.join(BACKENDS)}")
