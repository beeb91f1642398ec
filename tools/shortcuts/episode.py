"""Teacher-forced next-action episodes (spec §2.5): which gold actions are asked for, with what history.

The history is always the *cleaned gold* prefix, never the model's predictions: filter-list
actions are skipped, ignore-list actions enter it cleaned and rewritten, and every scored action
enters it (cleaned) after its prediction has been asked for. Building the whole plan up front
from the gold alone is what keeps a model's memory out of the protocol: each prediction is a
fresh, stateless call on ``plan.steps[j].history``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from restgraph.tools.shortcuts.cleaning import clean_action, output_names, rewrite_ignored, truncate_strings
from restgraph.tools.shortcuts.protocol import FILTER_IDS, IGNORE_IDS, action_id

Kind = Literal["filter", "ignore", "scored"]


def action_kind(action: Any) -> Kind:
    ident = action_id(action)
    if ident in FILTER_IDS:
        return "filter"
    if ident in IGNORE_IDS:
        return "ignore"
    return "scored"


@dataclass(frozen=True)
class PlannedAction:
    """One gold action: its raw index, its kind, and (scored only) the history shown before it."""

    position: int
    kind: Kind
    action: Any
    history: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True)
class EpisodePlan:
    actions: tuple[PlannedAction, ...] = field(default_factory=tuple)

    @property
    def scored(self) -> list[PlannedAction]:
        return [a for a in self.actions if a.kind == "scored"]


def build_plan(
    aseqs: Sequence[Any], returns: Mapping[str, str], *, fix_attachment_numbering: bool = False
) -> EpisodePlan:
    history: list[dict[str, Any]] = []
    planned: list[PlannedAction] = []
    names = output_names(aseqs, returns)
    for position, action in enumerate(aseqs):
        kind = action_kind(action)
        if kind == "filter":
            planned.append(PlannedAction(position, kind, action))
            continue
        if kind == "scored":
            planned.append(PlannedAction(position, kind, action, tuple(history)))
        else:
            planned.append(PlannedAction(position, kind, action))
        cleaned = (
            clean_action(action, returns, names=names, fix_attachment_numbering=fix_attachment_numbering)
            if isinstance(action, dict)
            else {"WFWorkflowActionIdentifier": None}
        )
        if kind == "ignore":
            cleaned = rewrite_ignored(cleaned)
        history.append(truncate_strings(cleaned))
    return EpisodePlan(tuple(planned))


def history_json(history: Sequence[Mapping[str, Any]]) -> str:
    """The history block of the user prompt: ``json.dumps(history, indent=2)`` (non-ASCII escaped)."""
    return json.dumps(list(history), indent=2)
