"""No answer, no success: an episode that ends without a final answer (spent budget, timeout,
error) scores 0 on answer-based success, even when the agent left the right text in
``final_answer`` as its last executor output."""

from __future__ import annotations

import pytest

from restgraph.evals.benchmark import RunOptions, get_benchmark
from restgraph.evals.trace import Trace


@pytest.mark.parametrize("status", ["budget_exhausted", "error:timeout", "error:RuntimeError"])
def test_tmdb_answerless_episode_fails_even_with_the_right_last_output(data_dir, status):
    bench = get_benchmark("restbench-tmdb")
    task = bench.tasks(RunOptions(benchmark="restbench-tmdb", agent="oracle"))[
        1
    ]  # the lead actor of The Dark Knight
    right = task.gold["reference_answer"]
    finished = Trace(
        task_id=task.id,
        task=task,
        benchmark=bench.name,
        agent="x",
        model="none",
        final_answer=right,
        env_state={"mode": "inprocess"},
    )
    assert bench.score_episode(finished)["success"] is True
    spent = finished.model_copy(update={"status": status})
    scores = bench.score_episode(spent)
    assert scores["success"] is False and "no final answer" in scores["reason"]
