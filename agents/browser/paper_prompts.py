"""The AssistantBench paper's closed-book and retrieval-augmented prompts, read from the paper.

Neither the AssistantBench repository nor SeePlanAct's code holds the closed-book (CB-INST,
CB-1S) or retrieval-augmented (RALM-INST, RALM-1S) prompts; their only source is the paper's
§A.10, Fig. 17 and Fig. 18 (arXiv 2407.15711). So the paper's text (the plain-text extraction of
the arXiv PDF) is a pinned data file, ``assistantbench/upstream/paper/assistantbench-paper.txt``
checked by sha256, and the prompts are parsed out of it at run time:

- a figure's body is the text between the previous figure's caption and its own caption;
- its sections are delimited by the figure's own labels: ``System prompt:``, ``(For one shot
  example):`` and ``(For both):``; the example's turns by ``User:`` / ``Assistant:``;
- the PDF's line wrapping is undone: a line break is kept where the line ends a sentence or a
  label (``.``, ``?``, ``:``, ``)``) and the next line starts with a capital letter, and is a space
  elsewhere; typographic quotes are turned back into the ASCII quotes LaTeX typeset them from;
- the figure's placeholders (``TASK``, ``CONTEXT``, ``MODEL GENERATIONS``) become template fields;
  a line holding only ``...`` (the paper eliding the rest of an example) is dropped.

The file is looked up like every pinned file (``$RESTGRAPH_DATA_DIR/assistantbench/...``, then
the cache) and, failing that, at ``docs/papers/assistantbench-paper.txt`` beside the data folder,
where the shared project tree keeps it. It has no download: the arXiv PDF is the original and
its text extraction is what is pinned here.
"""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass
from pathlib import Path

from restgraph.tools.datafiles import DATA_DIR_ENV, DataFile, DatasetUnavailable, resolve, sha256_of

PAPER = DataFile(
    "assistantbench",
    "upstream/paper/assistantbench-paper.txt",
    None,
    "6a02b9ad207e8edb17979cf27a0c03cbf092bef4258da029aa1dae20ac51bce6",
)
#: where the shared project tree keeps the paper, relative to ``$RESTGRAPH_DATA_DIR``
SIBLING = Path("..") / "docs" / "papers" / "assistantbench-paper.txt"
_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"'})
_CAPTION = "Figure {n}:"
_LABELS = ("System prompt:", "(For one shot example):", "(For both):")
_TURN = re.compile(r"(?:(?<=\s)|^)(User|Assistant):\s*")


class PaperPromptError(ValueError):
    """The paper text does not have the figure layout the parser expects (a different version)."""


def paper_path() -> Path:
    try:
        return resolve(PAPER)
    except DatasetUnavailable as missing:
        root = os.environ.get(DATA_DIR_ENV)
        sibling = (Path(root) / SIBLING).resolve() if root else None
        if sibling is None or not sibling.is_file():
            raise DatasetUnavailable(f"{missing} The shared tree keeps it at <data>/{SIBLING}.") from None
        if sha256_of(sibling) != PAPER.sha256:
            raise DatasetUnavailable(
                f"{sibling}: sha256 is not the pinned {PAPER.sha256} (another version of the paper's text)"
            ) from None
        return sibling


@functools.cache
def paper_text() -> str:
    return paper_path().read_text(encoding="utf-8")


def figure_lines(text: str, n: int) -> list[str]:
    """The stripped, non-empty lines of Figure ``n``'s body (between captions n-1 and n)."""
    lines = text.split("\n")
    caption = [i for i, line in enumerate(lines) if line.strip().startswith(_CAPTION.format(n=n))]
    before = [i for i, line in enumerate(lines) if line.strip().startswith(_CAPTION.format(n=n - 1))]
    if not caption or not before or before[-1] >= caption[0]:
        raise PaperPromptError(
            f"Figure {n}'s caption (or Figure {n - 1}'s before it) is not in the paper text"
        )
    return [s for s in (line.strip() for line in lines[before[-1] + 1 : caption[0]]) if s]


def unwrap(lines: list[str]) -> str:
    """Undo the PDF's line wrapping (see the module docstring)."""
    out = ""
    for line in (ln.translate(_QUOTES) for ln in lines):
        if line == "...":
            continue
        if not out:
            out = line
        elif out[-1] in ".?:)" and line[:1].isupper():
            out += "\n" + line
        else:
            out += " " + line
    return out


@dataclass(frozen=True)
class PaperPrompt:
    """A figure's prompt: the system message, the one-shot example's turns, the final user template."""

    system: str
    example: tuple[tuple[str, str], ...]
    user: str


def _sections(lines: list[str], figure: int) -> dict[str, list[str]]:
    """The figure's lines under each label (a label may sit mid-line: the rest of the line is cut there)."""
    found: dict[str, list[str]] = {}
    current: str | None = None
    for line in lines:
        while line:
            hits = [(line.find(label), label) for label in _LABELS if label in line]
            if not hits:
                break
            at, label = min(hits)
            if line[:at].strip() and current:
                found[current].append(line[:at].strip())
            current, line = label, line[at + len(label) :].strip()
            if current in found:
                raise PaperPromptError(f"Figure {figure}: the label {current!r} appears twice")
            found[current] = []
        if line and current:
            found[current].append(line)
    missing = [label for label in _LABELS if label not in found]
    if missing:
        raise PaperPromptError(f"Figure {figure}: labels {missing} not found")
    return found


def _turns(text: str, figure: int) -> list[tuple[str, str]]:
    parts = _TURN.split(text)
    if parts[0].strip():
        raise PaperPromptError(
            f"Figure {figure}: text before the first User:/Assistant: turn: {parts[0][:60]!r}"
        )
    return [
        (role.lower().replace("assistant", "assistant").replace("user", "user"), body.strip())
        for role, body in zip(parts[1::2], parts[2::2], strict=True)
    ]


@functools.cache
def figure_prompt(n: int) -> PaperPrompt:
    """Figure ``n`` (17: closed-book, 18: retrieval-augmented) parsed into a ``PaperPrompt``."""
    sections = _sections(figure_lines(paper_text(), n), n)
    system = unwrap(sections["System prompt:"])
    example = _turns(unwrap(sections["(For one shot example):"]), n)
    final = _turns(unwrap(sections["(For both):"]), n)
    if len(final) != 1 or final[0][0] != "user" or not example or example[0][0] != "user":
        raise PaperPromptError(
            f"Figure {n}: expected a one-shot example starting with a User turn and one final User turn"
        )
    return PaperPrompt(system, tuple(example), final[0][1])
