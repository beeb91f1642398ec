"""restbench-tmdb end to end through the runner: the oracle scores 100/100 success and correct path
in-process and on a loopback uvicorn server; an agent that answers "I don't know" scores 0."""

from __future__ import annotations

from typing import Any

import pytest
from langgraph.graph import END, START, StateGraph

from restgraph.evals.benchmark import RunOptions, get_benchmark
from restgraph.evals.runner import run_sync
from restgraph.evals.trace import TraceStore
from restgraph.graphs.oracle import OracleState
from restgraph.graphs.registry import register_agent


def _dont_know(model: Any, env: Any, options: dict[str, Any]) -> Any:
    """Calls the gold path's first endpoint it can (a search), then gives up: paths but no answer."""

    async def act(state: OracleState) -> dict[str, Any]:
        await env.http.request("GET", "/search/movie", params={"query": state["instruction"][:30]})
        return {"final_answer": "I don't know.", "status": "finished"}

    graph = StateGraph(OracleState)
    graph.add_node("act", act)
    graph.add_edge(START, "act")
    graph.add_edge("act", END)
    return graph.compile()


register_agent(
    "tmdb-test-dont-know",
    _dont_know,
    env_kind="openapi",
    needs_model=False,
    description="test-only negative control",
)


def _run(tmp_path, agent="oracle", limit=None, **bench_options):
    options = RunOptions(
        benchmark="restbench-tmdb", agent=agent, concurrency=16, limit=limit, bench_options=bench_options
    )
    summary = run_sync(options, tmp_path, progress=False)
    return summary, TraceStore(tmp_path).load().traces


@pytest.mark.parametrize("server", ["inprocess", "loopback"])
def test_oracle_scores_100_of_100(tmp_path, data_dir, server):
    summary, traces = _run(tmp_path, server=server)
    metrics = summary["metrics"]
    assert summary["n"] == 100 and summary["status_counts"] == {"finished": 100}
    assert metrics["success_rate"] == 1.0 and metrics["correct_path_rate"] == 1.0, metrics
    assert 0 <= metrics["delta_solution_len"] < 0.1 and 2.26 <= metrics["mean_api_calls"] < 2.4
    assert traces[0].env_state["mode"] == server
    if server == "loopback":
        assert traces[0].http_calls()[0].url.startswith("http://127.0.0.1:")
    bench = get_benchmark("restbench-tmdb")  # rescoring needs the trace only
    assert all(bench.score_episode(t)["success"] for t in traces)


def test_i_dont_know_agent_scores_zero(tmp_path, data_dir):
    summary, traces = _run(
        tmp_path, agent="tmdb-test-dont-know", limit=25
    )  # every criterion vs "I don't know": test_solutions
    assert summary["metrics"]["success_rate"] == 0.0 and summary["metrics"]["delta_solution_len"] == 0.0
    assert summary["metrics"]["mean_api_calls"] == 1.0
    assert (
        summary["metrics"]["correct_path_rate"] == 0.0
    )  # one search never covers a gold path (all have length >= 1 and none is a lone /search/movie)
    assert all(get_benchmark("restbench-tmdb").score_episode(t)["reason"] != "key met" for t in traces)


def test_live_mode_needs_credentials_and_is_not_judged(monkeypatch, data_dir):
    from restgraph.evals.benchmarks.restbench_tmdb import live_credentials

    for var in ("TMDB_TOKEN", "TMDB_BEARER_TOKEN", "TMDB_API_KEY"):
        monkeypatch.delenv(var, raising=False)
    with pytest.raises(RuntimeError, match="TMDB_TOKEN"):
        live_credentials()
    monkeypatch.setenv("TMDB_API_KEY", "k")
    assert live_credentials() == ("k", "api_key")
    monkeypatch.setenv("TMDB_TOKEN", "t")
    assert live_credentials() == ("t", "bearer")


def test_live_review_export_lists_query_answer_and_hint(data_dir):
    from restgraph.evals.benchmarks.restbench_tmdb import review_csv
    from restgraph.evals.trace import Trace

    bench = get_benchmark("restbench-tmdb")
    task = bench.tasks(RunOptions(benchmark="restbench-tmdb", agent="oracle"))[0]
    trace = Trace(
        task_id=task.id,
        task=task,
        benchmark="restbench-tmdb",
        agent="x",
        model="none",
        final_answer="Seven, I think.",
        env_state={"mode": "live"},
    )
    assert bench.score_episode(trace)["success"] is None  # live answers are not judged against the fixture
    rows = review_csv([trace], trace_link="runs/x#{task_id}").splitlines()
    assert (
        rows[0].startswith("task_id,query,answer")
        and "give me the number of movies directed by Sofia Coppola" in rows[1]
        and "runs/x#tmdb/1" in rows[1]
    )
