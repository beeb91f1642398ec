"""The fixed vocabulary of the ShortcutsBench protocol (spec §2.4, §3.4, §4).

Every list here is part of what makes a run comparable with the paper: which actions are never
asked for (filter / ignore), which parameter types count as "ask for input", which identifiers
open blocks for the difficulty length, and the 8 canonical categories.
"""

from __future__ import annotations

_P = "is.workflow.actions."

#: logged ``copy_from_true``, never added to the history, never scored
FILTER_IDS: frozenset[str] = frozenset({_P + "comment", _P + "alert"})
#: never predicted or scored, but their *cleaned* action enters the history
IGNORE_IDS: frozenset[str] = frozenset(
    _P + name
    for name in (
        "conditional",
        "choosefrommenu",
        "repeat.each",
        "repeat.count",
        "getvariable",
        "setvariable",
        "appendvariable",
        "runworkflow",
        "gettext",
        "ask",
    )
)
CONDITIONAL = _P + "conditional"
CHOOSE_FROM_MENU = _P + "choosefrommenu"
#: identifiers whose mode-0 marker opens a block in the length computation
BLOCK_IDS: frozenset[str] = frozenset(
    {CONDITIONAL, CHOOSE_FROM_MENU, _P + "repeat.count", _P + "repeat.each"}
)
#: actions that count 0 in the difficulty length
ZERO_LENGTH_IDS = FILTER_IDS

#: ``Value.Type`` of a parameter that asks the system or the user for input
INPUT_TYPES: tuple[str, ...] = ("ExtensionInput", "CurrentDate", "Clipboard", "DeviceDetails", "Ask")
ACTION_OUTPUT = "ActionOutput"

#: the 8 canonical categories (``categorie2num_dict``); other labels count only in overall scores
CATEGORIES: tuple[str, ...] = (
    "Productivity & Utilities",
    "Health & Fitness",
    "Entertainment & Media",
    "Lifestyle & Social",
    "Education & Reference",
    "Business & Finance",
    "Development & API",
    "Home & Smart Devices",
)

#: difficulty levels by longest-branch length, as (label, low exclusive, high inclusive)
LEVELS: tuple[tuple[str, float, float], ...] = (
    ("(0,1]", float("-inf"), 1),
    ("(1,5]", 1, 5),
    ("(5,15]", 5, 15),
    ("(15,30]", 15, 30),
)
OVER_LEVEL = "(30,inf)"

#: candidate-count buckets of the API-selection breakdown
CANDIDATE_BUCKETS: tuple[tuple[str, int, int], ...] = (
    ("<=5", 0, 5),
    ("6-10", 6, 10),
    ("11-15", 11, 15),
    ("16-20", 16, 20),
    (">20", 21, 10**9),
)

MAX_CANDIDATES = 20
HISTORY_STRING_LIMIT = 300
MISSING_DESCRIPTION = "No description available."


def level_of(length: int) -> str:
    """The paper's level label; the scorers test ``len <= 1``, ``1 < len <= 5``, and so on."""
    for label, low, high in LEVELS:
        if low < length <= high:
            return label
    return OVER_LEVEL


def candidate_bucket(n: int) -> str:
    for label, low, high in CANDIDATE_BUCKETS:
        if low <= n <= high:
            return label
    return CANDIDATE_BUCKETS[-1][0]


def action_id(action: object) -> str | None:
    """The identifier of a raw action, or None when it is not an action dict."""
    if isinstance(action, dict):
        ident = action.get("WFWorkflowActionIdentifier")
        return ident if isinstance(ident, str) else None
    return None


def action_params(action: object) -> dict:
    if isinstance(action, dict) and isinstance(action.get("WFWorkflowActionParameters"), dict):
        return action["WFWorkflowActionParameters"]
    return {}


def is_scored(action: object) -> bool:
    """A gold action outside both lists: the model is asked for it and it is scored."""
    ident = action_id(action)
    return ident not in FILTER_IDS and ident not in IGNORE_IDS
