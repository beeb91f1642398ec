"""Where a run's numbers came from, written into ``config.json``: code, packages, prompts, scorer.

Why: two runs that disagree can only be compared if each says which code scored it and which
prompts and package versions produced it. ``data_sha256`` (the pinned data files a run read) is
written by the runner beside this; here is everything else:

- ``git``: the revision of the source tree the package was imported from, and whether it had
  uncommitted changes (None when not run from a git checkout, e.g. an installed wheel);
- ``packages``: versions of restgraph and the libraries that shape results;
- ``prompt_pack``: the agent's prompt pack option, if it has one;
- ``scorer``: the benchmark's ``scorer_version`` if it declares one, else a hash of the source of
  the module that defines its ``score_episode`` (a changed scorer shows up as a changed hash).
"""

from __future__ import annotations

import hashlib
import inspect
import platform
import subprocess
from importlib import metadata
from pathlib import Path
from typing import Any

PACKAGES = (
    "restgraph",
    "langgraph",
    "langchain-core",
    "langchain-openai",
    "langchain",
    "pydantic",
    "openai",
    "httpx",
    "xllamacpp",
    "playwright",
)
ROOT = Path(__file__).resolve().parents[1]


def git_revision(root: Path = ROOT) -> dict[str, Any] | None:
    try:
        rev = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, timeout=5, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=5,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return {"revision": rev, "dirty": bool(dirty)}


def package_versions() -> dict[str, str | None]:
    out: dict[str, str | None] = {"python": platform.python_version()}
    for name in PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def scorer_version(benchmark: Any) -> str:
    declared = getattr(benchmark, "scorer_version", None)
    if declared:
        return str(declared)
    try:
        source = inspect.getsource(inspect.getmodule(type(benchmark).score_episode) or type(benchmark))
    except (OSError, TypeError):
        return "unknown"
    return "sha256:" + hashlib.sha256(source.encode()).hexdigest()[:16]


def provenance(benchmark: Any, agent_options: dict[str, Any]) -> dict[str, Any]:
    return {
        "git": git_revision(),
        "packages": package_versions(),
        "prompt_pack": agent_options.get("prompt_pack") or agent_options.get("prompts"),
        "scorer": {"benchmark": getattr(benchmark, "name", ""), "version": scorer_version(benchmark)},
    }
