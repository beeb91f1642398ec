"""Gold-action cleaning (spec §2.3) and the ignore-list rewrites (§2.4).

Cleaning only changes what the model *sees* in its history; scorers always compare against the
raw gold actions. The order of the steps matters and follows the spec exactly. Upstream numbers
every U+FFFC placeholder ``${Value1}`` (its counter moves only after the substitution); that is
the default here, and ``fix_attachment_numbering=True`` numbers them ``${Value1}``, ``${Value2}``...
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any

from tools.shortcuts.protocol import CHOOSE_FROM_MENU, CONDITIONAL, HISTORY_STRING_LIMIT

POPPED_PARAMS = ("ShowWhenRun", "OpenWhenRun", "AppIntentDescriptor")
DROPPED_AGGRANDIZEMENTS = frozenset({"WFCoercionVariableAggrandizement", "WFDateFormatVariableAggrandizement", "WFUnitVariableAggrandizement"})
OBJECT_REPLACEMENT = "\ufffc"
RETURN_PREFIX = "ThisIsReturnValue:"

CONDITIONAL_MODES = {0: "If Begin", 1: "Else", 2: "End If"}
MENU_MODES = {0: "Case Begin", 1: "Case", 2: "End Case"}
CONDITION_PHRASES: dict[int, str] = {
    0: "less/earlier than",
    1: "less than or equal",
    2: "greater/later than",
    3: "greater than or equal",
    4: "is",
    5: "is not",
    8: "begin with",
    9: "end with",
    99: "contain",
    100: "have value",
    101: "do not have any value",
    999: "do not contain",
    1000: "is after",
    1001: "is the most recent",
    1002: "is today",
    1003: "is between",
}
CONDITION_WORDS = ("Contains", "Equals", "Is Less Than", "Is Greater Than")
_RANGE = re.compile(r"\{\s*(-?\d+)\s*,\s*(-?\d+)\s*\}")


class CleaningError(ValueError):
    """A gold action the protocol cannot turn into history (e.g. an unknown menu mode)."""


def return_names(api2paratypes: Mapping[str, Mapping[str, str]]) -> dict[str, str]:
    """``{api_id: default return name}`` from ``all_api2paraname2paratype`` (``ThisIsReturnValue:<name>``)."""
    out: dict[str, str] = {}
    for api, params in api2paratypes.items():
        for key in params:
            if key.startswith(RETURN_PREFIX):
                out[api] = key[len(RETURN_PREFIX) :]
                break
    return out


def _drop_serialization(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: _drop_serialization(v) for k, v in obj.items() if k != "WFSerializationType"}
    if isinstance(obj, list):
        return [_drop_serialization(v) for v in obj]
    return obj


def _drop_aggrandizements(obj: Any) -> Any:
    if isinstance(obj, list):
        return [_drop_aggrandizements(v) for v in obj]
    if not isinstance(obj, dict):
        return obj
    out: dict[str, Any] = {}
    for key, value in obj.items():
        if key == "Aggrandizements" and isinstance(value, list):
            kept = [_drop_aggrandizements(v) for v in value if not (isinstance(v, dict) and v.get("Type") in DROPPED_AGGRANDIZEMENTS)]
            if kept:
                out[key] = kept
            continue
        out[key] = _drop_aggrandizements(value)
    return out


def _range_start(key: str) -> int:
    match = _RANGE.search(key)
    return int(match.group(1)) if match else 0


def _number_attachments(obj: Any, fix: bool) -> Any:
    if isinstance(obj, list):
        return [_number_attachments(v, fix) for v in obj]
    if not isinstance(obj, dict):
        return obj
    out = {k: _number_attachments(v, fix) for k, v in obj.items()}
    attachments, text = out.get("attachmentsByRange"), out.get("string")
    if isinstance(attachments, dict) and "string" in out:
        ordered = sorted(attachments, key=_range_start)
        out["attachmentsByRange"] = {f"Value{i}": attachments[key] for i, key in enumerate(ordered, start=1)}
        if isinstance(text, str):
            if fix:
                parts = text.split(OBJECT_REPLACEMENT)
                text = parts[0] + "".join(f"${{Value{i}}}{part}" for i, part in enumerate(parts[1:], start=1))
            else:  # upstream: all placeholders replaced in the first round, before the counter moves
                text = text.replace(OBJECT_REPLACEMENT, "${Value1}")
            out["string"] = text
    return out


def clean_action(action: Mapping[str, Any], returns: Mapping[str, str], *, fix_attachment_numbering: bool = False) -> dict[str, Any]:
    """Steps 1-5 of §2.3 on a deep copy of ``action`` (truncation is applied to the whole history)."""
    out = copy.deepcopy(dict(action))
    params = out.get("WFWorkflowActionParameters")
    if not isinstance(params, dict):
        return out
    for key in POPPED_PARAMS:
        params.pop(key, None)
    params = _drop_serialization(params)
    params = _drop_aggrandizements(params)
    params = _number_attachments(params, fix_attachment_numbering)
    default_name = returns.get(str(out.get("WFWorkflowActionIdentifier")))
    if "UUID" in params and "CustomOutputName" not in params and default_name:
        params["CustomOutputName"] = default_name
    if "CustomOutputName" in params:
        params["OutputName"] = params.pop("CustomOutputName")
    out["WFWorkflowActionParameters"] = params
    return out


def _condition_phrase(code: Any) -> str:
    if isinstance(code, int) and not isinstance(code, bool) and code in CONDITION_PHRASES:
        return f'"{CONDITION_PHRASES[code]}"'
    if isinstance(code, str) and code in CONDITION_WORDS:
        return f'"{code.lower()}"'
    return str(code)


def rewrite_ignored(action: dict[str, Any]) -> dict[str, Any]:
    """Readable control flow for the history: mode numbers and condition codes become words."""
    ident = action.get("WFWorkflowActionIdentifier")
    params = action.get("WFWorkflowActionParameters")
    if not isinstance(params, dict):
        return action
    if ident == CONDITIONAL:
        mode = params.get("WFControlFlowMode")
        if mode in CONDITIONAL_MODES:
            params["WFControlFlowMode"] = CONDITIONAL_MODES[mode]
        if "WFCondition" in params:
            params["WFCondition"] = _condition_phrase(params["WFCondition"])
    elif ident == CHOOSE_FROM_MENU:
        mode = params.get("WFControlFlowMode")
        if mode not in MENU_MODES:
            raise CleaningError(f"choosefrommenu action with WFControlFlowMode={mode!r}; expected 0, 1 or 2")
        params["WFControlFlowMode"] = MENU_MODES[mode]
    return action


def truncate_strings(obj: Any, limit: int = HISTORY_STRING_LIMIT) -> Any:
    """Every string value longer than ``limit`` becomes its first ``limit`` characters plus ``...``."""
    if isinstance(obj, str):
        return obj[:limit] + "..." if len(obj) > limit else obj
    if isinstance(obj, dict):
        return {k: truncate_strings(v, limit) for k, v in obj.items()}
    if isinstance(obj, list):
        return [truncate_strings(v, limit) for v in obj]
    return obj
