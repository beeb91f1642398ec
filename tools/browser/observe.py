"""Turn Playwright's AI-mode aria snapshot into a compact, capped observation.

``page.aria_snapshot(mode="ai", boxes=True)`` gives every node a ``[ref=eN]`` (what actions
target) and a viewport-relative ``[box=x,y,w,h]``. We keep the refs, drop the boxes and pointer
markers, drop nameless layout containers (``generic``/``rowgroup`` lines that only wrap
children), and when the tree is over the character cap keep what is on or near the screen first,
ending with an explicit truncation marker that points at ``scroll``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_BOX = re.compile(r" \[box=(-?\d+),(-?\d+),(\d+),(\d+)\]")
_CURSOR = re.compile(r" \[cursor=pointer\]")
_CONTAINER = re.compile(r"^\s*- (generic|rowgroup|none|presentation)( \[active\])? \[ref=\w+\]:$")
_REF = re.compile(r"\[ref=(\w+)\]")


@dataclass
class _Line:
    text: str
    top: int | None  # viewport-relative y of the node, None for lines without a box


def _parse(snapshot: str) -> list[_Line]:
    lines = []
    for raw in snapshot.splitlines():
        box = _BOX.search(raw)
        text = _CURSOR.sub("", _BOX.sub("", raw))
        if _CONTAINER.match(text):
            continue
        top = int(box.group(2)) if box and int(box.group(4)) > 0 else None
        lines.append(_Line(text, top))
    return lines


def refs_in(text: str) -> set[str]:
    return set(_REF.findall(text))


def compact_snapshot(snapshot: str, *, viewport_height: int = 800, max_chars: int = 10_000) -> str:
    """The capped tree text. Lines without a box inherit the visibility of the line above."""
    lines = _parse(snapshot)
    full = "\n".join(line.text for line in lines)
    if len(full) <= max_chars:
        return full
    margin = viewport_height  # one screen above and below still counts as "near"
    kept: list[str] = []
    visible = True
    above = below = 0
    size = 0
    for line in lines:
        if line.top is not None:
            visible = -margin <= line.top <= viewport_height + margin
        if not visible:
            if line.top is not None and line.top < 0:
                above += 1
            else:
                below += 1
            continue
        if size + len(line.text) + 1 > max_chars:
            below += 1
            continue
        kept.append(line.text)
        size += len(line.text) + 1
    notes = []
    if above:
        notes.append(f"[... {above} lines above the screen omitted; scroll up to see them]")
    if below:
        notes.append(f"[... truncated: {below} more lines below; scroll down to see them]")
    return "\n".join(([notes[0]] if above else []) + kept + ([notes[-1]] if below else []))


def render_observation(
    *, url: str, title: str, tabs: list[str], tree: str, step: int, max_steps: int, note: str = ""
) -> str:
    """The text the policy sees: where we are, then the accessibility tree."""
    head = [f"URL: {url}", f"Title: {title}"]
    if len(tabs) > 1:
        head.append("Tabs: " + " | ".join(tabs))
    head.append(f"Step {step} of {max_steps}")
    if note:
        head.append(f"Note: {note}")
    return (
        "\n".join(head)
        + "\nPage (accessibility tree; act on elements by their [ref=eN]):\n"
        + (tree or "(empty page)")
    )
