"""Agents, benchmarks and scripted models are found through entry points: an installed out-of-tree
package (tests/fixtures/demo_plugin) reaches `restgraph list` and `restgraph run`, the built-ins are
all declared in pyproject.toml, and a run imports only the benchmark and agent it runs."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from restgraph.agents.scripted import _POLICIES
from restgraph.evals.benchmark import _BENCHMARKS
from restgraph.graphs.registry import _AGENTS
from tests.foundation.conftest import REPO, python_lines

PLUGIN = REPO / "tests" / "fixtures" / "demo_plugin"
GROUPS = {"restgraph.agents": _AGENTS, "restgraph.benchmarks": _BENCHMARKS, "restgraph.scripted": _POLICIES}


def _install(pyproject: Path, site: Path) -> None:
    """What ``pip install`` leaves behind, minus the copying: the package and its ``.dist-info``
    (METADATA, entry_points.txt) in a folder on the path, so importlib.metadata finds it offline."""
    project = tomllib.loads(pyproject.read_text())["project"]
    package = project["name"].replace("-", "_")
    shutil.copytree(pyproject.parent / package, site / package)
    info = site / f"{package}-{project['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n"
    )
    lines = []
    for group, entries in project["entry-points"].items():
        lines += [f"[{group}]", *(f"{name} = {value}" for name, value in entries.items()), ""]
    (info / "entry_points.txt").write_text("\n".join(lines))


def _restgraph(*args: str | Path, site: Path | None = None) -> subprocess.CompletedProcess:
    """The installed ``restgraph`` command in a fresh process (``site`` prepended to its path)."""
    exe = shutil.which("restgraph", path=str(Path(sys.executable).parent))
    command = [exe] if exe else [sys.executable, "-m", "restgraph.evals.cli"]
    env = {**os.environ, "COLUMNS": "200"}
    if site is not None:
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(site), env.get("PYTHONPATH", "")) if p)
    return subprocess.run(
        [*command, *map(str, args)], cwd=REPO, env=env, capture_output=True, text=True, timeout=300
    )


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("site-packages")
    _install(PLUGIN / "pyproject.toml", folder)
    return folder


def test_an_installed_plugin_is_listed_with_its_options(site: Path) -> None:
    listed = _restgraph("list", site=site)
    assert listed.returncode == 0, listed.stderr
    for name in ("demo-reverse", "demo-reverser", "demo-oracle", "restbench-tmdb", "restgpt"):
        assert name in listed.stdout, name
    options = _restgraph("list", "--options", "demo-reverser", site=site)
    assert (
        options.returncode == 0 and "shout" in options.stdout and "upper-case the answer" in options.stdout
    ), options
    assert "demo-reverse" not in _restgraph("list").stdout  # not installed: not there


def test_an_installed_plugin_runs_end_to_end(site: Path, tmp_path: Path) -> None:
    run = _restgraph(
        "run",
        "demo-reverse",
        "--model",
        "scripted:demo-oracle",
        "-B",
        "n=3",
        "-A",
        "shout=1",
        "--out",
        tmp_path / "run",
        "--quiet",
        site=site,
    )
    assert run.returncode == 0, run.stderr
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert (summary["benchmark"], summary["agent"], summary["n"], summary["metrics"]["accuracy"]) == (
        "demo-reverse",
        "demo-reverser",
        3,
        1.0,
    )
    traces = [json.loads(line) for line in (tmp_path / "run" / "traces.jsonl").read_text().splitlines()]
    assert sorted(t["final_answer"] for t in traces) == [
        "BETA ALPHA",
        "BLUE GREEN RED",
        "FOUR THREE TWO ONE",
    ]  # shout=1 took effect
    bad = _restgraph(
        "run",
        "demo-reverse",
        "--model",
        "scripted:demo-oracle",
        "-A",
        "shot=1",
        "--out",
        tmp_path / "bad",
        site=site,
    )
    assert bad.returncode == 2 and "did you mean 'shout'" in bad.stderr and not (tmp_path / "bad").exists(), (
        bad.stderr
    )


def test_every_builtin_is_declared_in_pyproject() -> None:
    """The fallback that imports the built-ins must never be what finds one: declare each."""
    declared = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["entry-points"]
    for group, registry in GROUPS.items():
        registry.load_builtins()
        modules = {name: _module_of(plugin) for name, plugin in registry._items.items()}
        builtin = {
            name: module
            for name, module in modules.items()
            if module.startswith("restgraph.") and module.split(".")[1] in ("agents", "graphs", "evals")
        }
        assert builtin == {name: value.split(":")[0] for name, value in declared[group].items()}, group


def _module_of(plugin: object) -> str:
    builder = getattr(plugin, "builder", None)  # an AgentSpec
    return (builder or plugin).__module__


def test_a_run_imports_only_its_benchmark_and_agent(tmp_path: Path) -> None:
    probe = f"""
import sys
from typer.testing import CliRunner
from restgraph.evals.cli import app
def ours():
    mine = ("restgraph.evals.benchmarks.", "restgraph.graphs.")
    shared = ("restgraph.graphs.registry", "restgraph.graphs.episode_context")
    return sorted(m for m in sys.modules if m.startswith(mine) and m not in shared)
for args in (["--help"], ["run", "no-such-bench"], ["list", "--options", "smoke"], ["run", "smoke", "-B", "nn=1"]):
    result = CliRunner().invoke(app, args)
    print(args[0], result.exit_code, ours(), "langgraph" in sys.modules)
result = CliRunner().invoke(app, ["run", "smoke", "--model", "scripted:smoke-oracle", "-B", "n=2", "--out", {str(tmp_path / "r")!r}, "--quiet"])
print("ran", result.exit_code, ours())
"""
    lines = python_lines(probe)
    assert (
        lines
        == [
            "--help 0 [] False",
            "run 2 [] False",
            "list 0 ['restgraph.evals.benchmarks.smoke'] False",
            "run 2 ['restgraph.evals.benchmarks.smoke', 'restgraph.graphs.chat'] True",  # the agent is loaded to know its options
            "ran 0 ['restgraph.evals.benchmarks.smoke', 'restgraph.graphs.chat']",
        ]
    ), lines


def test_registry_falls_back_to_the_builtins_only_when_its_metadata_is_stale() -> None:
    from importlib.metadata import EntryPoint

    from restgraph.tools.plugins import PluginLoadError, Registry

    loaded: list[str] = []
    registry: Registry[int] = Registry(
        "restgraph.test-no-such-group",
        "widget",
        adopt=lambda name, obj: None,
        builtins=lambda: loaded.append("builtins") or registry.register("old", 1),
    )
    assert registry.get("old") == 1 and loaded == [
        "builtins"
    ]  # no entry point of restgraph's own: stale, fall back
    with pytest.raises(KeyError, match=r"unknown widget 'olde' \(did you mean 'old'\?\); known: old"):
        registry.get("olde")
    with pytest.raises(PluginLoadError, match="'broken'.*does not load: ModuleNotFoundError"):
        registry._load(
            "broken", EntryPoint(name="broken", value="no_such_module_for_restgraph", group=registry.group)
        )
    with pytest.raises(PluginLoadError, match="neither is one nor registers one"):
        registry._load("json", EntryPoint(name="json", value="json:dumps", group=registry.group))
