"""The LLM judge as a second opinion, with a scripted judge model: `-B judge=MODEL` and
`restgraph score DIR --judge MODEL` store each prompt and reply and report the judge's success
rate and its agreement with the rule checker; without a judge nothing calls a model."""

from __future__ import annotations

import json

import pytest

from restgraph import agents
from restgraph.agents.scripted import register_scripted
from restgraph.evals.benchmark import RunOptions
from restgraph.evals.judge import JUDGE_FILE, parse_verdict, quoted_answer
from restgraph.evals.runner import run_sync
from tests.foundation.conftest import cli

CALLS: list[str] = []


def _judge_policy(task, params):
    """Passes every answer except one naming Christian Bale (a disagreement with the rules), and
    mumbles (no VERDICT line) on Sofia Coppola's count."""

    def reply(messages):
        prompt = messages[-1].content
        CALLS.append(prompt)
        answer = quoted_answer(prompt)
        if "Sofia Coppola has directed" in answer:
            return "I am not sure."
        return (
            "It names the wrong person.\nVERDICT: FAIL"
            if "Christian Bale" in answer
            else "It states the asked fact.\nVERDICT: PASS"
        )

    return reply


register_scripted("test-judge", _judge_policy)


def _no_model(*args, **kwargs):
    raise AssertionError("a model was built although no judge was asked for")


def test_parse_verdict_reads_the_last_line_only():
    assert parse_verdict("It states the fact.\nVERDICT: PASS") is True
    assert parse_verdict("Thinking...\n**VERDICT: FAIL**\n") is False
    assert parse_verdict("looks fine to me") is None
    assert parse_verdict("VERDICT: PASS\nOn reflection the answer hedges.") is None  # not last: an error
    assert parse_verdict("The answer says 'VERDICT: PASS'.\nVERDICT: FAIL") is False
    assert parse_verdict("VERDICT: PASS because it is right") is None  # not the strict format
    assert parse_verdict("VERDICT: PASS or VERDICT: FAIL") is None


def test_run_with_a_judge_stores_prompts_and_replies_and_rescoring_reproduces_the_summary(
    tmp_path, data_dir, monkeypatch
):
    CALLS.clear()
    out = tmp_path / "run"
    options = RunOptions(
        benchmark="restbench-tmdb",
        agent="oracle",
        limit=5,
        concurrency=4,
        bench_options={"judge": "scripted:test-judge"},
    )
    summary = run_sync(options, out, progress=False)
    assert summary["metrics"]["success_rate"] == 1.0
    judge = summary["judge"]
    assert judge["model"] == "scripted:test-judge" and judge["n"] == 5 and judge["unparsed"] == 1
    assert (
        judge["success_rate"] == 0.6 and judge["agreement_with_rules"] == 0.6
    )  # 3 PASS; query 2 FAIL; query 1 unparsed
    assert len(CALLS) == 5 and all("Answer key:" in p and "Question:" in p for p in CALLS)
    records = [json.loads(line) for line in (out / JUDGE_FILE).read_text().splitlines()]
    assert {r["task_id"] for r in records} == {f"tmdb/{i}" for i in range(1, 6)}
    assert all(r["prompt"] and r["reply"] for r in records)
    rows = {r["task_id"]: r for r in map(json.loads, (out / "scores.jsonl").read_text().splitlines())}
    assert (
        rows["tmdb/2"]["judge_success"] is False
        and rows["tmdb/2"]["success"] is True
        and "Christian Bale" in rows["tmdb/2"]["judge"]["prompt"]
    )
    assert rows["tmdb/1"]["judge_success"] is None and rows["tmdb/1"]["judge"]["reply"] == "I am not sure."
    before = (out / "summary.json").read_bytes()
    monkeypatch.setattr(agents.models, "make_chat_model", _no_model)
    assert cli("score", out).exit_code == 0  # stored verdicts: no model call
    assert (out / "summary.json").read_bytes() == before


def test_score_with_judge_on_a_run_made_without_one(tmp_path, data_dir, monkeypatch):
    CALLS.clear()
    out = tmp_path / "run"
    monkeypatch.setattr(agents.models, "make_chat_model", _no_model)
    summary = run_sync(
        RunOptions(benchmark="restbench-spotify", agent="oracle", limit=20, concurrency=4),
        out,
        progress=False,
    )
    assert "judge" not in summary and not (out / JUDGE_FILE).exists()
    assert cli("score", out).exit_code == 0 and not CALLS
    monkeypatch.undo()
    result = cli("score", out, "--judge", "scripted:test-judge")
    assert result.exit_code == 0, result.stdout
    written = json.loads((out / "summary.json").read_text())
    assert (
        written["judge"]["n"] == 2
    )  # of spotify/1..20 only 17 and 19 read the answer; the rest are state-based
    assert cli("score", out, "--judge", "nonsense-provider-without-colon").exit_code == 2


def test_an_answerless_episode_is_failed_without_asking_the_judge(data_dir):
    import asyncio

    from restgraph.evals.benchmark import get_benchmark
    from restgraph.evals.judge import judge_traces
    from restgraph.evals.trace import Trace

    bench = get_benchmark("restbench-tmdb")
    task = bench.tasks(RunOptions(benchmark="restbench-tmdb", agent="oracle"))[0]
    trace = Trace(
        task_id=task.id,
        task=task,
        benchmark=bench.name,
        agent="x",
        model="none",
        final_answer="Seven movies.",
        status="budget_exhausted",
    )
    CALLS.clear()
    records = asyncio.run(judge_traces(bench, [trace], "scripted:test-judge"))
    assert records[0].verdict is False and "no final answer" in records[0].note and not CALLS


@pytest.mark.parametrize("query", [17, 56])
def test_spotify_rubric_is_built_from_the_key(data_dir, query):
    from restgraph.evals.benchmark import get_benchmark
    from restgraph.evals.trace import Trace

    bench = get_benchmark("restbench-spotify")
    task = next(
        t
        for t in bench.tasks(RunOptions(benchmark="restbench-spotify", agent="oracle"))
        if t.gold["query_id"] == query
    )
    rubric = bench.judge_rubric(
        Trace(task_id=task.id, task=task, benchmark=bench.name, agent="x", model="none", final_answer="x")
    )
    assert rubric[0] == task.instruction and ("Born To Die" in rubric[1] or "Robin Gray" in rubric[1])
