"""``--max-connections N``: model requests in flight per endpoint, over all episodes of a run.

The counters hold each request until a second one is in flight (events, not sleeps), so the peak
reaches 2 when the limit lets it and passes the limit only if the limiter leaks; the unlimited
control run proves the counter would see a leak.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from restgraph.agents.connection_limit import endpoint_key, limiting, run_limit
from restgraph.agents.models import make_chat_model
from restgraph.agents.retry import RetryPolicy, retrying_class
from restgraph.agents.scripted import ScriptedChatModel
from restgraph.evals.benchmark import RunOptions
from restgraph.evals.runner import EpisodeRunner
from tests.fake_openai import InFlightCounter, counting_openai
from tests.foundation.conftest import cli, trace_rows


class GatedScripted(ScriptedChatModel):
    """A scripted model whose every call passes through an ``InFlightCounter``."""

    counter: Any = None

    async def _agenerate(
        self, messages: Any, stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> Any:
        await self.counter.hold()
        return self._reply(messages, stop)


def _run(tmp_path: Path, factory: Any, *, max_connections: int | None, n: int = 8) -> list[dict[str, Any]]:
    options = RunOptions(
        benchmark="smoke",
        agent="chat-vote",
        model="openai:gpt-test",
        concurrency=8,
        max_connections=max_connections,
        bench_options={"n": n},
        agent_options={"calls": 2},
    )
    runner = EpisodeRunner(options, tmp_path / "run", model_factory=factory, progress=False)
    asyncio.run(runner.run())
    return trace_rows(tmp_path / "run")


def _scripted_factory(counter: InFlightCounter) -> Any:
    cls = retrying_class(GatedScripted, RetryPolicy())
    return lambda task: cls(policy=lambda messages: "42", name_="gated", counter=counter)


def _fake_endpoint_factory(counter: InFlightCounter) -> Any:
    client = counting_openai(counter)  # one endpoint, one client: every episode's requests meet here
    return lambda task: make_chat_model(
        "openai:gpt-test", base_url="http://fake.invalid/v1", api_key="k", http_async_client=client
    )


@pytest.mark.parametrize(
    "factory", [_scripted_factory, _fake_endpoint_factory], ids=["scripted", "fake-endpoint"]
)
def test_concurrency_8_with_max_connections_2_keeps_two_requests_in_flight(
    tmp_path: Path, factory: Any
) -> None:
    counter = InFlightCounter()
    rows = _run(tmp_path, factory(counter), max_connections=2)
    assert len(rows) == 8 and all(r["status"] == "finished" for r in rows), [r["error"] for r in rows]
    assert counter.total == 16  # 8 episodes x 2 calls, none lost or doubled
    assert 1 < counter.peak <= 2
    assert max(r["extra"]["in_flight"] for r in rows) > 2  # the episodes themselves did overlap


@pytest.mark.parametrize(
    "factory", [_scripted_factory, _fake_endpoint_factory], ids=["scripted", "fake-endpoint"]
)
def test_without_max_connections_the_counter_sees_more_than_two(tmp_path: Path, factory: Any) -> None:
    counter = InFlightCounter()
    _run(tmp_path, factory(counter), max_connections=None)
    assert counter.peak > 2  # so the test above would catch a leaking limiter


def test_slots_are_per_endpoint_and_per_run() -> None:
    async def main() -> tuple[int, int, int]:
        with limiting(1) as limits:
            assert limits is not None
            a, b = InFlightCounter(pair=1, yields=3), InFlightCounter(pair=1, yields=3)
            both = InFlightCounter(pair=2)

            async def call(key: str, counter: InFlightCounter) -> None:
                async with limits.slot(key):
                    await asyncio.gather(counter.hold(), both.hold())

            await asyncio.gather(
                *(call("http://a/v1", a) for _ in range(3)), *(call("http://b/v1", b) for _ in range(3))
            )
            return a.peak, b.peak, both.peak

    peak_a, peak_b, peak_both = asyncio.run(main())
    assert (peak_a, peak_b) == (1, 1) and peak_both == 2  # one slot per endpoint, two endpoints at once


def test_endpoint_keys() -> None:
    local = make_chat_model("openai:m", base_url="http://127.0.0.1:8080/v1/", api_key="k")
    assert endpoint_key(local) == "http://127.0.0.1:8080/v1"
    assert endpoint_key(make_chat_model("openai:gpt-4o-mini", api_key="k")) == "https://api.openai.com/v1"
    assert endpoint_key(make_chat_model("scripted:constant?text=x")) == "scripted:constant"


def test_the_cli_option_is_checked_and_recorded(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert (
        cli(
            "run",
            "smoke",
            "--model",
            "scripted:smoke-oracle",
            "-B",
            "n=3",
            "--max-connections",
            "2",
            "--out",
            out,
            "--quiet",
        ).exit_code
        == 0
    )
    assert json.loads((out / "config.json").read_text())["options"]["max_connections"] == 2
    assert (
        cli(
            "run",
            "smoke",
            "--model",
            "scripted:smoke-oracle",
            "--max-connections",
            "0",
            "--out",
            tmp_path / "bad",
            "--quiet",
        ).exit_code
        == 2
    )


def test_a_local_model_run_waits_for_the_servers_slots_without_being_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The embedded server serves 2 requests at once; the third would wait *inside* it with its
    timeout running, so a local run defaults to the server's slots (a fake endpoint stands in)."""
    counter = InFlightCounter()
    fake = _fake_endpoint_factory(counter)
    monkeypatch.setattr("restgraph.agents.local_model.local_chat_model", lambda *args, **kwargs: fake(None))
    options = RunOptions(
        benchmark="smoke",
        agent="chat-vote",
        model="local",
        concurrency=8,
        bench_options={"n": 8},
        agent_options={"calls": 2},
    )
    asyncio.run(EpisodeRunner(options, tmp_path / "run", progress=False).run())
    assert counter.total == 16 and 1 < counter.peak <= 2
    assert run_limit("local", {"parallel": 4}, None) == 4 and run_limit("local", {}, 3) == 3
    assert run_limit("openai:gpt-4o", {}, None) is None
