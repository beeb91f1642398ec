"""Tiny HTML builders shared by the fixture sites: a page layout, tables, forms, pagination.

Plain server-rendered HTML (no JavaScript) so every page is fully present at
``domcontentloaded`` and its accessibility tree is deterministic.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from html import escape
from typing import Any, TypeVar
from urllib.parse import urlencode

from fastapi.responses import HTMLResponse

PER_PAGE = 5
T = TypeVar("T")


def page(site: str, title: str, body: str, *, home: str = "/") -> HTMLResponse:
    nav = f'<nav aria-label="Site"><a href="{home}">{escape(site)} home</a> | <a href="/">All sites</a></nav>'
    html = (
        f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{escape(title)} - {escape(site)}</title></head>"
        f"<body><header>{nav}</header><main><h1>{escape(title)}</h1>{body}</main>"
        f"<footer><p>{escape(site)} is a fictional offline fixture site.</p></footer></body></html>"
    )
    return HTMLResponse(html)


def link(href: str, text: str) -> str:
    return f'<a href="{escape(href, quote=True)}">{escape(text)}</a>'


def table(
    caption: str, headers: Sequence[str], rows: Iterable[Sequence[object]], *, raw: bool = False
) -> str:
    """``raw=True``: cells are already HTML (links)."""
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "".join(
        "<tr>" + "".join(f"<td>{c if raw else escape(str(c))}</td>" for c in row) + "</tr>" for row in rows
    )
    return f"<table><caption>{escape(caption)}</caption><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def select(name: str, label: str, options: Sequence[str], chosen: str = "") -> str:
    opts = "".join(
        f'<option value="{escape(o, quote=True)}"{" selected" if o == chosen else ""}>{escape(o or "Any")}</option>'
        for o in options
    )
    return f'<label>{escape(label)} <select name="{name}" aria-label="{escape(label, quote=True)}">{opts}</select></label>'


def form(action: str, fields: str, button: str = "Search") -> str:
    return f'<form action="{action}" method="get" role="search">{fields} <button type="submit">{escape(button)}</button></form>'


def text_input(name: str, label: str, value: str = "") -> str:
    return f'<input type="text" name="{name}" aria-label="{escape(label, quote=True)}" value="{escape(value, quote=True)}">'


def paginate(items: Sequence, page_no: int, base: str, params: dict[str, str]) -> tuple[Sequence, str]:
    """The slice for ``page_no`` (1-based) and the pager links (Previous / Page i of n / Next)."""
    pages = max(1, -(-len(items) // PER_PAGE))
    page_no = min(max(page_no, 1), pages)
    chunk = items[(page_no - 1) * PER_PAGE : page_no * PER_PAGE]

    def href(n: int) -> str:
        return f"{base}?{urlencode({**params, 'page': n})}"

    parts = []
    if page_no > 1:
        parts.append(link(href(page_no - 1), "Previous page"))
    parts.append(f"<span>Page {page_no} of {pages} ({len(items)} results)</span>")
    if page_no < pages:
        parts.append(link(href(page_no + 1), "Next page"))
    return chunk, f'<nav aria-label="Pagination">{" ".join(parts)}</nav>'


def listing(
    search_form: str,
    found: Sequence,
    page_no: int,
    base: str,
    params: dict[str, str],
    caption: str,
    headers: Sequence[str],
    row: Callable[[Any], Sequence[object]],
) -> str:
    """A results page's body: the search form, one page of ``found`` as a table (cells are HTML), the pager."""
    chunk, pager = paginate(found, page_no, base, params)
    return search_form + table(caption, headers, [row(item) for item in chunk], raw=True) + pager


def slug(name: str) -> str:
    """A detail page's address segment for a name (``Core & Reformer`` -> ``core--reformer``)."""
    return "".join(ch if ch.isalnum() else "-" for ch in name.lower()).strip("-").replace("--", "-")


def by_slug(items: Iterable[T], name: str) -> T | None:
    """The item (a tuple whose first field is its name) whose slug is ``name``."""
    return next((item for item in items if slug(item[0]) == name), None)  # type: ignore[index]


def money(value: float) -> str:
    return f"${value:,.2f}" if value != int(value) else f"${int(value):,}"
