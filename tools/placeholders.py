"""``${N.a.b.0}`` placeholders of reference solutions: the JSON of the Nth earlier response of an
episode, followed along a dotted path (integers index lists).

Shared by the ``oracle`` agent (which resolves them against the responses it got) and the sandboxes
that write templated reference solutions (``restgraph.tools.sandbox.tmdb.template``). A placeholder that is
the whole string keeps the value's type.
"""

from __future__ import annotations

import json
import re
from typing import Any

PLACEHOLDER = re.compile(r"\$\{(\d+)((?:\.[^.}]+)*)\}")


class ReferenceError_(KeyError):
    """A placeholder that points at nothing (a reference-solution bug, reported with its path)."""


def lookup(responses: list[Any], index: int, dotted: str) -> Any:
    if index >= len(responses):
        raise ReferenceError_(f"${{{index}{dotted}}}: only {len(responses)} responses so far")
    value = responses[index]
    for part in [p for p in dotted.split(".") if p]:
        try:
            value = value[int(part)] if isinstance(value, list) else value[part]
        except (KeyError, IndexError, ValueError, TypeError) as exc:
            raise ReferenceError_(f"${{{index}{dotted}}}: no {part!r} in {json.dumps(value)[:200]}") from exc
    return value


def substitute(obj: Any, responses: list[Any]) -> Any:
    """Resolve placeholders in strings, recursively through dicts and lists."""
    if isinstance(obj, str):
        whole = PLACEHOLDER.fullmatch(obj)
        if whole:
            return lookup(responses, int(whole.group(1)), whole.group(2))
        return PLACEHOLDER.sub(lambda m: str(lookup(responses, int(m.group(1)), m.group(2))), obj)
    if isinstance(obj, dict):
        return {k: substitute(v, responses) for k, v in obj.items()}
    if isinstance(obj, list):
        return [substitute(v, responses) for v in obj]
    return obj
