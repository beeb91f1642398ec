"""Typed -A/-B/-M options and task selection: a typo or a bad value is a usage error (exit 2, one
line naming the key and the valid ones) before any episode runs or any run folder is written;
what is valid is recorded typed in config.json and listed by ``restgraph list --options``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from restgraph.evals.benchmark import RunOptions
from restgraph.evals.runner import EpisodeRunner, run_sync
from restgraph.evals.selection import SelectionError, parse_limit
from restgraph.tools.options import AutoBool, OptionError, Options, validate_options
from tests.foundation.conftest import cli, trace_rows, usage_error_line

ORACLE = "scripted:smoke-oracle"


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        # the five: a typo'd agent option, benchmark option and model option, a bad value, a negative limit
        (
            ["restbench-tmdb", "--agent", "restgpt", "-A", "planer_steps=3"],
            ["'planer_steps'", "did you mean 'planner_steps'", "valid:", "llm_calls"],
        ),
        (["smoke", "--model", ORACLE, "-B", "nn=3"], ["'nn'", "did you mean 'n'", "valid: n, dataset_seed"]),
        (
            ["smoke", "--model", "scripted:smoke-oracle", "-M", "nosuch=1"],
            ["'nosuch'", "model scripted", "valid:"],
        ),
        (
            ["restbench-tmdb", "--agent", "restgpt", "-A", "planner_steps=abc"],
            ["planner_steps='abc'", "valid integer", "valid:"],
        ),
        (["smoke", "--model", ORACLE, "--limit", "-1"], ["--limit -1", "negative"]),
        # more of the same kind
        (
            ["smoke", "--model", "local", "-M", "nosuch=1"],
            ["'nosuch'", "model local", "n_ctx"],
        ),  # before the server starts
        (["smoke", "--model", "openai:gpt-4o-mini", "-M", "temprature=0.2"], ["did you mean 'temperature'"]),
        (
            ["smoke", "--agent", "chat", "--model", ORACLE, "-A", "calls=2"],
            ["unknown agent chat option 'calls'", "valid: none"],
        ),
        (
            ["restbench-tmdb", "--agent", "restgpt", "-A", "planner_steps=0"],
            ["planner_steps=", "greater than or equal to 1"],
        ),
        (
            ["restbench-tmdb", "--agent", "oracle", "-B", "server=socket"],
            ["server='socket'", "inprocess", "loopback"],
        ),
        (["api-use", "--model", ORACLE, "--suite", "nosuch"], ["unknown api-use suite 'nosuch'"]),
        (["api-use", "--model", ORACLE, "-B", "fixed=nosuch_flag"], ["unknown api-use fix flags"]),
        (["shortcuts", "--model", ORACLE, "-B", "candidates=all"], ["candidates='all'", "sample", "logged"]),
        (
            ["smoke", "--model", ORACLE, "--samples", "4"],
            ["unknown agent chat option 'samples'"],
        ),  # --samples is api-use's
        (["smoke", "--model", ORACLE, "--limit", "0"], ["selects no task"]),
        (["smoke", "--model", ORACLE, "--limit", "5:3"], ["selects no task"]),
        (["smoke", "--model", ORACLE, "--limit", "two"], ["N or A:B"]),
        (["smoke", "--model", ORACLE, "-B", "n=4", "--limit", "4:"], ["selects no task", "there are 4"]),
        (
            ["smoke", "--model", ORACLE, "-B", "n=4", "--task-id", "smoke/7"],
            ["unknown task id 'smoke/7'", "smoke/0"],
        ),
    ],
)
def test_bad_options_and_selections_exit_2_with_one_line_before_anything_runs(
    args: list[str], needles: list[str], tmp_path: Path
) -> None:
    usage_error_line(cli("run", *args, "--out", tmp_path / "r", "--quiet"), *needles)
    assert not (tmp_path / "r").exists()  # no episode ran, no run folder was written


def test_valid_options_are_recorded_typed_in_config_and_traces(tmp_path: Path) -> None:
    result = cli(
        "run",
        "smoke",
        "--agent",
        "chat-vote",
        "-A",
        "calls=2",
        "--model",
        ORACLE,
        "-B",
        "n=4",
        "-B",
        "dataset_seed=3",
        "--out",
        tmp_path,
        "--quiet",
    )
    assert result.exit_code == 0, result
    options = json.loads((tmp_path / "config.json").read_text())["options"]
    assert options["bench_options"] == {"n": 4, "dataset_seed": 3}  # ints, not the command line's text
    assert options["agent_options"] == {"calls": 2}
    rows = trace_rows(tmp_path)
    assert len(rows) == 4 and all(r["config"]["agent_options"] == {"calls": 2} for r in rows)
    assert all(len(r["steps"]) == 3 for r in rows)  # two samples and the vote: calls=2 took effect


def test_limit_range_and_task_ids_choose_the_tasks(tmp_path: Path) -> None:
    assert (
        cli(
            "run",
            "smoke",
            "--model",
            ORACLE,
            "-B",
            "n=10",
            "--limit",
            "2:5",
            "--out",
            tmp_path / "a",
            "--quiet",
        ).exit_code
        == 0
    )
    assert sorted(r["task_id"] for r in trace_rows(tmp_path / "a")) == ["smoke/2", "smoke/3", "smoke/4"]
    result = cli(
        "run",
        "smoke",
        "--model",
        ORACLE,
        "-B",
        "n=10",
        "--task-id",
        "smoke/7",
        "--task-id",
        "smoke/1",
        "--out",
        tmp_path / "b",
        "--quiet",
    )
    assert result.exit_code == 0, result
    assert sorted(r["task_id"] for r in trace_rows(tmp_path / "b")) == ["smoke/1", "smoke/7"]
    config = json.loads((tmp_path / "b" / "config.json").read_text())
    assert config["n_tasks"] == 2 and config["options"]["task_ids"] == ["smoke/7", "smoke/1"]


def test_runs_started_from_python_are_checked_too(tmp_path: Path) -> None:
    with pytest.raises(OptionError, match="did you mean 'calls'"):
        EpisodeRunner(
            RunOptions(benchmark="smoke", agent="chat-vote", model=ORACLE, agent_options={"cals": 2}),
            tmp_path / "r",
        )
    with pytest.raises(ValueError, match="negative"):
        RunOptions(benchmark="smoke", agent="chat", limit=-1)
    with pytest.raises(SelectionError, match="unknown task id"):
        run_sync(
            RunOptions(benchmark="smoke", agent="chat", model=ORACLE, task_ids=["smoke/x"]),
            tmp_path / "s",
            progress=False,
        )
    assert not (tmp_path / "r").exists() and not (tmp_path / "s").exists()


def test_a_mistyped_run_option_in_python_is_an_error_with_the_clis_suggestion(tmp_path: Path) -> None:
    """``RunOptions(limt=2)`` once ran every task: the typo became an extra field nobody read."""
    from restgraph.evals.benchmark import UnknownRunOption

    cli_line = usage_error_line(
        cli("run", "smoke", "--model", ORACLE, "--limt", "2", "--out", tmp_path / "r")
    )
    assert "--limit" in cli_line
    for build in (
        lambda: RunOptions(benchmark="smoke", agent="chat", model=ORACLE, limt=2),
        lambda: RunOptions.model_validate({"benchmark": "smoke", "agent": "chat", "limt": 2}),
    ):
        with pytest.raises(UnknownRunOption) as info:
            build()
        line = str(info.value)
        assert "\n" not in line and line.startswith("unknown RunOptions field 'limt' (did you mean 'limit'?)")
        assert "valid: " in line and "task_ids" in line
    assert not (tmp_path / "r").exists()


def test_parse_limit() -> None:
    assert parse_limit(None) is None
    assert parse_limit(5) == parse_limit("5") == (0, 5)
    assert parse_limit("2:7") == (2, 7) and parse_limit(":3") == (0, 3) and parse_limit("4:") == (4, None)
    for bad in ("-1", "-2:3", "3:3", "0", "1:x", ""):
        with pytest.raises(SelectionError):
            parse_limit(bad)


class _Demo(Options):
    steps: int = 3
    ratio: float | None = None
    mode: AutoBool = None
    names: list[str] = []
    label: str | None = None


def test_command_line_text_becomes_typed_values() -> None:
    opts = validate_options(
        _Demo,
        {"steps": "7", "ratio": "none", "mode": "off", "names": '["a", "b"]', "label": "123"},
        what="demo",
    )
    assert (opts.steps, opts.ratio, opts.mode, opts.names, opts.label) == (7, None, False, ["a", "b"], "123")
    assert validate_options(_Demo, {"mode": "auto"}, what="demo").mode is None
    assert validate_options(_Demo, {"label": "none"}, what="demo").label == "none"  # text stays text
    assert (
        validate_options(_Demo, {"label": 123}, what="demo").label == "123"
    )  # `-B label=123`, decoded as JSON
    with pytest.raises(
        OptionError,
        match=r"^bad demo option names='\[not json': Input should be a valid list \(expects list\[str\]\)",
    ):
        validate_options(_Demo, {"names": "[not json"}, what="demo")
    with pytest.raises(OptionError) as both:
        validate_options(_Demo, {"step": 1, "ratio": "fast"}, what="demo")
    assert (
        "\n" not in str(both.value)
        and "did you mean 'steps'" in str(both.value)
        and "ratio='fast'" in str(both.value)
    )


@pytest.mark.parametrize(
    ("name", "needles"),
    [
        ("restgpt", ["agent restgpt", "planner_steps", "int", "15", "planner calls per episode"]),
        ("smoke", ["benchmark smoke", "dataset_seed", "7"]),
        ("assistantbench", ["benchmark assistantbench", "scorer", "official", "settle_s"]),
        ("local", ["model local", "n_ctx", "max_tokens"]),
        ("openai:gpt-4o", ["model openai:gpt-4o", "base_url", "api_key"]),
        ("chat", ["agent chat", "takes no options"]),
    ],
)
def test_list_options_prints_types_defaults_and_help(name: str, needles: list[str]) -> None:
    result = cli("list", "--options", name)
    assert result.exit_code == 0, result
    text = " ".join(result.stdout.split())
    for needle in needles:
        assert needle in text, (needle, result.stdout)


def test_list_options_of_an_unknown_name_is_a_usage_error() -> None:
    usage_error_line(cli("list", "--options", "no-such-thing"), "'no-such-thing'")
