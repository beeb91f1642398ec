"""One import name: the layers install as ``restgraph.<layer>`` and nothing installs a generic top-level
``agents``, ``graphs``, ``tools`` or ``evals`` (names other distributions own, and names a researcher's
own ``tools.py`` or ``agents/`` beside a notebook would shadow)."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

LAYERS = ("agents", "graphs", "tools", "evals")


def test_imports_from_a_folder_holding_its_own_tools_and_agents(tmp_path: Path) -> None:
    (tmp_path / "tools.py").write_text("raise SystemExit('the folder tools.py was imported')\n")
    (tmp_path / "agents").mkdir()
    (tmp_path / "agents" / "__init__.py").write_text("raise SystemExit('the folder agents/ was imported')\n")
    (tmp_path / "evals.py").write_text("raise SystemExit('the folder evals.py was imported')\n")
    code = "import restgraph.evals.cli, restgraph.agents.models, restgraph.graphs.registry, restgraph.tools.plugins; print('ok')"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_the_distribution_installs_no_generic_top_level_name() -> None:
    dist = metadata.distribution("restgraph")
    top = (dist.read_text("top_level.txt") or "").split()
    assert top == ["restgraph"], top
    for layer in LAYERS:
        found = subprocess.run(
            [sys.executable, "-c", f"import importlib.util as u; print(u.find_spec({layer!r}))"],
            cwd="/",
            env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},  # what the install provides
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert found.stdout.strip() == "None", f"a top-level {layer!r} is importable: {found.stdout}"


def test_every_entry_point_names_a_restgraph_module() -> None:
    for ep in metadata.distribution("restgraph").entry_points:
        assert ep.value.startswith("restgraph."), ep
