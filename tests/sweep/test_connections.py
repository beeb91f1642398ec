"""``max_connections`` in a sweep run by the local executor, and the study setting itself.

The endpoint is a real loopback server counting requests in flight (``CountingEndpoint``): it
holds requests until more than the limit are in flight, or the limiter is seen holding the rest
back, so a leaking limiter shows as a peak above 2 and a working one as exactly 2; the unlimited
control run (same endpoint, no limiter) shows the peak passing 2.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from restgraph import agents
from restgraph.evals.sweep import StudySpec, SweepError, run_sweep
from restgraph.evals.sweep.study import Variant
from tests.fake_openai import CountingEndpoint
from tests.foundation.conftest import cli


def endpoint_study(
    url: str, *, max_connections: int | None, n: int, concurrency: int, **spec: Any
) -> StudySpec:
    """``n`` smoke episodes of one model call each against the endpoint at ``url``: nothing
    within an episode waits behind another request, so the endpoint's holds always end."""
    variant = Variant(bench_options={"n": n}, model_options={"base_url": url, "api_key": "k"})
    return StudySpec(
        benchmarks=["smoke"],
        agents=["chat"],
        models=["openai:gpt-test"],
        variants=[variant],
        concurrency=concurrency,
        max_connections=max_connections,
        **spec,
    )


def check_counts(endpoint: CountingEndpoint, rows: list[dict[str, Any]], *, limited: bool) -> None:
    assert not endpoint.timed_out
    assert len(rows) == endpoint.expected and all(r["status"] == "finished" for r in rows), [
        r["error"] for r in rows
    ]
    assert endpoint.total == endpoint.expected  # none lost or doubled
    if limited:
        assert endpoint.peak == 2
    else:
        assert endpoint.peak > 2  # so a leak in the limited run would show


def trace_rows(run_dir: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (run_dir / "traces.jsonl").read_text().splitlines()]


@pytest.mark.parametrize("max_connections", [2, None], ids=["limited", "unlimited-control"])
def test_a_local_sweep_keeps_max_connections(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, max_connections: int | None
) -> None:
    made: list[agents.connection_limit.EndpointLimits] = []

    class Spied(agents.connection_limit.EndpointLimits):
        def __init__(self, limit: int):
            super().__init__(limit)
            made.append(self)

    monkeypatch.setattr(agents.connection_limit, "EndpointLimits", Spied)
    waiting = (lambda: any(sum(m.waiting.values()) for m in made)) if max_connections else None
    with CountingEndpoint(limit=2, expected=16, limiter_waiting=waiting) as endpoint:
        spec = endpoint_study(endpoint.url, max_connections=max_connections, n=16, concurrency=8)
        result = run_sweep(spec, tmp_path, log=lambda _: None)
    assert result["complete"]
    check_counts(endpoint, trace_rows(tmp_path / spec.cells()[0].key), limited=bool(max_connections))
    options = json.loads((tmp_path / spec.cells()[0].key / "config.json").read_text())["options"]
    assert options["max_connections"] == max_connections


def test_max_connections_is_checked_like_the_other_settings(tmp_path: Path) -> None:
    path = tmp_path / "study.yaml"
    path.write_text("benchmarks: [smoke]\nagents: [chat]\nmax_connections: 0\n")
    with pytest.raises(SweepError, match="max_connections"):
        StudySpec.from_file(path)
    out = tmp_path / "s"
    for args in ([str(path)], ["--bench", "smoke", "--agent", "chat", "--max-connections", "0"]):
        result = cli("sweep", *args, "--out", str(out))
        assert result.exit_code == 2, (args, result)
        assert len(result.stderr.strip().splitlines()) == 1 and "max" in result.stderr, result
        assert not out.exists()


def test_the_setting_reaches_every_cell_and_leaves_its_folder_name_alone(tmp_path: Path) -> None:
    plain, limited = (
        StudySpec(benchmarks=["smoke"], agents=["chat"], models=["scripted:smoke-oracle"], max_connections=m)
        for m in (None, 3)
    )
    assert [c.key for c in plain.cells()] == [c.key for c in limited.cells()]  # a resumed study may change it
    assert limited.cells()[0].run_options(tmp_path).max_connections == 3
    result = cli(
        "sweep",
        "--bench",
        "smoke",
        "--agent",
        "chat",
        "--model",
        "scripted:smoke-oracle",
        "-B",
        "n=2",
        "--max-connections",
        "3",
        "--out",
        str(tmp_path / "s"),
        "--quiet",
    )
    assert result.exit_code == 0, result
    study = json.loads((tmp_path / "s" / "study.json").read_text())
    assert study["spec"]["max_connections"] == 3 and study["cells"][0]["max_connections"] == 3
