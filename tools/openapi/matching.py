"""Normalising concrete calls to ``METHOD /template`` (RestGPT's ``get_matched_endpoint`` rule).

An exact literal template wins; otherwise the spec's templates are tried in spec order with each
``{x}`` turned into ``[^/]+`` and the pattern anchored at both ends (upstream ``re.match`` on
``METHOD /path`` with a trailing ``$``), and the first match wins: ``/trending/movie/day`` is not
``/movie/{movie_id}``. The same rule serves the selector's validation and the Correct Path metric.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from urllib.parse import urlsplit

_CALL = re.compile(r"\b(GET|POST|PATCH|DELETE|PUT)\s+(/\S+)")


@lru_cache(maxsize=4096)
def _template_regex(template: str) -> re.Pattern[str]:
    pattern = re.sub(r"\\\{[^/]*?\\\}", "[^/]+", re.escape(template))
    return re.compile(pattern)


def match_endpoint(method: str, path: str, keys: Iterable[str]) -> str | None:
    """``keys`` are ``"METHOD /template"`` strings in spec order; returns the matching key."""
    method = method.upper()
    path = path.split("?", 1)[0]
    candidates = [k for k in keys if k.split(" ", 1)[0] == method]
    exact = f"{method} {path}"
    if exact in candidates:
        return exact
    for key in candidates:
        template = key.split(" ", 1)[1]
        if _template_regex(template).fullmatch(path):
            return key
    return None


_UPSTREAM_CALL = re.compile(r"\b(GET|POST|PATCH|DELETE|PUT)\s+(/\S+)*")


def matched_endpoints(text: str, keys: Iterable[str]) -> list[str]:
    """RestGPT's ``get_matched_endpoint``: for every ``METHOD /path`` in ``text`` (case-sensitive
    verb, the path up to whitespace, query dropped, punctuation kept) its endpoint, if any."""
    keys = list(keys)
    found = []
    for method, route in _UPSTREAM_CALL.findall(text):
        key = match_endpoint(method, route, keys) if route else None
        if key is not None:
            found.append(key)
    return found


def endpoints_in_text(text: str) -> list[tuple[str, str]]:
    """Every ``METHOD /path`` mentioned in a model's text, query strings dropped."""
    return [(m.group(1), m.group(2).split("?", 1)[0]) for m in _CALL.finditer(text)]


def to_template(method: str, url_or_path: str, keys: Iterable[str], base_path: str = "") -> str | None:
    """Normalise a concrete request (full URL or path) against the spec's keys."""
    path = urlsplit(url_or_path).path if "://" in url_or_path else url_or_path.split("?", 1)[0]
    if base_path and path.startswith(base_path):
        path = path[len(base_path) :] or "/"
    return match_endpoint(method, path, keys)
