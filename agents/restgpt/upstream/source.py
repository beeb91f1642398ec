"""Upstream RestGPT prompt texts, extracted from the original source files by parsing them.

The files are resolved through ``restgraph.tools.datafiles`` (``$RESTGRAPH_DATA_DIR/restbench/upstream/...``,
the cache, or a sha256-checked download at the pinned commit) and read with ``ast``: upstream code
is never imported (it needs LangChain 0.0.2xx) and its text is never copied into the package.
"""

from __future__ import annotations

import ast
from functools import cache
from typing import Any

from restgraph.tools.datafiles import DataFile, resolve

COMMIT = "d99012860cb45323975bf5780152d7aa44f390f5"
_RAW = f"https://raw.githubusercontent.com/Yifan-Song793/RestGPT/{COMMIT}"

#: sha256 of the upstream files at ``COMMIT``
FILES: dict[str, DataFile] = {
    name: DataFile("restbench", f"upstream/{name}", f"{_RAW}/{name}", sha)
    for name, sha in {
        "model/planner.py": "85731c42c39234076af041499c3e7e3e9c6a2fa87bd55aea6bfcb2e52f4617a3",
        "model/api_selector.py": "d32af06a06d22f0170c8b01e16f4a74126de238b7fc15b95c0d129a0d4a65c00",
        "model/caller.py": "a5fd7a3d028af03e0fce0483ad710a4b27eee43e78210f2ef3264cac6f8bc384",
        "model/parser.py": "f424edc230c9817d8e5defb6f9eb23d8ef7d383bbffdc1d3e7c60ab23ea312ee",
    }.items()
}


class UpstreamSourceError(RuntimeError):
    """An expected constant is missing from an upstream file (a different commit?)."""


@cache
def _constants(name: str) -> dict[str, Any]:
    """Module-level ``NAME = <literal>`` assignments of one upstream file (strings and dicts of strings)."""
    path = resolve(FILES[name])
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=name)
    out: dict[str, Any] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                out[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError:
                continue  # not a literal (a class, a call): not a prompt
    return out


def constant(name: str, variable: str) -> Any:
    """``variable`` from upstream file ``name`` (e.g. ``("model/planner.py", "PLANNER_PROMPT")``)."""
    values = _constants(name)
    if variable not in values:
        raise UpstreamSourceError(f"{variable} not found in upstream {name} (commit {COMMIT})")
    return values[variable]


def template(name: str, variable: str) -> str:
    value = constant(name, variable)
    if not isinstance(value, str):
        raise UpstreamSourceError(f"{name}:{variable} is not a string")
    return value


def examples(name: str, scenario: str) -> str:
    """The file's ``icl_examples[scenario]`` (planner and selector)."""
    table = constant(name, "icl_examples")
    if scenario not in table:
        raise UpstreamSourceError(f"{name} has no icl_examples for {scenario!r} (known: {', '.join(table)})")
    return table[scenario]
