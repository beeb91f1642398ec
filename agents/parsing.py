"""Tolerant extraction of structure from model text, shared by every role.

Small and chat models wrap JSON in fences, prefix it with prose, or stop mid-object; these
helpers find the first complete JSON value and say clearly when there is none.
"""

from __future__ import annotations

import json
import re
from typing import Any

_FENCE = re.compile(r"```(?:json|python|py)?\s*\n?(.*?)```", re.DOTALL)


class ParseError(ValueError):
    """Model output that does not have the expected shape; recorded in the trace, never fatal."""


def strip_fences(text: str) -> str:
    match = _FENCE.search(text)
    return match.group(1).strip() if match else text.strip()


def extract_json(text: str, *, want: type | None = None) -> Any:
    """Return the first JSON object or array in ``text`` (fenced or not).

    With ``want=dict`` (an object schema) the first *object* wins, so code such as ``KEYS = []``
    before the real reply is not taken for the answer; without one of that type, the first value.
    """
    if not isinstance(text, str) or not text.strip():
        raise ParseError("empty model output")
    candidates = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    decoder = json.JSONDecoder()
    fallback: list[Any] = []  # the first value of another type, if any
    for candidate in candidates:
        for start, ch in enumerate(candidate):
            if ch not in "{[":
                continue
            try:
                value, _ = decoder.raw_decode(candidate[start:])
            except json.JSONDecodeError:
                continue
            if want is None or isinstance(value, want):
                return value
            fallback = fallback or [value]
    if fallback:
        return fallback[0]
    raise ParseError(f"no JSON value found in model output: {text[:200]!r}")


def extract_json_object(text: str) -> dict[str, Any]:
    value = extract_json(text)
    if not isinstance(value, dict):
        raise ParseError(f"expected a JSON object, got {type(value).__name__}")
    return value
