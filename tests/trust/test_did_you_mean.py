"""Every mistyped name the CLI takes is a usage error: exit 2, one line, the closest known name,
before any work (no run folder, no model call, no summary read)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.foundation.conftest import cli, usage_error_line

ORACLE = "scripted:smoke-oracle"
CASES = [
    pytest.param(["run", "smok", "--model", ORACLE], "'smoke'", id="benchmark"),
    pytest.param(["run", "smoke", "--agent", "chatt", "--model", ORACLE], "'chat'", id="agent"),
    pytest.param(["run", "smoke", "--model", "scripted:smoke-oracel"], "'smoke-oracle'", id="scripted-model"),
    pytest.param(["run", "smoke", "--model", "opnai:gpt-4o-mini"], "'openai'", id="model-provider"),
    pytest.param(
        ["run", "smoke", "--model", "antropic:claude-sonnet-4-5"],
        "'anthropic'",
        id="model-provider-langchain",
    ),
    pytest.param(["run", "smoke", "--model", ORACLE, "-B", "nn=3"], "'n'", id="bench-option"),
    pytest.param(
        ["run", "smoke", "--agent", "chat-vote", "--model", ORACLE, "-A", "cals=2"],
        "'calls'",
        id="agent-option",
    ),
    pytest.param(
        ["run", "smoke", "--model", ORACLE, "-M", "temprature=0"], "'temperature'", id="model-option"
    ),
    pytest.param(["run", "smoke", "--model", ORACLE, "--task-id", "smoke/01"], "'smoke/1'", id="task-id"),
    pytest.param(["run", "smoke", "--model", ORACLE, "--limt", "3"], "--limit", id="cli-option"),
    pytest.param(["rn", "smoke"], "'run'", id="command"),
    pytest.param(["report", "RUN", "--layout", "tabel4"], "'table4'", id="report-layout"),
    pytest.param(["report", "RUN", "--format", "mardown"], "'markdown'", id="report-format"),
    pytest.param(["export", "RUN", "--format", "parqet"], "'parquet'", id="export-format"),
    pytest.param(["list", "--options", "restbench-tmbd"], "'restbench-tmdb'", id="list-options"),
    pytest.param(["sandbox", "serve", "spotfy"], "'spotify'", id="sandbox"),
]


@pytest.mark.parametrize(("args", "suggestion"), CASES)
def test_a_mistyped_name_gets_one_line_with_the_closest_name(
    args: list[str], suggestion: str, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    run = (
        tmp_path / "run"
    )  # a run folder with no summary: report/export must refuse the name before reading it
    run.mkdir()
    argv = [str(run) if a == "RUN" else a for a in args]
    if argv[0] == "run":
        argv += ["--out", str(out), "--quiet"]
    line = usage_error_line(cli(*argv), suggestion)
    assert "did you mean" in line.lower() or "possible options" in line.lower(), line
    assert not out.exists(), "a usage error leaves no run folder"


def test_a_provider_with_nothing_close_is_still_one_line_naming_the_known_ones(tmp_path: Path) -> None:
    line = usage_error_line(
        cli("run", "smoke", "--model", "zzzz:m", "--out", tmp_path / "o", "--quiet"),
        "'zzzz'",
        "openai",
        "known:",
    )
    assert "did you mean" not in line


def test_base_url_servers_take_any_model_name(tmp_path: Path) -> None:
    from restgraph.evals.names import provider_error

    assert provider_error("llama3.1:8b", "http://127.0.0.1:11434/v1") is None  # Ollama's names carry a colon
    assert provider_error("org/model:tag", None) is None
    assert provider_error("gpt-4o-mini", None) is None and provider_error("openai:gpt-4o-mini", None) is None
