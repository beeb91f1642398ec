"""Answer normalisation for the AssistantBench scorer: the ``-B normalize_answers=1`` option.

The official scorer rewards answers in its own shapes and punishes everything else, sometimes by
crashing: ``1,010,000`` scores 0 against ``1010000``, ``55 dollars`` scores 0 against ``$55``,
``[45]`` crashes, a raw multi-line string is one span, ``null`` crashes. Published numbers score
the raw answer, so by default the scorer receives it unchanged; with the option, before scoring we
- strip prose such as "Final answer:" and surrounding quotes or code fences;
- give numbers bare: no thousands separators, units or currency, ``.`` as the decimal point;
- give several items as a JSON array of strings (one-element numeric lists are unwrapped);
- give dicts as double-quoted JSON (Python-style single quotes are converted);
- give ``""`` to abstain, never ``None``/``null`` (abstentions as ``restgraph.agents.browser.answer`` knows them).

The result is a different measurement from the paper's: runs scored with it say so in their
config and in every report row.
"""

from __future__ import annotations

import ast
import json
import re
from typing import Any

from restgraph.agents.browser.answer import ABSTAIN_WORDS
from restgraph.agents.parsing import strip_fences

_PREFIX = re.compile(
    r"^\s*(?:\**\s*)?(?:the\s+)?(?:final\s+answer|answer)(?:\s+is)?\s*\**\s*[:=\-]?\s*", re.I
)
_UNITS = (
    r"%|percent|dollars?|usd|us dollars|sq\.?\s?ft|sqft|square feet|square "
    r"kilometers|km|kilometers|miles?|minutes?|mins?|hours?|hrs?|pages?|years?|days?"
)
_NUMBER = re.compile(
    rf"^(?P<sign>-)?\s*(?:[$€£]\s*)?(?P<num>\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?|\d+(?:\.\d+)?)\s*(?:{_UNITS})?\.?$",
    re.I,
)
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")


def _bare_number(text: str) -> str | None:
    match = _NUMBER.match(text.strip())
    if not match:
        return None
    number = match.group("num").replace(",", "")
    return ("-" if match.group("sign") else "") + number


def _format_value(value: Any) -> str:
    """A parsed JSON/Python value in the scorer's preferred shape."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return format_number(value)
    if isinstance(value, str):
        return format_answer(value) if value.strip() != "" else ""
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False) if value else ""
    if isinstance(value, list | tuple):
        items = [item for item in value if item not in (None, "", [], {})]
        if not items:
            return ""
        if len(items) == 1 and not isinstance(items[0], dict):
            return _format_value(items[0])  # a one-element list crashes the official scorer on number golds
        if all(isinstance(item, dict) for item in items):
            return json.dumps(items, ensure_ascii=False)
        return json.dumps(
            [_format_value(item) if not isinstance(item, str) else item.strip() for item in items],
            ensure_ascii=False,
        )
    return str(value)


def format_number(value: float) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _parse_literal(text: str) -> tuple[bool, Any]:
    try:
        return True, json.loads(text)
    except ValueError:
        pass
    if text[:1] in "[{(":
        try:
            return True, ast.literal_eval(text)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            pass
    return False, None


def format_answer(raw: str | None) -> str:
    """Normalise a model's final answer for the official scorer; ``""`` means "no answer"."""
    if raw is None:
        return ""
    text = strip_fences(str(raw)).strip()
    text = _PREFIX.sub("", text, count=1).strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'`":
        text = text[1:-1].strip()
    if text.lower().rstrip(".") in ABSTAIN_WORDS:
        return ""
    ok, value = _parse_literal(text)
    if ok and not isinstance(value, str):
        return _format_value(value)
    if ok:
        text = value.strip()
    number = _bare_number(text)
    if number is not None:
        return number
    lines = [_BULLET.sub("", line).strip() for line in text.split("\n") if line.strip()]
    if len(lines) > 1:
        parsed = [_parse_literal(line) for line in lines]
        if all(ok and isinstance(v, dict) for ok, v in parsed):
            return json.dumps([v for _, v in parsed], ensure_ascii=False)
        return json.dumps([line.rstrip(",;") for line in lines], ensure_ascii=False)
    return text.rstrip()
