"""Prompts that cannot fit the model's context are refused before the call, by name
(``error:context_overflow``), never recorded as ``finished``; a server's own refusal is named alike."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest

from restgraph.agents.context_fit import ContextOverflow, check_fit, context_window, prompt_tokens
from restgraph.agents.scripted import register_scripted
from restgraph.evals.benchmark import RunOptions
from restgraph.evals.runner import EpisodeRunner
from tests.fake_openai import recording_openai
from tests.foundation.conftest import cli, trace_rows
from tests.trust import test_fail_fast  # noqa: F401  (registers its test agents)

SWALLOWS = "test-swallows-model-errors"  # registered by test_fail_fast: a lenient agent that carries on

SENT: list[str] = []


def _counting(task: Any, params: dict[str, str]) -> Any:
    def policy(messages: list[Any]) -> str:
        SENT.append(str(messages[-1].content))
        return "42"

    return policy


def _llama_cpp_refuses(task: Any, params: dict[str, str]) -> Any:
    """What the embedded llama.cpp server answers a prompt over its slot (the body it sends)."""

    def policy(messages: list[Any]) -> str:
        request = httpx.Request("POST", "http://127.0.0.1/v1/chat/completions")
        body = {
            "error": {
                "code": 400,
                "message": "the request exceeds the available context size, try increasing it",
                "type": "exceed_context_size_error",
                "n_prompt_tokens": 8229,
                "n_ctx": 8192,
            }
        }
        raise openai.BadRequestError(
            f"Error code: 400 - {body}", response=httpx.Response(400, request=request), body=body
        )

    return policy


register_scripted("test-counting", _counting)
register_scripted("test-llama-context-400", _llama_cpp_refuses)


def test_a_prompt_over_a_small_context_is_refused_before_the_call(tmp_path: Path) -> None:
    SENT.clear()
    out = tmp_path / "run"
    result = cli(
        "run",
        "smoke",
        "--model",
        "scripted:test-counting",
        "-M",
        "context_window=12",
        "-B",
        "n=2",
        "--out",
        out,
        "--quiet",
    )
    assert result.exit_code == 3 and "error:context_overflow x2" in result.stderr, result
    assert SENT == []  # the model never saw a prompt
    for row in trace_rows(out):
        assert row["status"] == "error:context_overflow" and "context window of 12 tokens" in row["error"]
        (call,) = [c for s in row["steps"] for c in s["model_calls"]]
        assert "context_length_exceeded" in call["error"] and not call["raw_output"]
    fits = cli(
        "run",
        "smoke",
        "--model",
        "scripted:test-counting",
        "-M",
        "context_window=200",
        "-B",
        "n=2",
        "--out",
        tmp_path / "ok",
        "--quiet",
    )
    assert fits.exit_code == 0 and len(SENT) == 2


def test_an_agent_that_swallows_the_refusal_still_ends_context_overflow(tmp_path: Path) -> None:
    out = tmp_path / "run"
    cli(
        "run",
        "smoke",
        "--agent",
        SWALLOWS,
        "--model",
        "scripted:test-counting",
        "-M",
        "context_window=12",
        "-B",
        "n=1",
        "--out",
        out,
        "--quiet",
    )
    assert [r["status"] for r in trace_rows(out)] == ["error:context_overflow"]


def _fake_endpoint_run(tmp_path: Path, max_tokens: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """One smoke episode through ChatOpenAI on a recording fake endpoint whose window is 80 tokens."""
    sent: list[dict[str, Any]] = []

    def factory(task: Any) -> Any:
        model, requests = recording_openai(["42"], max_tokens=max_tokens)
        sent.append({"requests": requests})
        return model

    options = RunOptions(
        benchmark="smoke",
        agent="chat",
        model="openai:gpt-test",
        bench_options={"n": 1},
        model_options={"context_window": 80},
    )
    out = tmp_path / f"run{max_tokens}"
    asyncio.run(EpisodeRunner(options, out, model_factory=factory, progress=False).run())
    return trace_rows(out), [r for s in sent for r in s["requests"]]


def test_max_tokens_counts_against_the_window(tmp_path: Path) -> None:
    rows, requests = _fake_endpoint_run(tmp_path, max_tokens=20)  # ~25 prompt tokens + 20 fit in 80
    assert rows[0]["status"] == "finished" and len(requests) == 1
    rows, requests = _fake_endpoint_run(tmp_path, max_tokens=70)  # the same prompt + 70 do not
    assert rows[0]["status"] == "error:context_overflow" and requests == []
    assert "the reply may take 70" in rows[0]["error"]


@pytest.mark.parametrize("agent", ["chat", SWALLOWS])
def test_a_server_refusing_a_long_prompt_is_context_overflow_not_finished(tmp_path: Path, agent: str) -> None:
    out = tmp_path / "run"
    cli(
        "run",
        "smoke",
        "--agent",
        agent,
        "--model",
        "scripted:test-llama-context-400",
        "-B",
        "n=1",
        "--out",
        out,
        "--quiet",
        "--allow-errors",
    )
    (row,) = trace_rows(out)
    assert row["status"] == "error:context_overflow", row["error"]


def test_windows_and_counts() -> None:
    assert context_window("local") == 8192  # 16,384 KV cells over 2 slots
    assert context_window("local", {"n_ctx": 8192, "parallel": 4}) == 2048
    assert context_window("openai:gpt-4o-mini") == 128000 and context_window("openai:gpt-4") == 8192
    assert context_window("openai:my-finetune") is None and context_window("scripted:constant") is None
    assert context_window("openai:my-finetune", {"context_window": 4096}) == 4096
    messages = [{"type": "system", "content": "You are terse."}, {"type": "human", "content": "word " * 100}]
    used = prompt_tokens(messages)
    assert 100 < used < 130
    check_fit(messages, {"max_tokens": 512}, used + 512)  # exactly full: fits
    with pytest.raises(ContextOverflow, match="context_length_exceeded"):
        check_fit(messages, {"max_completion_tokens": 512}, used + 511)
    check_fit(messages, {"max_tokens": 10**6}, None)  # unknown window: nothing checked
