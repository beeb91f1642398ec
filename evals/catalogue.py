"""The light descriptor ``restgraph list`` reads instead of importing every plugin.

Listing needs a few facts per plugin (a benchmark's default agent and metrics, an agent's
environment kind and description). Importing the plugins to learn them pulls in LangGraph,
LangChain, SciPy and FastAPI: seconds of start-up for a table of names. So the built-ins' facts
are kept in ``catalogue.json`` beside this module, one card per entry point, generated from the
plugins themselves (``python -m restgraph.evals.catalogue``) and checked against them by a test
(``tests/foundation/test_startup.py``), so it cannot drift unnoticed.

A card is used only for a name declared by restgraph's own metadata with the same entry-point
value; anything else (an out-of-tree package, a plugin registered in this process, a built-in
added since the file was generated) is loaded and described from the object, as before: the
listing is never wrong, only slower for what the file does not cover.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from restgraph.tools.plugins import Registry

PATH = Path(__file__).with_name("catalogue.json")
REGENERATE = "python -m restgraph.evals.catalogue"


class BenchmarkCard(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    entry_point: str = ""
    default_agent: str
    metric_keys: tuple[str, ...]
    #: the model options its published runs used (``Benchmark.decoding``): reports say them once
    #: per scenario without loading the benchmark (``restgraph.evals.reports.table4``)
    decoding: dict[str, Any] = Field(default_factory=dict)


class AgentCard(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    entry_point: str = ""
    env_kind: str
    description: str = ""


class Catalogue(BaseModel):
    """Everything ``catalogue.json`` holds: built-in name -> card, per kind of plugin."""

    model_config = ConfigDict(extra="forbid")

    benchmarks: dict[str, BenchmarkCard]
    agents: dict[str, AgentCard]


def _describe_benchmark(make: Any) -> BenchmarkCard:
    bench = make()
    return BenchmarkCard(
        default_agent=bench.default_agent, metric_keys=tuple(bench.metric_keys), decoding=dict(bench.decoding)
    )


def _describe_agent(spec: Any) -> AgentCard:
    return AgentCard(env_kind=spec.env_kind, description=spec.description)


C = TypeVar("C", BenchmarkCard, AgentCard)


def _cards(registry: Registry[Any], saved: dict[str, C], describe: Callable[[Any], C]) -> dict[str, C]:
    """Every name of ``registry`` with its card: the saved one where it still stands for the
    declared entry point, else described from the (then loaded) plugin."""
    out: dict[str, C] = {}
    owned = registry.owned_entry_points()
    for name in registry.names():
        card = saved.get(name)
        loaded = registry.loaded(name)
        if loaded is None and card is not None and card.entry_point == owned.get(name):
            out[name] = card
        else:
            out[name] = describe(loaded if loaded is not None else registry.get(name))
    return out


def load() -> Catalogue:
    """The saved catalogue (empty if the file is missing or unreadable: everything is then loaded)."""
    try:
        return Catalogue.model_validate_json(PATH.read_bytes())
    except (OSError, ValueError):
        return Catalogue(benchmarks={}, agents={})


def benchmark_cards() -> dict[str, BenchmarkCard]:
    from restgraph.evals.benchmark import _BENCHMARKS

    return _cards(_BENCHMARKS, load().benchmarks, _describe_benchmark)


def agent_cards() -> dict[str, AgentCard]:
    from restgraph.graphs.registry import _AGENTS

    return _cards(_AGENTS, load().agents, _describe_agent)


def scripted_names() -> list[str]:
    """``scripted:<name>`` names; from the entry points unless the scripted registry is already
    loaded (then names registered in this process count too)."""
    loaded = sys.modules.get("restgraph.agents.scripted")
    if loaded is not None:
        return loaded.scripted_names()
    from restgraph.tools.plugins import declared_names

    return declared_names("restgraph.scripted")


def build() -> Catalogue:
    """The catalogue of restgraph's own entry points, described from the loaded plugins."""
    from restgraph.evals.benchmark import _BENCHMARKS
    from restgraph.graphs.registry import _AGENTS

    def own(registry: Registry[Any], describe: Callable[[Any], C]) -> dict[str, C]:
        cards = {
            name: describe(registry.get(name)).model_copy(update={"entry_point": value})
            for name, value in registry.owned_entry_points().items()
        }
        return dict(sorted(cards.items()))

    return Catalogue(benchmarks=own(_BENCHMARKS, _describe_benchmark), agents=own(_AGENTS, _describe_agent))


def render(catalogue: Catalogue) -> str:
    return json.dumps(catalogue.model_dump(mode="json"), indent=1, ensure_ascii=False) + "\n"


def main() -> None:  # pragma: no cover - exercised by the staleness test's instructions
    PATH.write_text(render(build()), encoding="utf-8")
    print(f"wrote {PATH}")


if __name__ == "__main__":  # pragma: no cover
    main()
