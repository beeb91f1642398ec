"""The AssistantBench loader and leaderboard export, on a temporary data folder (never the network)."""

from __future__ import annotations

import json

import pytest

from restgraph.evals.benchmark import RunOptions, get_benchmark
from restgraph.evals.datasets import DatasetUnavailable
from restgraph.evals.datasets.assistantbench import (
    FILES,
    dataset_path,
    export_predictions,
    load_tasks,
    main,
    split_name,
)
from restgraph.evals.trace import Task, Trace, TraceStore

ROWS = [
    {
        "id": "a" * 64,
        "set": "dev",
        "task": "How much is it?",
        "answer": "$55",
        "gold_url": "https://x",
        "explanation": "",
        "metadata": {},
        "difficulty": "Hard",
    },
    {
        "id": "b" * 64,
        "set": "dev",
        "task": "Which gyms?",
        "answer": "A\nB",
        "gold_url": None,
        "explanation": None,
        "metadata": None,
        "difficulty": "Medium",
        "extra_field": 1,
    },
]


@pytest.fixture
def ab_dir(tmp_path, monkeypatch):
    folder = tmp_path / "assistantbench"
    folder.mkdir()
    (folder / FILES["validation"]).write_text("\n".join(json.dumps(r) for r in ROWS) + "\n")
    (folder / FILES["test"]).write_text(
        json.dumps({**ROWS[0], "id": "c" * 64, "answer": None, "set": "test"}) + "\n"
    )
    monkeypatch.setenv("RESTGRAPH_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("RESTGRAPH_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("HF_TOKEN", raising=False)
    monkeypatch.delenv("HUGGING_FACE_HUB_TOKEN", raising=False)
    return folder


def test_loads_both_splits(ab_dir):
    dev = load_tasks("dev")
    assert [r.id for r in dev] == ["a" * 64, "b" * 64]
    assert dev[1].answer == "A\nB" and dev[1].model_extra == {"extra_field": 1}
    assert load_tasks("test")[0].answer is None
    assert split_name("val") == "validation"
    with pytest.raises(ValueError, match="unknown AssistantBench split"):
        split_name("train")


def test_malformed_line_names_the_line(ab_dir):
    (ab_dir / FILES["validation"]).write_text(json.dumps(ROWS[0]) + "\n{not json\n")
    with pytest.raises(ValueError, match=r":2: not an AssistantBench row"):
        load_tasks("validation")


def test_gated_dataset_without_token_explains_itself(ab_dir):
    (ab_dir / FILES["validation"]).unlink()
    with pytest.raises(DatasetUnavailable, match="HF_TOKEN"):
        dataset_path("validation")  # no token: refuses before any network access
    with pytest.raises(DatasetUnavailable, match="is not in"):
        dataset_path("validation", download=False)


def test_benchmark_tasks_and_test_split_scoring(ab_dir):
    bench = get_benchmark("assistantbench")
    tasks = bench.tasks(RunOptions(benchmark="assistantbench", agent="browser"))
    assert tasks[0].gold["answer"] == "$55" and tasks[0].metadata["split"] == "validation"
    test_tasks = bench.tasks(
        RunOptions(benchmark="assistantbench", agent="browser", bench_options={"split": "test"})
    )
    trace = Trace(
        task_id=test_tasks[0].id,
        task=test_tasks[0],
        benchmark="assistantbench",
        agent="browser",
        model="m",
        final_answer="55",
    )
    assert bench.score_episode(trace) == {"has_ans": 1.0, "gold_available": False}  # no score at all, not a 0
    answered = trace.model_copy(update={"task": tasks[0], "final_answer": "[55]"})
    row = bench.score_episode(answered)
    assert row["score"] == 0.0 and row["scorer_error"].startswith("TypeError")  # the tuple bug, recorded
    fixed = answered.model_copy(update={"config": {"bench_options": {"scorer": "fixed"}}})
    assert bench.score_episode(fixed)["score"] == 1.0


def test_export_predictions_in_leaderboard_format(tmp_path, ab_dir):
    tasks = [
        Task(id=i, benchmark="assistantbench", instruction="q", metadata={"hf_id": i})
        for i in ("c" * 64, "d" * 64)
    ]
    store = TraceStore(tmp_path / "run")
    store.append(
        Trace(
            task_id=tasks[0].id,
            task=tasks[0],
            benchmark="assistantbench",
            agent="browser",
            model="m",
            final_answer="55",
        )
    )
    store.append(
        Trace(
            task_id=tasks[1].id,
            task=tasks[1],
            benchmark="assistantbench",
            agent="browser",
            model="m",
            final_answer=None,
        )
    )
    assert main(["export", str(tmp_path / "run")]) == 0
    lines = (tmp_path / "run" / "assistantbench-predictions-test.jsonl").read_text().splitlines()
    assert [json.loads(line) for line in lines] == [
        {"id": "c" * 64, "answer": "55"},
        {"id": "d" * 64, "answer": ""},
    ]
    assert export_predictions([], tmp_path / "empty.jsonl").read_text() == ""
