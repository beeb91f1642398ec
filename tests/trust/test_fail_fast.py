"""Fail fast and stop waste: model preflight, --max-errors, exit codes, stuck episodes, per-episode
token/cost limits, and model errors that an agent swallowed."""

from __future__ import annotations

import json
import re
import socket
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest
from langchain_core.messages import HumanMessage

from restgraph.agents.scripted import register_scripted
from restgraph.graphs.registry import register_agent
from restgraph.tools.events import parse_outcome
from tests.foundation.conftest import cli, one_node_graph, trace_rows


def _retry_until_parsed(model: Any, env: Any, options: dict[str, Any]) -> Any:
    """A role that re-asks the same question until the reply is JSON (at most 50 times)."""

    async def act(state: dict[str, Any]) -> dict[str, Any]:
        for _ in range(50):
            reply = await model.ainvoke([HumanMessage("Answer as JSON: " + state["instruction"])])
            try:
                value = json.loads(reply.content)
            except ValueError as exc:
                parse_outcome(reply, parse_error=f"json_error: {exc}", role="answerer")
                continue
            parse_outcome(reply, parsed=value, role="answerer")
            return {"final_answer": str(value), "status": "finished"}
        return {"final_answer": None, "status": "finished"}

    return one_node_graph(act)


def _always_raises(model: Any, env: Any, options: dict[str, Any]) -> Any:
    async def act(state: dict[str, Any]) -> dict[str, Any]:
        raise LookupError("the same bug every time")

    return one_node_graph(act)


def _swallows_model_errors(model: Any, env: Any, options: dict[str, Any]) -> Any:
    async def act(state: dict[str, Any]) -> dict[str, Any]:
        try:
            await model.ainvoke([HumanMessage(state["instruction"])])
        except Exception:
            return {"final_answer": "42", "status": "finished"}  # a lenient agent carries on
        return {"final_answer": "42", "status": "finished"}

    return one_node_graph(act)


def _chatty(model: Any, env: Any, options: dict[str, Any]) -> Any:
    async def act(state: dict[str, Any]) -> dict[str, Any]:
        for i in range(100):
            await model.ainvoke([HumanMessage(f"{state['instruction']} (turn {i})")])
        return {"final_answer": "done", "status": "finished"}

    return one_node_graph(act)


def _http_400(task: Any, params: dict[str, str]) -> Any:
    """A server that refuses every prompt, as llama.cpp does one over its context (HTTP 400)."""

    def policy(messages: list[Any]) -> str:
        request = httpx.Request("POST", "http://127.0.0.1/v1/chat/completions")
        raise openai.BadRequestError(
            "prompt of 8229 tokens exceeds the context of 8192",
            response=httpx.Response(400, request=request),
            body=None,
        )

    return policy


register_scripted("test-http400", _http_400)
register_agent("test-retry-until-parsed", _retry_until_parsed, env_kind="none")
register_agent("test-always-raises", _always_raises, env_kind="none", needs_model=False)
register_agent("test-swallows-model-errors", _swallows_model_errors, env_kind="none")
register_agent("test-chatty", _chatty, env_kind="none")


def _one_line_and_no_folder(result: Any, out: Path) -> None:
    assert result.exit_code != 0, result
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert not out.exists(), "no run folder for a run that could not start"


def test_missing_key_fails_preflight_with_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("OPENAI_API_KEY", "RESTGRAPH_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    result = cli(
        "run",
        "smoke",
        "--agent",
        "chat",
        "--model",
        "openai:gpt-4o-mini",
        "--out",
        tmp_path / "run",
        "--quiet",
    )
    _one_line_and_no_folder(result, tmp_path / "run")
    assert "credentials" in result.stderr


def test_dead_base_url_fails_preflight_with_one_line(tmp_path: Path) -> None:
    with socket.socket() as sock:  # a loopback port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    result = cli(
        "run",
        "smoke",
        "--agent",
        "chat",
        "--model",
        "openai:m",
        "--base-url",
        f"http://127.0.0.1:{port}/v1",
        "--out",
        tmp_path / "run",
        "--quiet",
    )
    _one_line_and_no_folder(result, tmp_path / "run")
    assert "Connection" in result.stderr


def test_unknown_provider_fails_with_one_line(tmp_path: Path) -> None:
    result = cli(
        "run", "smoke", "--agent", "chat", "--model", "nosuchprovider:m", "--out", tmp_path / "run", "--quiet"
    )
    _one_line_and_no_folder(result, tmp_path / "run")
    assert "nosuchprovider" in result.stderr


