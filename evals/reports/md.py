"""A Markdown table from header and text cells (the reports' ``.md`` files)."""

from __future__ import annotations


def markdown_table(header: list[str], body: list[list[str]]) -> str:
    """Pipes escaped, empty cells kept as a space so every row has every column."""
    lines = ["| " + " | ".join(h.replace("|", "\\|") for h in header) + " |", "|" + "---|" * len(header)]
    lines += [
        "| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") or " " for c in cells) + " |"
        for cells in body
    ]
    return "\n".join(lines) + "\n"
