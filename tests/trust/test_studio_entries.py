"""Every graph ``langgraph.json`` lists is a Studio factory of ``restgraph.evals.studio`` (and every factory is
listed), and the README's Studio section names each one and the command that opens them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import restgraph.evals.studio as studio

ROOT = Path(__file__).resolve().parents[2]


def test_langgraph_json_lists_exactly_the_studio_factories() -> None:
    graphs = json.loads((ROOT / "langgraph.json").read_text())["graphs"]
    assert set(graphs) == set(studio.STUDIO_AGENTS)
    for name, target in graphs.items():
        path, _, attr = target.partition(":")
        assert (ROOT / path).resolve() == Path(studio.__file__).resolve()
        assert callable(getattr(studio, attr)) and getattr(studio, attr).__name__ == name.replace("-", "_")


def test_the_readme_shows_how_to_open_every_studio_graph() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = re.search(r"### LangGraph Studio\n(.*?)\n## ", text, re.S)
    assert section, "README has no 'LangGraph Studio' section"
    body = section.group(1)
    assert "langgraph-cli[inmem]" in body and "langgraph dev" in body and "RESTGRAPH_STUDIO_MODEL" in body
    assert all(f"`{name}`" in body for name in studio.STUDIO_AGENTS)