def test_a_run_whose_episodes_all_error_exits_3_and_its_table_shows_the_errors(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = cli("run", "smoke", "--agent", "test-always-raises", "-B", "n=3", "--out", out, "--quiet")
    assert (
        result.exit_code == 3
        and "3 of 3 episodes errored" in result.stderr
        and "--allow-errors" in result.stderr
    )
    lines = result.stdout.splitlines()
    pairs = [line.split(":", 1)[1].strip() for line in lines if line.strip().startswith("errors:")]
    if pairs:  # the key/value layout a narrow terminal gets
        assert pairs == ["3"], result.stdout
    else:
        header = next(line for line in lines if "errors" in line)
        row = next(line for line in lines if "test-always-raises" in line)
        split = re.compile(r"\s{2,}|[│┃]")
        names = [c.strip() for c in split.split(header) if c.strip()]
        cells = [c.strip() for c in split.split(row) if c.strip()]
        assert cells[names.index("errors")] == "3", result.stdout
    assert (
        cli(
            "run",
            "smoke",
            "--agent",
            "test-always-raises",
            "-B",
            "n=3",
            "--out",
            tmp_path / "ok",
            "--quiet",
            "--allow-errors",
        ).exit_code
        == 0
    )


def test_the_first_five_episodes_failing_alike_stop_the_run(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = cli(
        "run",
        "smoke",
        "--agent",
        "test-always-raises",
        "-B",
        "n=40",
        "--concurrency",
        "1",
        "--out",
        out,
        "--quiet",
    )
    assert result.exit_code == 1 and "first 5 episodes all ended error:LookupError" in result.stderr
    assert len(trace_rows(out)) == 5  # not 40
    limited = cli(
        "run",
        "smoke",
        "--agent",
        "test-always-raises",
        "-B",
        "n=40",
        "--concurrency",
        "1",
        "--out",
        tmp_path / "b",
        "--quiet",
        "--max-errors",
        "2",
    )
    assert (
        limited.exit_code == 1 and "--max-errors 2" in limited.stderr and len(trace_rows(tmp_path / "b")) == 2
    )
    never = cli(
        "run",
        "smoke",
        "--agent",
        "test-always-raises",
        "-B",
        "n=7",
        "--out",
        tmp_path / "c",
        "--quiet",
        "--max-errors",
        "0",
        "--allow-errors",
    )
    assert never.exit_code == 0 and len(trace_rows(tmp_path / "c")) == 7


def test_the_same_unparseable_reply_forever_ends_stuck_at_the_first_repeat(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = cli(
        "run",
        "smoke",
        "--agent",
        "test-retry-until-parsed",
        "--model",
        "scripted:constant?text=not%20json",
        "-B",
        "n=2",
        "--out",
        out,
        "--quiet",
    )
    assert result.exit_code == 0, result
    for row in trace_rows(out):
        assert row["status"] == "stuck" and "repeated an earlier call" in row["error"]
        calls = [c for s in row["steps"] for c in s["model_calls"]]
        assert (
            len(calls) == 2 and calls[0]["prompt_hash"] == calls[1]["prompt_hash"]
        )  # the first repeat, not 50 calls


def test_token_and_cost_limits_end_episodes_as_budget_exhausted_naming_the_limit(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    result = cli(
        "run",
        "smoke",
        "--agent",
        "test-chatty",
        "--model",
        "scripted:constant?text=ok",
        "-B",
        "n=1",
        "--out",
        tmp_path / "t",
        "--quiet",
        "--token-limit",
        "100",
    )
    (row,) = trace_rows(tmp_path / "t")
    assert (
        result.exit_code == 0
        and row["status"] == "budget_exhausted"
        and row["error"].startswith("token_limit")
    )
    assert (
        row["usage"]["model_calls"] < 100
        and row["usage"]["input_tokens"] + row["usage"]["output_tokens"] <= 100 + 30
    )
    # the stop is the design working, not a callback crash for LangChain to log on the terminal
    assert not [r for r in caplog.records if "Error in" in r.getMessage()]
    result = cli(
        "run",
        "smoke",
        "--agent",
        "test-chatty",
        "--model",
        "scripted:constant?text=ok",
        "-B",
        "n=1",
        "--out",
        tmp_path / "c",
        "--quiet",
        "--price",
        "1000000/1000000",
        "--cost-limit",
        "50",
    )  # $1 a token: 50 dollars is 50 tokens
    (row,) = trace_rows(tmp_path / "c")
    assert (
        row["status"] == "budget_exhausted"
        and row["error"].startswith("cost_limit")
        and row["usage"]["model_calls"] < 10
    )


def test_a_model_error_the_agent_swallowed_is_an_error_not_finished(tmp_path: Path) -> None:
    out = tmp_path / "run"
    cli(
        "run",
        "smoke",
        "--agent",
        "test-swallows-model-errors",
        "--model",
        "scripted:test-http400",
        "-B",
        "n=2",
        "--out",
        out,
        "--quiet",
        "--allow-errors",
    )
    rows = trace_rows(out)
    assert len(rows) == 2
    for row in rows:
        assert row["status"] == "error:model" and "a model call failed" in row["error"]


def test_config_json_records_provenance(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert (
        cli(
            "run", "smoke", "--model", "scripted:smoke-oracle", "-B", "n=1", "--out", out, "--quiet"
        ).exit_code
        == 0
    )
    prov = json.loads((out / "config.json").read_text())["provenance"]
    assert prov["packages"]["langgraph"] and prov["packages"]["python"]
    assert prov["scorer"]["benchmark"] == "smoke" and prov["scorer"]["version"].startswith("sha256:")
    assert prov["git"] is None or len(prov["git"]["revision"]) == 40
