"""What every ``restgraph`` command shares: the stderr console, the one-line usage error (exit 2)
and ``key=value`` option pairs.

A module of its own so the commands that live with their packages (``restgraph sweep`` in
``restgraph.evals.sweep.cli``) use them without importing ``restgraph.evals.cli``, which imports
those commands to register them.
"""

from __future__ import annotations

import json
from typing import Any

import typer
from rich.console import Console

#: soft_wrap: error messages stay on one line however narrow the terminal (scripts grep them)
console = Console(stderr=True, soft_wrap=True)


def usage_error(message: str) -> typer.Exit:
    console.print(f"[red]error:[/red] {message}", highlight=False)
    return typer.Exit(2)


def kv_options(pairs: list[str] | None, what: str) -> dict[str, Any]:
    """``key=value`` pairs, JSON values decoded (``n=3`` -> 3); the owner's typed options
    (``restgraph.tools.options``) then check and convert them (a text option given ``123`` keeps the text)."""
    out: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise usage_error(f"{what} expects key=value, got {pair!r}")
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError:
            out[key] = value
    return out
