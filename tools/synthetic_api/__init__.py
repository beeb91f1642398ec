"""Synthetic API Use: synthetic libraries, the problem generator and the sandboxed checker.

``get_example(signature, description, **options) -> TestCase(prompt, target, test)`` builds a
problem; ``execute(sample, test) -> (passed, error)`` checks a model's continuation in a
sandboxed subprocess. Faithful to upstream by default; ``fixed=True`` (or ``Fixes(...)``)
corrects its documented bugs. See ``docs/api_use.md`` in the shared specs.
"""

from tools.synthetic_api.checker import (
    build_program,
    execute,
    execute_async,
    execute_batch,
    execute_batch_async,
    parse_test,
)
from tools.synthetic_api.generator import Fixes, TestCase, get_example
from tools.synthetic_api.library import DEFAULT_REGISTRY, APITask, Function, Registry, library_from_json

__all__ = [
    "APITask", "DEFAULT_REGISTRY", "Fixes", "Function", "Registry", "TestCase", "build_program", "execute",
    "execute_async", "execute_batch", "execute_batch_async", "get_example", "library_from_json", "parse_test",
]
