"""Templated reference solutions: the values a TMDB reference solution carries from one response to
the next call, and into its answer, written as ``${N.a.b}`` placeholders (``restgraph.tools.placeholders``).

The solutions in ``solutions_a``/``solutions_b`` are concrete (``/movie/597/credits``, an answer
string). Written as templates, the same solution says *where* each value comes from
(``/movie/${0.results.0.id}/credits``, ``... is ${1.cast.0.name}``), so a policy that replays it
(``scripted:restgpt-oracle``) must read those values out of the responses it actually got, as
RestGPT's Spotify solutions already do. That is what makes a reader that cannot see a value (the
w/o-parser ablation's 1,000-token cut) fail where it would fail with a real model.

Templates are derived mechanically, never typed in:
- a call's id segment (``/movie/<id>``, ``/person/<id>``, ...) becomes the path of the first
  ``"id"`` field with that value in the latest earlier response holding one;
- a string (or decimal) value of the responses that the answer quotes, at word boundaries, becomes
  the path where it first appears (latest response first, then document order), longest first.
Both are checked: resolving the templates against the responses gives back the concrete calls and
answer exactly, or the concrete form is kept.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from restgraph.tools.placeholders import ReferenceError_, substitute

_NAMES = ("name", "title")
#: enumerations, not values an answer reports ("movie" in "latest movie" is no media_type)
_CODES = (
    "media_type",
    "department",
    "known_for_department",
    "job",
    "original_language",
    "iso_639_1",
    "iso_3166_1",
    "status",
    "type",
)
ID_SEGMENTS = ("movie", "tv", "person", "company", "network", "collection", "review", "credit")


def leaves(obj: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """(dotted path, value) of every scalar, in document order."""
    if isinstance(obj, dict):
        for key, value in obj.items():
            yield from leaves(value, f"{path}.{key}")
    elif isinstance(obj, list):
        for i, value in enumerate(obj):
            yield from leaves(value, f"{path}.{i}")
    else:
        yield path, obj


def _find_id(responses: list[Any], value: int) -> str | None:
    for j in range(len(responses) - 1, -1, -1):
        for path, leaf in leaves(responses[j]):
            if path.endswith(".id") and leaf == value and not isinstance(leaf, bool):
                return f"${{{j}{path}}}"
    return None


def template_calls(calls: list[dict[str, Any]], responses: list[Any]) -> list[dict[str, Any]]:
    out = []
    for k, call in enumerate(calls):
        parts = call["path"].split("/")
        for i in range(1, len(parts)):
            if parts[i - 1] in ID_SEGMENTS and parts[i].isdigit() and k:
                parts[i] = _find_id(responses[:k], int(parts[i])) or parts[i]
        out.append(call | {"path": "/".join(parts)})
    return out


def template_answer(answer: str, responses: list[Any]) -> str:
    found: dict[str, str] = {}
    for preferred in (True, False):  # a name or title where one holds the value, then any other field
        for j in range(len(responses) - 1, -1, -1):
            for path, leaf in leaves(responses[j]):
                key = path.rsplit(".", 1)[-1]
                if key in _CODES or (key in _NAMES) != preferred:
                    continue
                text = leaf if isinstance(leaf, str) else repr(leaf) if isinstance(leaf, float) else None
                if text and len(text) >= 3 and "${" not in text and text in answer:
                    found.setdefault(text, f"${{{j}{path}}}")
    spans: list[tuple[int, int, str]] = []
    for text in sorted(found, key=len, reverse=True):
        for m in re.finditer(re.escape(text), answer):
            a, b = m.span()
            if (a and answer[a - 1].isalnum()) or (b < len(answer) and answer[b].isalnum()):
                continue
            if all(b <= x or a >= y for x, y, _ in spans):
                spans.append((a, b, found[text]))
    out, at = [], 0
    for a, b, ref in sorted(spans):
        out += [answer[at:a], ref]
        at = b
    return "".join(out) + answer[at:]


def templated(
    calls: list[dict[str, Any]], responses: list[Any], answer: str
) -> tuple[list[dict[str, Any]], str]:
    """(calls, answer) as templates that resolve to exactly the given ones (each falls back to its concrete form)."""
    t_calls, t_answer = template_calls(calls, responses), template_answer(answer, responses)
    try:
        if substitute(t_calls, responses) != calls:
            t_calls = calls
    except ReferenceError_:
        t_calls = calls
    try:
        if substitute(t_answer, responses) != answer:
            t_answer = answer
    except ReferenceError_:
        t_answer = answer
    return t_calls, t_answer
