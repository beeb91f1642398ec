"""The Ray executor on a real local cluster (head + one more node process, loopback only)."""

from __future__ import annotations

import json
import os
import signal
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from restgraph.evals.sweep import StudySpec, run_sweep
from restgraph.evals.sweep.study import Variant
from tests.fake_openai import CountingEndpoint
from tests.sweep.test_connections import check_counts, endpoint_study, trace_rows

ray = pytest.importorskip("ray", reason="the Ray extra is not installed (pip install -e '.[ray]')")

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def cluster() -> Any:
    from ray.cluster_utils import Cluster

    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 2, "include_dashboard": False})
    c.add_node(num_cpus=2)  # a second raylet: workers live in two node processes
    ray.init(address=c.address, log_to_driver=False, configure_logging=False)
    yield c
    ray.shutdown()
    c.shutdown()


def _comparable(summary: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if k != "peak_in_flight"}


def _task_counts(study: Path) -> dict[str, Counter[str]]:
    return {
        d.name: Counter(json.loads(line)["task_id"] for line in (d / "traces.jsonl").read_text().splitlines())
        for d in study.iterdir()
        if (d / "traces.jsonl").is_file()
    }


def test_local_and_ray_executors_give_identical_cell_summaries(
    tmp_path: Path, cluster: Any, data_dir: Path
) -> None:
    spec = StudySpec(
        benchmarks=["restbench-tmdb", "restbench-spotify"],
        agents=["restgpt", "react"],
        models=["scripted:restgpt-oracle"],
        seeds=[0, 1],
        limit=2,
        epochs=2,
    )
    local = run_sweep(spec, tmp_path / "local", executor="local", log=lambda _: None)
    remote = run_sweep(spec, tmp_path / "ray", executor="ray", workers=2, log=lambda _: None)
    assert local["complete"] and remote["complete"]
    assert len(local["cells"]) == 8 and set(local["cells"]) == set(remote["cells"])
    for key, summary in local["cells"].items():
        assert _comparable(summary) == _comparable(remote["cells"][key]), key
        on_disk = json.loads((tmp_path / "ray" / key / "summary.json").read_text())
        assert _comparable(on_disk) == _comparable(summary)
        assert summary["n"] == 4 and "epochs" in summary  # 2 tasks x 2 epochs, pass@k over the epochs


@pytest.mark.parametrize("max_attempts", [3, 1], ids=["requeued", "left-for-resume"])
def test_a_killed_worker_loses_and_repeats_nothing(tmp_path: Path, cluster: Any, max_attempts: int) -> None:
    n = 24
    # max_connections 5 < 2 workers x 4 episodes: the limiter is in play, and the killed worker's
    # leases (at most 4) cannot starve the rest even if they leaked; the end count shows a leak
    spec = StudySpec(
        benchmarks=["smoke"],
        agents=["chat"],
        models=["scripted:smoke-oracle?latency=0.3"],
        variants=[Variant(bench_options={"n": n})],
        concurrency=4,
        max_connections=5,
    )
    pids: list[int] = []
    killed: list[int] = []

    def kill_one_worker(cell: Any, task_id: str, info: dict[str, Any]) -> None:
        if not killed and info["done"] >= 4:  # episodes of both workers are in flight now
            killed.append(pids[0])
            os.kill(pids[0], signal.SIGKILL)

    first = run_sweep(
        spec,
        tmp_path,
        executor="ray",
        workers=2,
        max_attempts=max_attempts,
        on_workers=pids.extend,
        on_trace=kill_one_worker,
        log=lambda _: None,
    )
    assert killed, "the test never killed a worker"
    assert set(first["connections"]["in_flight"].values()) == {0}, first[
        "connections"
    ]  # the dead worker's leases came back
    counts = next(iter(_task_counts(tmp_path).values()))
    assert max(counts.values()) == 1  # nothing written twice
    if max_attempts == 1:
        assert not first["complete"] and len(counts) < n  # the killed worker's episodes are missing...
    resumed = run_sweep(spec, tmp_path, executor="ray", workers=2, resume=True, log=lambda _: None)
    assert resumed["complete"]
    counts = next(iter(_task_counts(tmp_path).values()))
    assert len(counts) == n and set(counts.values()) == {1}  # ...and resume fills exactly those
    summary = json.loads((tmp_path / spec.cells()[0].key / "summary.json").read_text())
    assert summary["n"] == n and summary["metrics"]["accuracy"] == 1.0


@pytest.mark.parametrize("max_connections", [2, None], ids=["limited", "unlimited-control"])
def test_max_connections_holds_across_all_ray_workers(
    tmp_path: Path, cluster: Any, max_connections: int | None
) -> None:
    """2 workers x 4 episodes in flight, one loopback endpoint counting what reaches it from both
    worker processes: with ``max_connections: 2`` exactly 2 at once, never more."""
    limiters: list[Any] = []

    def limiter_waiting() -> bool:
        return bool(limiters) and sum(ray.get(limiters[0].stats.remote())["waiting"].values()) > 0

    with CountingEndpoint(
        limit=2, expected=16, limiter_waiting=limiter_waiting if max_connections else None
    ) as endpoint:
        spec = endpoint_study(endpoint.url, max_connections=max_connections, n=16, concurrency=4)
        result = run_sweep(
            spec, tmp_path, executor="ray", workers=2, on_limiter=limiters.append, log=lambda _: None
        )
    assert result["complete"]
    check_counts(endpoint, trace_rows(tmp_path / spec.cells()[0].key), limited=bool(max_connections))
    if max_connections:  # both workers' requests met under one key, and every lease came back
        assert list(result["connections"]["peak"].values()) == [2] and list(
            result["connections"]["in_flight"].values()
        ) == [0]
