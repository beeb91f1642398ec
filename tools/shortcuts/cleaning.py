"""Gold-action cleaning (spec §2.3) and the ignore-list rewrites (§2.4).

Cleaning only changes what the model *sees* in its history; scorers always compare against the
raw gold actions. The order of the steps matters and follows the spec exactly. Upstream numbers
every U+FFFC placeholder ``${Value1}`` (its counter moves only after the substitution); that is
the default here, and ``fix_attachment_numbering=True`` numbers them ``${Value1}``, ``${Value2}``...
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping, Sequence
from typing import Any

from restgraph.tools.shortcuts.protocol import CHOOSE_FROM_MENU, CONDITIONAL, HISTORY_STRING_LIMIT

POPPED_PARAMS = ("ShowWhenRun", "OpenWhenRun", "AppIntentDescriptor")
DROPPED_AGGRANDIZEMENTS = frozenset(
    {"WFCoercionVariableAggrandizement", "WFDateFormatVariableAggrandizement", "WFUnitVariableAggrandizement"}
)
OBJECT_REPLACEMENT = "\ufffc"
RETURN_PREFIX = "ThisIsReturnValue:"

CONDITIONAL_MODES = {0: "If Begin", 1: "Else", 2: "End If"}
MENU_MODES = {0: "Case Begin", 1: "Case", 2: "End Case"}
#: ``WFCondition`` codes as upstream's ``branch_num_2_nlp_desc`` has them: keyed by ``str(code)``, so
#: the string codes ("4", "Contains", ...) map to phrases too; unknown codes pass through as ``str``
CONDITION_PHRASES: dict[str, str] = {
    "0": '"less/earlier than"',
    "1": '"less than or equal"',
    "2": '"greater/later than"',
    "3": '"greater than or equal"',
    "4": '"is"',
    "5": '"is not"',
    "8": '"begin with"',
    "9": '"end with"',
    "99": '"contain"',
    "100": '"have value"',
    "101": '"do not have any value"',
    "999": '"do not contain"',
    "1000": '"is after"',
    "1001": '"is the most recent"',
    "1002": '"is today"',
    "1003": '"is between"',
    "Contains": '"contains"',
    "Equals": '"equals"',
    "Is Less Than": '"is less than"',
    "Is Greater Than": '"is greater than"',
}
VARIABLE_SETTERS = ("is.workflow.actions.setvariable", "is.workflow.actions.appendvariable")
_RANGE = re.compile(r"\{\s*(-?\d+)\s*,\s*(-?\d+)\s*\}")


class CleaningError(ValueError):
    """A gold action the protocol cannot turn into history (e.g. an unknown menu mode)."""


def return_names(api2paratypes: Mapping[str, Mapping[str, str]]) -> dict[str, str]:
    """``{api_id: default return name}`` for every API of ``all_api2paraname2paratype``: the first
    ``ThisIsReturnValue:<name>`` key, stripped as upstream strips it ("List " -> "List"); ``""``
    for an API without a return value (it is still a known API)."""
    out: dict[str, str] = {}
    for api, params in api2paratypes.items():
        out[api] = next(
            (key[len(RETURN_PREFIX) :].strip() for key in params if key.startswith(RETURN_PREFIX)), ""
        )
    return out


def output_names(actions: Sequence[Any], returns: Mapping[str, str]) -> dict[str, str]:
    """Upstream's ``get_identifier2return_value`` over a whole shortcut: ``{UUID: output name}``
    (the custom name, else the API's default) for known APIs, later actions winning, plus
    ``{variable name: source UUID or the name}`` for set/append-variable actions without a UUID.
    Cleaning looks an action's own UUID up here, so this map decides its default ``OutputName``."""
    names: dict[str, str] = {}
    for action in actions:
        ident = action.get("WFWorkflowActionIdentifier") if isinstance(action, dict) else None
        params = action.get("WFWorkflowActionParameters") if isinstance(action, dict) else None
        if ident is None or ident not in returns or not isinstance(params, dict):
            continue
        if "UUID" in params:
            name = params.get("CustomOutputName") or returns[ident]
            if name:
                names[params["UUID"]] = name
        elif ident in VARIABLE_SETTERS and "WFVariableName" in params:
            variable, source = params["WFVariableName"], params.get("WFInput")
            if "WFInput" in params and not isinstance(source, dict):
                raise CleaningError(
                    f"{ident} with a WFInput that is not a dictionary ({source!r}); upstream raises here"
                )
            value = (
                source.get("Value")
                if isinstance(source, dict) and len(source) == 2 and "WFSerializationType" in source
                else None
            )
            names[variable] = (
                value["OutputUUID"] if isinstance(value, dict) and "OutputUUID" in value else variable
            )
    return names


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
        if key == "Aggrandizements" and isinstance(
            value, list
        ):  # upstream does not look inside the kept items
            kept = [
                v for v in value if not (isinstance(v, dict) and v.get("Type") in DROPPED_AGGRANDIZEMENTS)
            ]
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


def clean_action(
    action: Mapping[str, Any],
    returns: Mapping[str, str],
    *,
    names: Mapping[str, str] | None = None,
    fix_attachment_numbering: bool = False,
) -> dict[str, Any]:
    """Steps 1-5 of §2.3 on a deep copy of ``action``, as ``{identifier, parameters}`` (upstream
    rebuilds the history entry from those two fields). ``names`` is ``output_names`` of the whole
    shortcut (default: of this action alone). Truncation is applied to the whole history."""
    ident = action.get("WFWorkflowActionIdentifier")
    params = copy.deepcopy(action.get("WFWorkflowActionParameters"))
    if not isinstance(params, dict):
        return {"WFWorkflowActionIdentifier": ident, "WFWorkflowActionParameters": params}
    for key in POPPED_PARAMS:
        params.pop(key, None)
    params = _drop_serialization(params)
    params = _drop_aggrandizements(params)
    params = _number_attachments(params, fix_attachment_numbering)
    names = output_names([action], returns) if names is None else names
    uuid = params.get("UUID")
    if "UUID" in params and isinstance(uuid, str) and uuid in names and "CustomOutputName" not in params:
        params["CustomOutputName"] = names[uuid]
    if "CustomOutputName" in params:
        params["OutputName"] = params.pop("CustomOutputName")
    return {"WFWorkflowActionIdentifier": ident, "WFWorkflowActionParameters": params}


def _condition_phrase(code: Any) -> str:
    return CONDITION_PHRASES.get(str(code), str(code))


def _mode_word(ident: str, mode: Any, words: Mapping[int, str]) -> str:
    if mode not in words:
        raise CleaningError(f"{ident} action with WFControlFlowMode={mode!r}; expected 0, 1 or 2")
    return words[mode]


def rewrite_ignored(action: dict[str, Any]) -> dict[str, Any]:
    """Readable control flow for the history: mode numbers and condition codes become words.
    An if/menu marker whose mode is not 0, 1 or 2 is an error, as upstream raises on it."""
    ident = action.get("WFWorkflowActionIdentifier")
    params = action.get("WFWorkflowActionParameters")
    if not isinstance(params, dict):
        return action
    if ident == CONDITIONAL:
        params["WFControlFlowMode"] = _mode_word(ident, params.get("WFControlFlowMode"), CONDITIONAL_MODES)
        if "WFCondition" in params:
            params["WFCondition"] = _condition_phrase(params["WFCondition"])
    elif ident == CHOOSE_FROM_MENU:
        params["WFControlFlowMode"] = _mode_word(ident, params.get("WFControlFlowMode"), MENU_MODES)
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
