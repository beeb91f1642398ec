"""Execute every notebook in ``notebooks/`` headlessly (nbclient, kernel python3); any cell error fails.

The notebooks must run offline from a clean clone: scripted models, the in-process sandboxes and
``$RESTGRAPH_DATA_DIR``. Run folders go to ``tmp_path`` (``$RESTGRAPH_NOTEBOOK_RUNS``). The quick
start runs twice: with a scripted model (always) and with the embedded SmolLM2 (``local_model``).
CI may choose models through the ``RESTGRAPH_NOTEBOOK_*`` variables the notebooks read.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

from tests.restgpt.swap_checks import assert_only_planner_differs, assert_selector_shortlists

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
#: per-cell timeout; the local-model cell is bounded by the episode timeout it sets
CELL_TIMEOUT_S = int(os.environ.get("RESTGRAPH_NOTEBOOK_CELL_TIMEOUT", "900"))


def _kernel_name() -> str:
    """``python3`` if registered, else register this interpreter's ipykernel for the user."""
    from jupyter_client.kernelspec import KernelSpecManager

    if "python3" not in KernelSpecManager().find_kernel_specs():
        from ipykernel.kernelspec import install

        install(user=True, kernel_name="python3")
    return "python3"


def execute(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **env: str) -> nbformat.NotebookNode:
    monkeypatch.setenv("RESTGRAPH_NOTEBOOK_RUNS", str(tmp_path / "runs"))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in (str(NOTEBOOKS.parent), os.environ.get("PYTHONPATH", "")) if p))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
    client = nbclient.NotebookClient(notebook, timeout=CELL_TIMEOUT_S, kernel_name=_kernel_name(), allow_errors=False,
                                     resources={"metadata": {"path": str(NOTEBOOKS)}})
    client.execute()  # raises CellExecutionError naming the cell on any error
    return notebook


def outputs_text(notebook: nbformat.NotebookNode) -> str:
    """The cells' printed text as Jupyter shows it: a kernel may split one print into several stream
    outputs (it flushes when it likes), so stream text is joined as is; other outputs end a line."""
    parts = []
    for cell in notebook.cells:
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream":
                parts.append(out.get("text", ""))
            else:
                parts.append(str(out.get("data", {}).get("text/plain", "")) + "\n")
        parts.append("\n")
    return "".join(parts)


def images(notebook: nbformat.NotebookNode) -> int:
    return sum(1 for c in notebook.cells for o in c.get("outputs", []) if "image/png" in o.get("data", {}) or "image/jpeg" in o.get("data", {}))


@pytest.fixture(autouse=True)
def _needs_data(data_dir: Path) -> None:
    """Every notebook reads benchmark data; skip clearly without it (no download in tests)."""


def test_every_notebook_is_stored_without_outputs_and_opens_and_closes_right():
    names = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))
    assert len(names) == 5, names
    for name in names:
        notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
        nbformat.validate(notebook)
        assert all(not c.get("outputs") and not c.get("execution_count") for c in notebook.cells if c.cell_type == "code"), name
        assert notebook.cells[0].cell_type == "markdown" and "What this notebook shows" in notebook.cells[0].source, name
        assert notebook.cells[-1].cell_type == "markdown" and "What to try next" in notebook.cells[-1].source, name


def test_quickstart_scripted(tmp_path, monkeypatch):
    nb = execute("01_quickstart.ipynb", tmp_path, monkeypatch, RESTGRAPH_NOTEBOOK_MODEL="scripted:restgpt-oracle")
    text = outputs_text(nb)
    assert "'success_rate': 1.0" in text  # the oracle solves its three queries
    assert "parser code:" in text and "HTTP GET" in text
    assert images(nb) >= 1  # the graph diagram
    # the run is read through evals.results and shown in the trace viewer, not by notebook helpers
    source = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    assert "results.load(" in source and "show_trace" not in source and "nb.traces(" not in source
    frame = next(o["data"]["text/html"] for c in nb.cells for o in c.get("outputs", []) if "score_success" in str(o.get("data", {}).get("text/html", "")))
    assert frame.count("<tr") >= 4  # header + the three episodes
    url = re.search(r"restgraph view: (http://127\.0\.0\.1:\d+/)", text)
    assert url and any("IFrame" in str(o.get("data", {})) or "iframe" in str(o.get("data", {})) for c in nb.cells for o in c.get("outputs", []))
    assert (tmp_path / "runs" / "01_quickstart" / "oracle" / "restgpt_graph.png").is_file()


@pytest.mark.local_model
def test_quickstart_embedded_model(tmp_path, monkeypatch):
    nb = execute("01_quickstart.ipynb", tmp_path, monkeypatch, RESTGRAPH_NOTEBOOK_MODEL="local",
                 RESTGRAPH_NOTEBOOK_TIMEOUT=os.environ.get("RESTGRAPH_NOTEBOOK_TIMEOUT", "90"))
    assert "local {" in outputs_text(nb)


def test_swapping_and_extending(tmp_path, monkeypatch):
    nb = execute("02_swapping_and_extending.ipynb", tmp_path, monkeypatch, RESTGRAPH_NOTEBOOK_LIMIT="3")
    text = outputs_text(nb)
    for agent in ("restgpt-no-planner", "restgpt-no-parser", "restgpt-terse-planner", "restgpt-retrieval-selector",
                  "restgpt-jmespath"):
        assert f"| restbench-tmdb | {agent} |" in text
    assert images(nb) >= 1
    assert "the model's expression: {" in text  # the JMESPath parser's reply, shown
    # what the notebook claims, read from its runs' traces: the terse planner changes the planner's
    # prompts only, the retrieval selector lists at most TOP_K (12) endpoints
    runs = tmp_path / "runs" / "02_swapping"
    assert_only_planner_differs(runs / "restgpt", runs / "restgpt-terse-planner")
    assert_selector_shortlists(runs / "restgpt", runs / "restgpt-retrieval-selector", 12)


def test_table4_offline(tmp_path, monkeypatch):
    for key in ("RESTGRAPH_ENDPOINT", "RESTGRAPH_ENDPOINT_MODEL", "OPENAI_BASE_URL"):
        monkeypatch.delenv(key, raising=False)
    nb = execute("03_reproducing_table4.ipynb", tmp_path, monkeypatch, RESTGRAPH_NOTEBOOK_LIMIT="1")
    text = outputs_text(nb)
    assert "the real sweep is skipped" in text
    # Table 4 as the paper prints it: one row of ours per method, the paper's row under it
    shown = "\n".join(str(o.get("data", {}).get("text/markdown", "")) for c in nb.cells for o in c.get("outputs", []))
    assert shown.count("| ours |") == 7 and "| RestGPT | paper | 100 | 75.0 [" in shown
    assert images(nb) >= 1
    assert (tmp_path / "runs" / "03_table4" / "report" / "offline_harness_check.png").is_file()


def test_shortcuts_and_api_use(tmp_path, monkeypatch):
    nb = execute("04_shortcuts_and_api_use.ipynb", tmp_path, monkeypatch, RESTGRAPH_NOTEBOOK_LIMIT="2", RESTGRAPH_APIUSE_LIMIT="0")
    assert images(nb) >= 2  # the shortcuts heat map and the dial figure


@pytest.mark.browser
def test_browsing(tmp_path, monkeypatch):
    nb = execute("05_browsing.ipynb", tmp_path, monkeypatch, RESTGRAPH_NOTEBOOK_LIMIT="1")
    assert images(nb) >= 1  # screenshots inline
    assert "'accuracy': 1.0" in outputs_text(nb)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-v"]))
