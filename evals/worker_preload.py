"""Imported by the fork server of ``restgraph run --workers N``: the modules the parent had
imported for the run (``RESTGRAPH_WORKER_PRELOAD``, comma-separated), so every worker forked from
it starts with the benchmark, agent, sandbox and harness modules already imported (about a
second each, paid once, while the parent gets the run ready) instead of importing them itself.

A module that fails to import here is skipped: the worker imports it again and reports the error
where it matters. (The fork server itself lets only ``ImportError`` pass: this module is its one
preload, so nothing else can take the server down.)
"""

from __future__ import annotations

import os
from contextlib import suppress
from importlib import import_module

ENV = "RESTGRAPH_WORKER_PRELOAD"

for _name in filter(None, os.environ.get(ENV, "").split(",")):
    with suppress(Exception):
        import_module(_name)
