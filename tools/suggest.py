""" "Did you mean" for a mistyped name (benchmark, agent, scripted model, provider, option, format...).

Why one function: every unknown-name error in restgraph reads the same way (the name, the closest
known one, the known ones) and is a usage error printed as one line before any work starts.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest known name (difflib ratio >= 0.6), else ``""``."""
    close = difflib.get_close_matches(name, sorted(set(known)), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def unknown_name(what: str, name: str, known: Iterable[str]) -> str:
    """``unknown <what> 'nmae' (did you mean 'name'?); known: a, b, c``."""
    names = sorted(set(known))
    return f"unknown {what} {name!r}{did_you_mean(name, names)}; known: {', '.join(names)}"
