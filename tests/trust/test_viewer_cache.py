"""The viewer's episode index is built once per run and reused while the run's files are unchanged;
an appended episode, a rescore or an unwritable cache never shows a stale or missing list."""

from __future__ import annotations

from pathlib import Path

import pytest

from restgraph.evals.trace import Task, Trace, TraceStore
from restgraph.evals.viewer import cache, data
from restgraph.evals.viewer.server import Viewer
from tests.foundation.conftest import cli


def _trace(i: int) -> Trace:
    task = Task(id=f"smoke/{i}", benchmark="smoke", instruction=f"What is {i} + 1?", gold={"answer": i + 1})
    return Trace(
        task_id=task.id,
        task=task,
        benchmark="smoke",
        agent="chat",
        model="scripted:x",
        final_answer=str(i + 1),
    )


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("RESTGRAPH_CACHE_DIR", str(tmp_path / "cache"))
    folder = tmp_path / "run"
    store = TraceStore(folder)
    for i in range(3):
        store.append(_trace(i))
    assert cli("score", folder).exit_code == 0
    return folder


def test_a_second_view_reads_the_cached_index_not_the_traces(
    run: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = data.index_run(run)
    assert [r[1] for r in first.rows] == ["smoke/0", "smoke/1", "smoke/2"] and all(
        r[3] == "success" for r in first.rows
    )
    assert len(list(cache.cache_dir().glob("*.json"))) == 1

    def no_pass(*_: object) -> None:
        raise AssertionError("traces.jsonl was indexed again although it did not change")

    monkeypatch.setattr(data, "_build", no_pass)
    second = data.index_run(run)
    assert second.rows == first.rows and second.offsets == first.offsets
    assert Viewer([run]).episode_doc(0, 2)["trace"]["task_id"] == "smoke/2"  # offsets still find the lines


def test_an_appended_episode_or_a_rescore_rebuilds_the_index(run: Path) -> None:
    assert len(data.index_run(run).rows) == 3
    TraceStore(run).append(_trace(3))
    rows = data.index_run(run).rows
    assert [r[1] for r in rows][-1] == "smoke/3" and len(rows) == 4
    wrong = _trace(1)
    wrong.final_answer = "no idea"
    TraceStore(run).append(wrong)  # the last line of a task wins
    assert cli("score", run).exit_code == 0
    rows = data.index_run(run).rows
    assert len(rows) == 4 and rows[1][1] == "smoke/1" and rows[1][3] == "failure"


def test_an_unwritable_cache_only_costs_time(
    run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    monkeypatch.setenv("RESTGRAPH_CACHE_DIR", str(blocker))
    assert len(data.index_run(run).rows) == 3
    assert len(data.index_run(run).rows) == 3
