"""Study specs, cells and the study folder: what a sweep runs and what it refuses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from restgraph.evals.sweep import StudySpec, SweepError, run_sweep
from restgraph.evals.sweep.presets import PRESETS, TABLE4_AGENTS
from restgraph.evals.sweep.study import Variant
from tests.foundation.conftest import cli

SMOKE = "scripted:smoke-oracle"


def test_cells_cross_every_axis_and_skip_incompatible_agents() -> None:
    spec = StudySpec(
        benchmarks=["smoke", "restbench-tmdb"], agents=["chat", "oracle"], models=["a:x", "b:y"], seeds=[0, 1]
    )
    cells = spec.cells()
    keys = [c.key for c in cells]
    # chat acts on 'none' environments (smoke) with both models and seeds; oracle has no model
    assert sum(k.startswith("smoke--chat--") for k in keys) == 4
    assert sum(k.startswith("restbench-tmdb--oracle--none--") for k in keys) == 2
    assert not any(k.startswith("restbench-tmdb--chat") for k in keys)
    assert len(set(keys)) == len(keys) == 6


def test_variants_get_distinct_folders() -> None:
    spec = StudySpec(
        benchmarks=["smoke"],
        agents=["chat"],
        models=[SMOKE],
        variants=[Variant(name="a", bench_options={"n": 2}), Variant(name="b", bench_options={"n": 3})],
    )
    keys = [c.key for c in spec.cells()]
    assert len(set(keys)) == 2 and all("--a-" in k or "--b-" in k for k in keys)


def test_unknown_names_and_empty_studies_are_usage_errors() -> None:
    with pytest.raises(SweepError, match="unknown benchmark"):
        StudySpec(benchmarks=["nosuch"], agents=["chat"]).cells()
    with pytest.raises(SweepError, match="no cell"):
        StudySpec(benchmarks=["restbench-tmdb"], agents=["chat"]).cells()


def test_study_file_errors_name_the_field(tmp_path: Path) -> None:
    path = tmp_path / "study.yaml"
    path.write_text("benchmarks: [smoke]\nagents: [chat]\nseedz: [1]\n")
    with pytest.raises(SweepError, match="seedz"):
        StudySpec.from_file(path)


def test_resume_refuses_a_changed_cell_and_a_second_start(tmp_path: Path) -> None:
    spec = StudySpec(
        benchmarks=["smoke"], agents=["chat"], models=[SMOKE], variants=[Variant(bench_options={"n": 3})]
    )
    run_sweep(spec, tmp_path, log=lambda _: None)
    with pytest.raises(SweepError, match="--resume"):
        run_sweep(spec, tmp_path, log=lambda _: None)
    # same folder name (default variant), other options: the old cell must not be mixed in
    (tmp_path / spec.cells()[0].key / "config.json").write_text(
        json.dumps({"options": {"bench_options": {"n": 5}}})
    )
    with pytest.raises(SweepError, match="changed since it ran"):
        run_sweep(spec, tmp_path, resume=True, log=lambda _: None)


def test_resume_runs_only_missing_episodes(tmp_path: Path) -> None:
    spec = StudySpec(
        benchmarks=["smoke"], agents=["chat"], models=[SMOKE], variants=[Variant(bench_options={"n": 6})]
    )
    run_sweep(spec, tmp_path, log=lambda _: None)
    traces = tmp_path / spec.cells()[0].key / "traces.jsonl"
    lines = traces.read_text().splitlines()
    traces.write_text("\n".join(lines[:4]) + "\n")  # as if killed after 4 episodes
    result = run_sweep(spec, tmp_path, resume=True, log=lambda _: None)
    ids = [json.loads(line)["task_id"] for line in traces.read_text().splitlines()]
    assert sorted(ids) == sorted(set(ids)) and len(ids) == 6
    assert next(iter(result["cells"].values()))["metrics"]["accuracy"] == 1.0


def test_table4_preset_writes_fourteen_runs_and_the_report(tmp_path: Path, data_dir: Path) -> None:
    assert len(PRESETS["table4"](["m"]).cells()) == 14 == 2 * len(TABLE4_AGENTS)
    result = cli(
        "sweep",
        "table4",
        "--model",
        "scripted:restgpt-oracle",
        "--limit",
        "1",
        "--out",
        str(tmp_path),
        "--quiet",
    )
    assert result.exit_code == 0, result
    runs = [d for d in tmp_path.iterdir() if (d / "summary.json").is_file()]
    assert len(runs) == 14
    assert {json.loads((d / "summary.json").read_text())["agent"] for d in runs} == set(TABLE4_AGENTS)
    assert (tmp_path / "report" / "table4.md").is_file() and (tmp_path / "report" / "table4.csv").is_file()


def test_cli_usage_errors_exit_2_before_any_folder(tmp_path: Path) -> None:
    out = tmp_path / "s"
    for args in (
        ["--bench", "smoke"],
        ["nosuch-preset"],
        ["table4", "--bench", "smoke"],
        ["--bench", "nosuch", "--agent", "chat"],
        ["--bench", "smoke", "--agent", "chat", "--executor", "dask"],
    ):
        result = cli("sweep", *args, "--out", str(out))
        assert result.exit_code == 2, (args, result)
        assert len(result.stderr.strip().splitlines()) == 1, result
        assert not out.exists()
