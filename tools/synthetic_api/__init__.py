"""Synthetic API Use: synthetic libraries, the problem generator and the sandboxed checker.

``get_example(signature, description, **options) -> TestCase(prompt, target, test)`` builds a
problem; ``execute(sample, test) -> (passed, error)`` checks a model's continuation in a
sandboxed subprocess. Faithful to upstream by default; ``fixed=True`` (or ``Fixes(...)``)
corrects its documented bugs. See ``docs/api_use.md`` in the shared specs.

The checker names are imported lazily: generating problems needs neither the sandbox nor the
tracing stack (and their import time).
"""

from typing import Any

from restgraph.tools.synthetic_api.generator import Fixes, TestCase, get_example
from restgraph.tools.synthetic_api.library import (
    DEFAULT_REGISTRY,
    APITask,
    Function,
    Registry,
    library_from_json,
)

_CHECKER = (
    "build_check",
    "build_program",
    "execute",
    "execute_async",
    "execute_batch",
    "execute_batch_async",
    "parse_test",
)

__all__ = [
    "APITask",
    "DEFAULT_REGISTRY",
    "Fixes",
    "Function",
    "Registry",
    "TestCase",
    "get_example",
    "library_from_json",
    *_CHECKER,
]


def __getattr__(name: str) -> Any:
    if name in _CHECKER:
        from restgraph.tools.synthetic_api import checker

        return getattr(checker, name)
    raise AttributeError(f"module 'restgraph.tools.synthetic_api' has no attribute {name!r}")
