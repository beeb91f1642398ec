"""The ``assistantbench-local`` task set: one-site warm-ups (``tasks_single``) and AssistantBench-
style multi-site tasks (``tasks_multi``), in a stable order; ``restgraph.tools.browser.sites.plan`` says what
a task and its oracle plan are."""

from __future__ import annotations

from restgraph.tools.browser.sites.plan import LocalTask
from restgraph.tools.browser.sites.tasks_multi import MULTI_SITE
from restgraph.tools.browser.sites.tasks_single import SINGLE_SITE

TASKS: list[LocalTask] = [*SINGLE_SITE, *MULTI_SITE]
TASKS_BY_ID = {t.id: t for t in TASKS}

__all__ = ["TASKS", "TASKS_BY_ID", "LocalTask"]
