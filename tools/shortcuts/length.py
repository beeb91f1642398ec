"""Difficulty length of a shortcut: its longest branch (spec §4, ``cal_WFWorkflowActions_len``).

Each action counts 1 except comments and alerts. A block (if / menu / repeat) counts as its
longest segment between consecutive markers, measured recursively; the markers count 0, and a
loop body counts once. A stray end marker is skipped, as is a begin marker with no partners (the
actions after it then count normally). A stray middle marker (mode 1 with no begin) is a marker
and counts 0 as well.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tools.shortcuts.protocol import BLOCK_IDS, ZERO_LENGTH_IDS, action_id, action_params


def _block_markers(actions: Sequence[Any], start: int) -> list[int]:
    """Indices of ``actions[start]`` and its later partner markers, up to and including the end."""
    group = action_params(actions[start]).get("GroupingIdentifier")
    markers = [start]
    if group is None:
        return markers
    for j in range(start + 1, len(actions)):
        params = action_params(actions[j])
        if action_id(actions[j]) in BLOCK_IDS and params.get("GroupingIdentifier") == group:
            markers.append(j)
            if params.get("WFControlFlowMode") == 2:
                break
    return markers


def shortcut_length(actions: Sequence[Any]) -> int:
    total, i = 0, 0
    while i < len(actions):
        action = actions[i]
        ident = action_id(action)
        if ident in ZERO_LENGTH_IDS:
            i += 1
            continue
        if ident in BLOCK_IDS:
            mode = action_params(action).get("WFControlFlowMode")
            if mode in (1, 2):  # stray marker: no begin seen at this level
                i += 1
                continue
            if mode == 0:
                markers = _block_markers(actions, i)
                if len(markers) == 1:
                    i += 1
                    continue
                total += max(shortcut_length(actions[a + 1 : b]) for a, b in zip(markers, markers[1:], strict=False))
                i = markers[-1] + 1
                continue
        total += 1
        i += 1
    return total
