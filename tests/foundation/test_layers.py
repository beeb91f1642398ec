"""The layer contract holds: ``evals -> graphs -> agents -> tools`` (evals may also use tools),
counting imports inside functions. The contract itself is in pyproject.toml ([tool.importlinter])."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def test_no_module_imports_a_higher_layer() -> None:
    exe = shutil.which("lint-imports")
    if exe is None:
        pytest.skip("import-linter is not installed (pip install -e '.[dev]')")
    result = subprocess.run([exe, "--no-cache"], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
