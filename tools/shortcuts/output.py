"""Reading a model's next-action reply, and recognising errors that end a query (spec §2.5).

The parser is upstream's: the greedy first-``{``-to-last-``}`` span if it parses, else the whole
text; any JSON value is accepted (the scorers treat non-dicts as "no identifier"). A reply that
parses as neither is logged as ``json_error`` with its raw text.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import BaseModel

GENERATED = "generated_by_agent"
JSON_ERROR = "json_error"
COPIED = "copy_from_true"

_SPAN = re.compile(r"\{.*\}", re.DOTALL)

#: provider messages that upstream treats as "this query cannot continue" (context or safety)
CONTEXT_ERROR_MARKERS = (
    "context_length_exceeded",
    "maximum context length is",
    "Range of input length should be",
    "Input validation error",
    "Content Exists Risk",
    "repetitive pattern",
    "repetitive patterns",
    "encode character",
    "Expected a string with maximum length",
    "unsafe or sensitive content",
    "exceed_context_size",
    "exceeds the available context size",
)


class BStep(BaseModel):
    """One entry of a log's ``bseqs`` (§1.3)."""

    state: str
    aseq: Any = None


class NotJSON(ValueError):
    """The reply holds no JSON value by upstream's rule."""


def parse_reply(text: str) -> Any:
    match = _SPAN.search(text)
    if match:
        try:
            return json.loads(match.group(0))
        except json.JSONDecodeError:
            pass
    try:
        return json.loads(text)
    except (json.JSONDecodeError, TypeError) as exc:
        raise NotJSON(f"no JSON in reply ({exc})") from exc


def bstep_from_reply(text: str) -> BStep:
    try:
        return BStep(state=GENERATED, aseq=parse_reply(text))
    except NotJSON:
        return BStep(state=JSON_ERROR, aseq=text)


def is_context_error(error: BaseException | str) -> bool:
    message = str(error)
    return any(marker.lower() in message.lower() for marker in CONTEXT_ERROR_MARKERS)
