"""A RestGPT-family episode's role record as one line of text, for the viewer and the reports.

The record (``trace.extra["roles"]``, config.json's ``agent_roles``; made by
``restgraph.agents.restgpt.packs.record``) says per role which pack it came from, its name, and a
hash of a custom act and of each overridden template. Two runs that differ in one role differ in
exactly that role's entry, so the line shows what changed without reading prompts.
"""

from __future__ import annotations

from collections import Counter
from typing import Any


def _role(role: str, rec: dict[str, Any]) -> str:
    text = f"{role}: {rec.get('pack', '?')}"
    if rec.get("sha256"):
        text += f" {str(rec.get('name', '')).rsplit('.', 1)[-1]}#{str(rec['sha256'])[:8]}"
    templates = rec.get("templates") or {}
    if templates:
        text += " [" + ", ".join(f"{name}#{str(digest)[:8]}" for name, digest in templates.items()) + "]"
    return text


def changed(record: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The roles that are not their run's ready-made ones: a custom act, an overridden template, or
    a pack other than the one most roles use."""
    if not isinstance(record, dict) or not record:
        return {}
    usual = Counter(str(r.get("pack")) for r in record.values() if isinstance(r, dict)).most_common(1)[0][0]
    return {
        role: rec
        for role, rec in record.items()
        if isinstance(rec, dict)
        and (rec.get("sha256") or rec.get("templates") or str(rec.get("pack")) != usual)
    }


def describe(record: Any, *, changed_only: bool = False) -> str | None:
    """``planner: restgraph [planner#9f3c12ab] · selector: upstream · ...`` (None without a record)."""
    if not isinstance(record, dict) or not record:
        return None
    shown = changed(record) if changed_only else record
    return " · ".join(_role(role, rec) for role, rec in shown.items() if isinstance(rec, dict)) or None
