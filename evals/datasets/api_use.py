"""Synthetic API Use benchmark files: case key -> ``get_example`` options, plus each case's dials.

The four files are verbatim copies of upstream ``testcases/*.json`` (``ethanachi/api_use`` at
``9848a2b``). ``chaining.json`` in particular can never be regenerated (upstream shuffled its
call pool before seeding), so the pinned files are the only canonical copy. The dials of a case
(distractor count and position, noise pair, chain length, fixed-argument count, shots) are
parsed from its key and options so reports can plot accuracy against them.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from restgraph.evals.datasets import DataFile, resolve
from restgraph.tools.datafiles import DataFormatError, data_errors, load_json

_UPSTREAM = "https://raw.githubusercontent.com/ethanachi/api_use/9848a2b/testcases"
#: suite name (``--suite``) -> pinned file (sha256 of the verbatim upstream copy)
FILES = {
    "argument_fixing": DataFile(
        "api_use",
        "argument_fixing.json",
        f"{_UPSTREAM}/argument_fixing.json",
        "8d58994b4ab3479923d2b3ab712dfce7f505e788a0a1f3993455da110786d451",
    ),
    "chaining": DataFile(
        "api_use",
        "chaining.json",
        f"{_UPSTREAM}/chaining.json",
        "6a8d96672abe5ee3f33d986ed40cd22e50846dbd8dddc5432f28deb531f52cfe",
    ),
    "distractors": DataFile(
        "api_use",
        "distractors_and_positioning.json",
        f"{_UPSTREAM}/distractors_and_positioning.json",
        "e3891d25dce211231c3f1813b76747c9a8c24aac568c4639283a566976daf28a",
    ),
    "name_description": DataFile(
        "api_use",
        "name_description.json",
        f"{_UPSTREAM}/name_description.json",
        "830bd7129a05e13f6bf6c86e4f8cf6f195b001377134fc5df2ecd4cddab5c012",
    ),
}
SUITE_ALIASES = {"distractors_and_positioning": "distractors"}
SHOT_VARIANTS = (
    "0shot",
    "1shot_iid",
    "1shot_ood",
    "2shot_iid",
    "2shot_ood",
    "2shot_iid_ood",
    "2shot_ood_iid",
)


class ApiUseCase(BaseModel):
    """One benchmark case: its key, its ``get_example`` options and its dial values."""

    suite: str
    key: str
    options: dict[str, Any]
    dials: dict[str, Any] = Field(default_factory=dict)


def suite_name(name: str) -> str:
    name = SUITE_ALIASES.get(name, name)
    if name not in FILES:
        raise ValueError(f"unknown api-use suite {name!r}; choose one of {', '.join(FILES)} (or 'all')")
    return name


def _dials(suite: str, key: str, options: dict[str, Any]) -> dict[str, Any]:
    """Dial values per spec section 4 (keys are split on '_' with the variant parts re-joined)."""
    if suite == "distractors":
        _, _, k, i = key.rsplit("-", 3)
        return {"distractors": int(k), "position": int(i)}
    if suite == "chaining":
        length, seed = key.split("_", 2)[:2]
        return {"chain_length": int(length), "seed": int(seed)}
    if suite == "argument_fixing":
        _, n, fixed, variant = key.split("_", 3)
        return {
            "n_args": int(n),
            "fixed_args": len(fixed.split(",")),
            "fixing_order": fixed,
            "shots": variant,
            "n_shots": len(options.get("fewshot") or []),
        }
    n, fixed, fnoise, dnoise, name_style, desc_style = key.split("_")
    return {
        "n_args": int(n),
        "fixed_args": len(fixed.split(",")) if fixed else 0,
        "noise": f"{fnoise}/{dnoise}",
        "style": f"{name_style}/{desc_style}",
        "function_noise": fnoise,
        "description_noise": dnoise,
    }


def load_suite(suite: str) -> list[ApiUseCase]:
    """All cases of one suite, in file order."""
    name = suite_name(suite)
    path = resolve(FILES[name])
    data = load_json(path)
    if not isinstance(data, dict):
        raise DataFormatError(f"{path} is not a case-key -> options mapping")
    cases = []
    for key, opts in data.items():
        with data_errors(path, f"case {key!r}"):
            cases.append(ApiUseCase(suite=name, key=key, options=opts, dials=_dials(name, key, opts)))
    return cases
