"""Tables that fit the terminal: whole names and numbers, no line wider than the console.

Why: rich shrinks a table that is too wide by folding its cells mid-word (``benc/hmar/k``,
``success_ra/te``), and a cut name is a wrong name. Here a table is never squeezed: the caller
offers layouts from the richest to the most compact (both scenarios side by side, one table per
scenario, fewer columns with the rest in the written files...), and the first whose every table
fits the console's width at its natural size is printed. When none fits, each row is printed as
key/value lines. Only columns marked ``wrap`` (prose: a description, an option's help) wrap, and
only between words.

The width is the console's: the terminal's, or ``COLUMNS`` when set (piped or not), or a wide
page when piped without ``COLUMNS`` (see ``table_console``).
"""

from __future__ import annotations

import io
import os
import re
import sys
import textwrap
from dataclasses import dataclass, field

from rich import box
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table

#: width of a piped console without ``COLUMNS`` (CI logs, files): a wide page
PIPED_WIDTH = 240


def table_console(stderr: bool = False) -> Console:
    """The terminal's width, ``COLUMNS`` when set (piped or not), else a wide page when piped."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return Console(width=int(columns), stderr=stderr)
    stream = sys.stderr if stderr else sys.stdout
    return Console(stderr=stderr) if stream.isatty() else Console(width=PIPED_WIDTH, stderr=stderr)


@dataclass
class View:
    """One table: title, header, rows of text cells (``\\n`` starts a new line in a cell), notes
    printed under it, and the columns (by index) allowed to wrap between words."""

    title: str | None
    header: list[str]
    body: list[list[str]]
    notes: list[str] = field(default_factory=list)
    wrap: set[int] = field(default_factory=set)
    #: columns that right-align (numbers)
    right: set[int] = field(default_factory=set)

    def table(self, *, measure: bool = False) -> Table:
        """The rich table; ``measure``: wrapping columns hold only their longest word, so the
        rendered width is the narrowest this view can be printed at without cutting a word."""
        table = Table(
            box=box.SIMPLE_HEAD,
            show_edge=False,
            pad_edge=False,
            collapse_padding=True,
            header_style="bold",
        )
        for i, name in enumerate(self.header):
            table.add_column(
                _longest_word(name) if measure and i in self.wrap else name,
                no_wrap=i not in self.wrap,
                overflow="fold",
                justify="right" if i in self.right else "left",
            )
        for cells in self.body:
            table.add_row(
                *(_longest_word(c) if measure and i in self.wrap else c for i, c in enumerate(cells))
            )
        return table

    def width(self) -> int:
        """The narrowest width this view prints at with every word whole."""
        probe = Console(width=100_000, file=io.StringIO(), color_system=None, legacy_windows=False)
        with probe.capture() as captured:
            probe.print(self.table(measure=True))
        lines = captured.get().splitlines()  # notes wrap between words when printed
        return max((cell_len(line.rstrip()) for line in lines), default=0)


def _longest_word(text: str) -> str:
    return max(text.split(), key=cell_len, default="")


def print_fitted(console: Console, layouts: list[list[View]], records: list[View] | None = None) -> str:
    """Print the first layout whose every view fits ``console.width``; else each row of ``records``
    (default: the first layout) as key/value lines. Returns the name of what was printed
    (``layout 0``..., ``records``) for tests and notes."""
    width = console.width
    for i, views in enumerate(layouts):
        if views and all(v.width() <= width for v in views):
            for view in views:
                if view.title:
                    console.print(
                        _wrap(view.title, width, "  "),
                        markup=False,
                        highlight=False,
                        style="bold",
                        soft_wrap=True,
                    )
                console.print(view.table())
                for note in view.notes:
                    console.print(_wrap(note, width, "  "), markup=False, highlight=False, soft_wrap=True)
            return f"layout {i}"
    for view in records or (layouts[0] if layouts else []):
        print_records(console, view)
    return "records"


def say(console: Console, text: str) -> None:
    """A line of prose (``wrote ...``), wrapped between words to the console's width."""
    console.print(_wrap(text, max(20, console.width), "  "), markup=False, highlight=False, soft_wrap=True)


def print_markdown(console: Console, text: str) -> None:
    """Markdown a report also writes to a file, on the terminal: each ``| ... |`` table through
    ``print_fitted`` (so it changes layout rather than overflow), every other line wrapped."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if not lines[i].lstrip().startswith("|"):
            say(console, lines[i]) if lines[i].strip() else console.print()
            i += 1
            continue
        block = []
        while i < len(lines) and lines[i].lstrip().startswith("|"):
            cells = [c.strip() for c in lines[i].strip().strip("|").split("|")]
            if not all(set(c) <= set(":- ") for c in cells):  # not the |---| rule
                block.append(cells)
            i += 1
        header, body = block[0], [(row + [""] * len(block[0]))[: len(block[0])] for row in block[1:]]
        print_fitted(console, [[View(None, header, body, right=set(range(1, len(header))))]])


def print_records(console: Console, view: View) -> None:
    """A table too wide for any layout: each row as ``key: value`` lines under its first cell,
    values wrapped between words (a single word wider than the console is the only thing cut)."""
    width = max(20, console.width)
    if view.title:
        console.print(
            _wrap(view.title, width, "  "), markup=False, highlight=False, style="bold", soft_wrap=True
        )
    for cells in view.body:
        head = " ".join(part for part in cells[0].split("\n") if part)
        console.print(_wrap(head, width, ""), markup=False, highlight=False, soft_wrap=True)
        for name, value in zip(view.header[1:], cells[1:], strict=True):
            text = " ".join(part for part in value.split("\n") if part)
            if text:
                line = _wrap(f"{name}: {text}", width, "    ", first="  ")
                console.print(line, markup=False, highlight=False, soft_wrap=True)
    for note in view.notes:
        console.print(_wrap(note, width, "  "), markup=False, highlight=False, soft_wrap=True)


def _wrap(text: str, width: int, indent: str, first: str = "") -> str:
    # an option and its value (``-B collateral=fail``) stay on one line: joined by a no-break
    # space while wrapping (textwrap breaks on ASCII whitespace only)
    text = re.sub(r"(?<!\S)(-[A-Z]) (?=\S)", "\\1\u00a0", text)
    long_word = any(cell_len(w) > width - len(indent) for w in re.split(r"[ \t\n]+", text))
    return "\n".join(
        line.replace("\u00a0", " ")
        for line in textwrap.wrap(
            text,
            width=width,
            initial_indent=first,
            subsequent_indent=indent,
            break_long_words=long_word,
            break_on_hyphens=False,
        )
        or [first]
    )
