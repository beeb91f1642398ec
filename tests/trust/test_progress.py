"""Progress that tells: the live view shows each episode in flight (node, model calls, tokens, time)
and the errors so far; piped output gets one line per finished episode; tables never cut names."""

from __future__ import annotations

import asyncio
import io
import re
from pathlib import Path
from typing import Any

from langchain_core.messages import HumanMessage
from rich.console import Console

from restgraph.agents.retry import RetryPolicy, retrying_class
from restgraph.agents.scripted import ScriptedChatModel
from restgraph.evals.benchmark import RunOptions
from restgraph.evals.report import print_metrics, table_console
from restgraph.evals.runner import EpisodeRunner
from restgraph.graphs.registry import register_agent
from tests.foundation.conftest import cli, one_node_graph

LINE = re.compile(
    r"^\[(\d+)/3\] (smoke/\d) status=(\S+) success=([01]) tokens=([\d,]+) calls=(\d+) time=([\d.]+)s errors=(\d+)$"
)


def _fails_on_odd(model: Any, env: Any, options: dict[str, Any]) -> Any:
    async def act(state: dict[str, Any]) -> dict[str, Any]:
        reply = await model.ainvoke([HumanMessage(state["instruction"])])
        if state["task_id"].endswith(("1", "3", "5")):
            raise ValueError("odd task")
        return {"final_answer": str(reply.content), "status": "finished"}

    return one_node_graph(act)


register_agent("test-fails-on-odd", _fails_on_odd, env_kind="none")


def test_piped_output_gets_one_line_per_finished_episode(tmp_path: Path) -> None:
    result = cli(
        "run",
        "smoke",
        "--agent",
        "test-fails-on-odd",
        "--model",
        "scripted:smoke-oracle",
        "-B",
        "n=3",
        "--concurrency",
        "1",
        "--out",
        tmp_path / "run",
        "--allow-errors",
    )
    lines = [m for m in map(LINE.match, result.stderr.splitlines()) if m]
    assert len(lines) == 3, result.stderr
    assert [m.group(1) for m in lines] == ["1", "2", "3"]
    by_task = {m.group(2): m for m in lines}
    assert by_task["smoke/1"].group(3) == "error:ValueError" and by_task["smoke/0"].group(3) == "finished"
    assert (
        by_task["smoke/0"].group(4) == "1"
        and int(by_task["smoke/0"].group(6)) == 1
        and int(by_task["smoke/0"].group(5).replace(",", "")) > 0
    )
    assert lines[-1].group(8) == "1"  # the running error count
    quiet = cli(
        "run", "smoke", "--model", "scripted:smoke-oracle", "-B", "n=2", "--out", tmp_path / "q", "--quiet"
    )
    assert not any(map(LINE.match, quiet.stderr.splitlines()))


class HeldScripted(ScriptedChatModel):
    """A scripted model whose calls wait until the test has looked at the live view."""

    gate: Any = None
    arrived: Any = None

    async def _agenerate(
        self, messages: Any, stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> Any:
        self.arrived()
        await self.gate.wait()
        return self._reply(messages, stop)


def test_the_live_view_shows_each_episode_in_flight(tmp_path: Path) -> None:
    options = RunOptions(
        benchmark="smoke",
        agent="chat-vote",
        model="scripted:x",
        concurrency=3,
        bench_options={"n": 3},
        agent_options={"calls": 2},
    )
    seen: dict[str, str] = {}

    async def main() -> None:
        gate, all_waiting = asyncio.Event(), asyncio.Event()
        waiting = 0

        def arrived() -> None:
            nonlocal waiting
            waiting += 1
            if waiting == 3:
                all_waiting.set()

        cls = retrying_class(HeldScripted, RetryPolicy())
        runner = EpisodeRunner(
            options,
            tmp_path / "run",
            model_factory=lambda task: cls(policy=lambda m: "42", name_="held", gate=gate, arrived=arrived),
            progress="live",
        )
        job = asyncio.ensure_future(runner.run())
        await asyncio.wait_for(all_waiting.wait(), 60)  # every episode is inside its first model call
        console = Console(file=io.StringIO(), width=100, force_terminal=False)
        console.print(runner.display)
        seen["first"] = console.file.getvalue()
        all_waiting.clear()
        waiting = 0
        gate.set()
        await job
        console = Console(file=io.StringIO(), width=100)
        console.print(runner.display)
        seen["end"] = console.file.getvalue()

    asyncio.run(main())
    rows = [line for line in seen["first"].splitlines() if re.match(r"\s*smoke/\d", line)]
    assert len(rows) == 3, seen["first"]
    for row in rows:
        # node with its open call's own running time, 1 call, 0 tokens yet, elapsed
        assert re.search(r"sample \(model \d+s\)", row) and re.search(r"\b1\s+0\s+\d+s$", row.strip()), row
    assert "0/3" in seen["first"] and "3/3" in seen["end"] and "errors 0" in seen["end"]
    assert not re.search(r"smoke/\d", seen["end"])  # finished episodes leave the table


def _summary(agent: str) -> dict[str, Any]:
    return {
        "benchmark": "restbench-tmdb",
        "agent": agent,
        "model": "openai:Qwen/Qwen2.5-7B-Instruct",
        "n": 10,
        "errors": 1,
        "metrics": {"success_rate": 0.5, "correct_path_rate": 0.3},
        "usage": {"input_tokens": 123456, "output_tokens": 2345},
        "cost_usd": 0.12,
    }


def test_tables_never_cut_names() -> None:
    narrow = Console(file=io.StringIO(), width=60)
    print_metrics([_summary("restgpt-no-parser")], console=narrow)
    text = narrow.file.getvalue()
    assert "…" not in text and all(len(line) <= 60 for line in text.splitlines())
    assert any("restgpt-no-parser" in line for line in text.splitlines())  # whole, never folded
    assert any("openai:Qwen/Qwen2.5-7B-Instruct" in line for line in text.splitlines())
    piped = table_console()  # tests run with stdout not a terminal: the width of a file
    piped.file = io.StringIO()
    print_metrics([_summary("restgpt-no-parser")], console=piped)
    assert any(
        "restgpt-no-parser" in line and "openai:Qwen/Qwen2.5-7B-Instruct" in line
        for line in piped.file.getvalue().splitlines()
    )
