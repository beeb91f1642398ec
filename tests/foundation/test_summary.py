"""summary.json from traces alone: one trace per task (last wins), natural task order."""

from __future__ import annotations

import json
from pathlib import Path

from restgraph.evals.summary import write_summary
from restgraph.evals.trace import Task, Trace, TraceStore


def _trace(task_id: str, answer: str, gold: int = 4) -> Trace:
    task = Task(id=task_id, benchmark="smoke", instruction="What is 2 + 2?", gold={"answer": gold})
    return Trace(
        task_id=task_id, task=task, benchmark="smoke", agent="chat", model="scripted:x", final_answer=answer
    )


def test_mixed_numeric_and_text_ids_sort_naturally_and_last_trace_wins(tmp_path: Path) -> None:
    store = TraceStore(tmp_path)
    for task_id, answer in [("q/10", "4"), ("q/alpha", "4"), ("q/2", "5"), ("q/2", "4"), ("q-3", "x")]:
        store.append(_trace(task_id, answer))
    summary = write_summary(tmp_path)
    rows = [json.loads(line) for line in (tmp_path / "scores.jsonl").read_text().splitlines()]
    assert [r["task_id"] for r in rows] == ["q/2", "q-3", "q/10", "q/alpha"]
    assert rows[0]["success"] is True  # the re-run of q/2 (written last) counts, not the first try
    assert summary["n"] == 4 and summary["metrics"] == {"accuracy": 0.75, "answer_rate": 0.75}
