"""No import cycles: pyproject's ``acyclic_siblings`` contract (run by ``lint-imports`` in CI and by
``test_layers``) is the one guard. Here: it is there, covers all of restgraph, tolerates nothing
(no ignored import), and really fails on a cycle hidden in a function-level import."""

from __future__ import annotations

import json
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _settings() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["importlinter"]


def _cycle_contract() -> dict:
    (contract,) = [c for c in _settings()["contracts"] if c["type"] == "acyclic_siblings"]
    return contract


def test_the_cycle_contract_covers_all_of_restgraph_with_no_exception() -> None:
    contract = _cycle_contract()
    assert contract["ancestors"] == ["restgraph"]
    assert not {"depth", "skip_descendants", "ignore_imports"} & set(contract)
    assert _settings()["exclude_type_checking_imports"] is False


def test_the_contract_fails_on_a_cycle_through_a_function_level_import(tmp_path: Path) -> None:
    exe = shutil.which("lint-imports")
    if exe is None:
        pytest.skip("import-linter is not installed (pip install -e '.[dev]')")
    pkg = tmp_path / "cyclic"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from cyclic.sub import b\n")
    (pkg / "sub" / "b.py").write_text("def late():\n    from cyclic import a  # hidden in a function\n")
    contract = {**_cycle_contract(), "ancestors": ["cyclic"]}
    (tmp_path / "pyproject.toml").write_text(
        '[tool.importlinter]\nroot_packages = ["cyclic"]\nexclude_type_checking_imports = false\n\n'
        "[[tool.importlinter.contracts]]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in contract.items())
    )
    result = subprocess.run([exe, "--no-cache"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 1, result.stdout[-2000:] + result.stderr[-2000:]
    assert "No cycles are allowed in cyclic" in result.stdout and "- .sub -> .a (1 import)" in result.stdout
    (pkg / "sub" / "b.py").write_text("def late():\n    return 1\n")
    result = subprocess.run([exe, "--no-cache"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout[-2000:]
