"""The chat-answer extraction adapter (spec section 7), the api-use-coder agent, the benchmark
end to end with scripted models, and the dial report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from langchain_core.messages import BaseMessage

from restgraph.agents.api_use.extract import clean_decode, extract_body, uses_keyword_arguments
from restgraph.agents.scripted import register_scripted
from restgraph.evals.benchmark import RunOptions
from restgraph.evals.reports.api_use import main as report_main
from restgraph.evals.runner import run_sync
from restgraph.evals.scorers.api_use import pass_at_k
from restgraph.evals.trace import Task, TraceStore


@pytest.mark.parametrize(
    ("answer", "body"),
    [
        ("return solids.f(a)\n[END]\ntrailing", "return solids.f(a)"),
        (
            "Sure:\n```python\nimport solids\nfrom solids import f\n\ndef g(a):\n    x = solids.f(a)\n\n    return x\nprint(g(1))\n```\nDone.",
            "x = solids.f(a)\n    return x",
        ),
        ("```\nhelper()\n```\n```py\ndef g(a):\n    return solids.f(a)\n```", "return solids.f(a)"),
        ("```\nprint(1)\n```\n```\nreturn solids.f(a)\n```", "return solids.f(a)"),
        (
            "```python\ndef g(a):\n    if a:\n        return solids.f(a)\n    return solids.h(a)",
            "if a:\n        return solids.f(a)\n    return solids.h(a)",
        ),
        ("def g(a):\n\treturn solids.f(a)", "return solids.f(a)"),
        ("```python\n```", None),
        ("", None),
    ],
)
def test_extraction_rules(answer: str, body: str | None) -> None:
    assert extract_body(answer, "g", "solids", "    ") == body


def test_extraction_keeps_keywords_and_clean_decode_cuts() -> None:
    body = extract_body("```python\ndef g(a):\n    return solids.f(radius=a)\n```", "g", "solids")
    assert body == "return solids.f(radius=a)" and uses_keyword_arguments(body)
    assert not uses_keyword_arguments("return solids.f(a)")
    assert clean_decode("return x\n\nmore[END]") == "return x"


def test_pass_at_k() -> None:
    assert pass_at_k(10, 0, 1) == 0.0 and pass_at_k(10, 10, 5) == 1.0
    assert pass_at_k(4, 1, 1) == pytest.approx(0.25) and pass_at_k(4, 1, 2) == pytest.approx(0.5)


def _run(tmp_path: Path, model: str, **kw) -> dict:
    options = RunOptions(benchmark="api-use", agent="api-use-coder", model=model, concurrency=4, **kw)
    return run_sync(options, tmp_path / model.replace(":", "_").replace("?", "_"))


def test_scripted_target_scores_one_on_distractors(data_dir: Path, tmp_path: Path) -> None:
    summary = _run(tmp_path, "scripted:api-use-target", bench_options={"suite": "distractors"})
    assert summary["n"] == 36 and summary["metrics"]["pass_rate"] == 1.0
    assert summary["metrics"]["pass_rate/distractors=7"] == 1.0 and summary["metrics"]["faithful"] == 1.0
    raw = _run(tmp_path, "scripted:api-use-target?style=raw", bench_options={"suite": "distractors"}, limit=3)
    assert raw["metrics"]["pass_rate"] == 1.0
    traces = TraceStore(tmp_path / "scripted_api-use-target").load().traces
    checks = [c for t in traces for c in t.tool_calls("python")]
    assert len(checks) == 36 and all(c.name == "api_use.execute" for c in checks)
    report_main([str(tmp_path / "scripted_api-use-target"), "--out", str(tmp_path / "report")])
    assert (tmp_path / "report" / "dials.png").stat().st_size > 10_000
    assert "pass rate by number of distractors" in (tmp_path / "report" / "dials.md").read_text()


def _keyword_policy(task: Task | None, params: dict[str, str]):
    """Answers with keyword arguments every other sample: correct in intent, failing in faithful mode."""
    count = {"n": 0}

    def policy(messages: list[BaseMessage]) -> str:
        count["n"] += 1
        target = task.gold["target"]
        if count["n"] % 2:
            return f"```python\n{target}\n```"
        return "```python\nreturn solids.volume_of_cone(radius=radius, height=height)\n```"

    return policy


register_scripted("api-use-test-keywords", _keyword_policy)


def test_samples_give_pass_at_k_and_keyword_rate(data_dir: Path, tmp_path: Path) -> None:
    summary = _run(
        tmp_path,
        "scripted:api-use-test-keywords",
        bench_options={"suite": "distractors"},
        limit=4,
        agent_options={"samples": 4},
    )
    metrics = summary["metrics"]
    assert metrics["pass_rate"] == 0.5 and metrics["pass@1"] == 0.5 and metrics["keyword_args_rate"] == 0.5
    fixed = _run(
        tmp_path / "fixed",
        "scripted:api-use-test-keywords",
        bench_options={"suite": "distractors", "fixed": "kwargs_aware_checker"},
        limit=4,
        agent_options={"samples": 2},
    )
    assert fixed["metrics"]["pass_rate"] == 1.0 and fixed["metrics"]["faithful"] == 0.0


def test_no_code_answers_are_recorded_failures(data_dir: Path, tmp_path: Path) -> None:
    register_scripted("api-use-test-empty", lambda task, params: lambda messages: "```python\n```")
    summary = _run(tmp_path, "scripted:api-use-test-empty", bench_options={"suite": "chaining"}, limit=2)
    assert summary["metrics"]["pass_rate"] == 0.0 and summary["metrics"]["no_code_rate"] == 1.0
    trace = TraceStore(tmp_path / "scripted_api-use-test-empty").load().traces[0]
    assert trace.status == "finished" and next(trace.model_calls()).parse_error.startswith("no_code")
    assert json.loads(trace.final_answer) == {"samples": [None]}


@pytest.mark.local_model
def test_local_model_completes_a_few_cases(data_dir: Path, tmp_path: Path) -> None:
    summary = _run(tmp_path, "local", bench_options={"suite": "distractors"}, limit=1)
    assert summary["n"] == 1 and 0.0 <= summary["metrics"]["pass_rate"] <= 1.0


def test_chat_requests_default_to_temperature_zero_and_do_not_steer_argument_style() -> None:
    import asyncio

    from restgraph.agents.api_use.code_writer import build_messages, sampling_model, write_code
    from restgraph.graphs.api_use_coder import default_temperature
    from tests.fake_openai import recording_openai

    model, requests = recording_openai(["```python\ndef g(a):\n    return solids.f(a)\n```\n[END]"])
    sample = asyncio.run(
        write_code(
            sampling_model(model, temperature=default_temperature(None, 1), seed=None),
            "problem",
            func_name="g",
            root="solids",
            indent="    ",
        )
    )
    assert sample.body == "return solids.f(a)" and requests[0]["temperature"] == 0.0
    assert default_temperature(None, 4) == 0.5 and default_temperature("0.7", 1) == 0.7
    system = build_messages("p")[0].content
    assert "positional" not in system and "keyword" not in system and "order" not in system


@pytest.mark.parametrize(
    "answer",
    [
        "}}{{ not json, no Final Answer, <|garbage|> ```",
        "I cannot help with that.",
        "The answer is solids.f(a) of course",
    ],
)
def test_garbage_answers_are_no_code(answer: str) -> None:
    assert extract_body(answer, "g", "solids") is None


def test_garbage_replies_raise_no_code_rate(data_dir: Path, tmp_path: Path) -> None:
    summary = _run(tmp_path, "scripted:garbage", bench_options={"suite": "distractors"}, limit=3)
    assert summary["metrics"]["no_code_rate"] == 1.0 and summary["metrics"]["pass_rate"] == 0.0
    config = json.loads((tmp_path / "scripted_garbage" / "config.json").read_text())
    assert config["agent_settings"]["temperature"] == 0.0  # the default sent to chat models is recorded
