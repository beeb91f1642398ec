"""restgraph.evals.results: every benchmark's traces load as typed frames; export writes parquet/csv that read back."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
import pytest

from restgraph.evals import results
from restgraph.evals.benchmark import RunOptions, benchmark_names, get_benchmark
from restgraph.evals.trace import ModelCall, Step, Task, ToolCall, Trace, TraceStore

pytestmark = pytest.mark.skipif(
    not os.environ.get("RESTGRAPH_DATA_DIR"),
    reason="RESTGRAPH_DATA_DIR is unset (benchmark tasks come from it)",
)
ALLOWED = {"string", "Int64", "Float64", "boolean"}


def _task(name: str) -> Task:
    bench = get_benchmark(name)
    try:
        return bench.tasks(RunOptions(benchmark=name, agent=bench.default_agent))[0]
    except Exception:  # a gated dataset (AssistantBench) absent from the data folder: a task of its shape
        return Task(
            id=f"{name}/0",
            benchmark=name,
            instruction="How much?",
            gold={"answer": "$55"},
            metadata={"split": "validation"},
        )


def _traces(name: str) -> list[Trace]:
    task = _task(name)
    call = ModelCall(
        role="planner",
        model="openai:gpt-4o-mini",
        raw_output="{oops",
        parse_error="json_error: no JSON",
        input_tokens=120,
        output_tokens=7,
    )
    http = ToolCall(
        kind="http",
        method="GET",
        path="/search/movie",
        status=200,
        response="{}",
        extra={"template": "GET /search/movie"},
    )
    step = Step(index=0, node="planner", model_calls=[call], tool_calls=[http])
    ok = Trace(
        task_id=task.id,
        task=task,
        benchmark=name,
        agent="a",
        model="openai:gpt-4o-mini",
        steps=[step],
        final_answer="55",
    )
    failed = Trace(
        task_id=task.id + "-x",
        task=task,
        benchmark=name,
        agent="a",
        model="openai:gpt-4o-mini",
        status="error:RateLimitError",
        error="429",
    )
    for t in (ok, failed):
        t.recompute_usage()
    return [ok, failed]


@pytest.mark.parametrize("name", benchmark_names())
def test_every_benchmark_loads_with_typed_columns(name: str, tmp_path: Path) -> None:
    store = TraceStore(tmp_path)
    for trace in _traces(name):
        store.append(trace)
    frames = results.load(tmp_path)
    ep = frames.episodes
    assert len(ep) == 2 and len(frames.model_calls) == 1 and len(frames.tool_calls) == 1
    for frame in (ep, frames.model_calls, frames.tool_calls):
        odd = {
            c: str(t)
            for c, t in frame.dtypes.items()
            if str(t) not in ALLOWED and not str(t).startswith("datetime64")
        }
        assert not odd, f"untyped columns: {odd}"
    assert any(c.startswith("score_") for c in ep.columns), "the benchmark's scores are columns"
    failed = ep[ep.status.str.startswith("error")].iloc[0]
    assert failed.error_kind == "RateLimitError"
    assert ep.input_tokens.sum() == 120 and ep.cost_usd.iloc[0] == pytest.approx(
        (120 * 0.15 + 7 * 0.60) / 1e6
    )
    assert frames.model_calls.parsed_ok.iloc[0] is False or not frames.model_calls.parsed_ok.iloc[0]
    assert frames.tool_calls.template.iloc[0] == "GET /search/movie"


def test_export_round_trips_types_and_last_trace_per_task_wins(tmp_path: Path) -> None:
    run = tmp_path / "run"
    store = TraceStore(run)
    first, _ = _traces("smoke")
    again = first.model_copy(update={"final_answer": "56"})
    store.append(first)
    store.append(again)  # a --resume re-run of the same task: the later trace counts
    with open(run / "traces.jsonl", "a") as fh:
        fh.write('{"task_id": "torn')  # a killed writer's torn line is skipped
    ep = results.episodes(run)
    assert list(ep.final_answer) == ["56"]
    for fmt in ("parquet", "csv"):
        paths = results.export(run, tmp_path / fmt, fmt)
        assert [p.name for p in paths] == [f"episodes.{fmt}", f"model_calls.{fmt}", f"tool_calls.{fmt}"]
    back = pd.read_parquet(tmp_path / "parquet" / "episodes.parquet")
    assert dict(back.dtypes.astype(str)) == dict(ep.dtypes.astype(str))


def test_many_runs_concatenate_with_a_run_column(tmp_path: Path) -> None:
    for name in ("a", "b"):
        store = TraceStore(tmp_path / name)
        for trace in _traces("smoke"):
            store.append(trace)
    ep = results.episodes([tmp_path / "a", tmp_path / "b"])
    assert sorted(ep.run.unique()) == [str(tmp_path / "a"), str(tmp_path / "b")] and len(ep) == 4


def test_view_export_from_the_cli_and_usage_error_without_traces(tmp_path: Path) -> None:
    from tests.foundation.conftest import cli

    run = tmp_path / "run"
    assert (
        cli(
            "run", "smoke", "--model", "scripted:smoke-oracle", "--limit", "3", "--out", run, "--quiet"
        ).exit_code
        == 0
    )
    result = cli("view", run, "--export", tmp_path / "site")
    assert (
        result.exit_code == 0 and (tmp_path / "site" / "data" / "0" / "ep" / "2.js").is_file()
    )  # scripts: the site opens from disk
    missing = cli("view", tmp_path / "nothing")
    assert missing.exit_code == 2 and "no traces.jsonl" in missing.stderr
