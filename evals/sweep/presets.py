"""Studies that reproduce the papers' tables, by name (``restgraph sweep table4 --model M``).

A preset fixes the matrix a table needs (benchmarks, agents) and leaves the rest to the sweep's
flags. Settings are the agents' and benchmarks' defaults, which follow the papers (RestGPT's
decoding and loop budgets; ShortcutsBench's protocol).
"""

from __future__ import annotations

from collections.abc import Callable

from restgraph.evals.sweep.study import StudySpec

#: RestGPT Table 4: the seven systems on both RestBench scenarios (arXiv 2306.06624)
TABLE4_AGENTS = [
    "offline",
    "deps",
    "react",
    "reflexion",
    "restgpt",
    "restgpt-no-planner",
    "restgpt-no-parser",
]


def _table4(models: list[str]) -> StudySpec:
    return StudySpec(
        name="table4",
        benchmarks=["restbench-tmdb", "restbench-spotify"],
        agents=TABLE4_AGENTS,
        models=models,
        report="table4",
    )


def _shortcuts(models: list[str]) -> StudySpec:
    return StudySpec(
        name="shortcuts",
        benchmarks=["shortcuts"],
        agents=["shortcuts-next-action"],
        models=models,
        report="shortcuts",
    )


PRESETS: dict[str, Callable[[list[str]], StudySpec]] = {"table4": _table4, "shortcuts": _shortcuts}
