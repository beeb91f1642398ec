"""Difficulty length of a shortcut and the positions of its top-level actions (spec §4;
upstream ``cal_WFWorkflowActions_len`` / ``label_each_WFWorkflowAction_pos_inplace``).

Each action counts 1 except comments and alerts. A block action (if / menu / repeat) whose
``WFControlFlowMode`` is not 2 opens a block, as upstream has it: a stray middle marker (mode 1
with no begin before it) opens one too. The block collects the later actions with the same
``GroupingIdentifier`` up to and including the one with mode 2; it counts as its longest segment
between consecutive markers, measured recursively, and its markers count 0 (a loop body counts
once). A stray end marker (mode 2) is skipped, as is an opening marker with no partners (the actions
after it then count normally).

Positions are upstream's "action position within the shortcut": the running longest-branch length
at each *top-level* action (a plain action gets the length including itself, a block opener gets
the length before it plus one); actions inside blocks get no position. Where upstream would crash
(a block action without ``GroupingIdentifier``), the action is treated as a marker with no partners.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from restgraph.tools.shortcuts.protocol import BLOCK_IDS, ZERO_LENGTH_IDS, action_id, action_params

END_MODE = 2


def _block_markers(actions: Sequence[Any], start: int) -> list[int]:
    """Indices of ``actions[start]`` and the later actions of its group, up to and including the end."""
    group = action_params(actions[start]).get("GroupingIdentifier")
    markers = [start]
    if group is None:
        return markers
    for j in range(start + 1, len(actions)):
        params = action_params(actions[j])
        if "GroupingIdentifier" in params and params["GroupingIdentifier"] == group:
            markers.append(j)
            if params.get("WFControlFlowMode") == END_MODE:
                break
    return markers


def _measure(actions: Sequence[Any], positions: dict[int, int] | None) -> int:
    total, i = 0, 0
    while i < len(actions):
        ident = action_id(actions[i])
        if ident in BLOCK_IDS:
            if action_params(actions[i]).get("WFControlFlowMode") == END_MODE:
                i += 1
                continue
            markers = _block_markers(actions, i)
            if len(markers) == 1:
                i += 1
                continue
            if positions is not None:
                positions[i] = total + 1
            total += max(
                _measure(actions[a + 1 : b], None) for a, b in zip(markers, markers[1:], strict=False)
            )
            i = markers[-1] + 1
            continue
        if ident not in ZERO_LENGTH_IDS:
            total += 1
            if positions is not None:
                positions[i] = total
        i += 1
    return total


def shortcut_length(actions: Sequence[Any]) -> int:
    return _measure(actions, None)


def top_level_positions(actions: Sequence[Any]) -> dict[int, int]:
    """``{index in actions: position}`` for the top-level actions, as upstream labels them."""
    positions: dict[int, int] = {}
    _measure(actions, positions)
    return positions
