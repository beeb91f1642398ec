"""``smoke``: tiny arithmetic questions that exercise the whole harness in seconds.

Not a research benchmark: it exists so the runner, traces, scoring and the embedded model can be
checked end to end without any dataset. ``scripted:smoke-oracle`` answers every task correctly.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Any, ClassVar

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from pydantic import Field

from restgraph.agents.scripted import register_scripted
from restgraph.evals.benchmark import Benchmark, RunOptions, register_benchmark
from restgraph.evals.trace import Task, Trace
from restgraph.tools.options import Options

_QUESTION = re.compile(r"What is (\d+) ([+*-]) (\d+)\?")


def _solve(a: int, op: str, b: int) -> int:
    return {"+": a + b, "-": a - b, "*": a * b}[op]


class SmokeOptions(Options):
    n: int = Field(20, ge=1, description="number of questions")
    dataset_seed: int = Field(7, description="seed the questions are drawn with")


@register_benchmark
class SmokeBenchmark(Benchmark):
    name: ClassVar[str] = "smoke"
    description: ClassVar[str] = "20 arithmetic questions; checks the harness end to end"
    metric_keys: ClassVar[tuple[str, ...]] = ("accuracy", "answer_rate")
    default_agent: ClassVar[str] = "chat"
    env_kind: ClassVar[str] = "none"
    metric_sources: ClassVar[dict[str, str]] = {"accuracy": "success", "answer_rate": "answered"}
    options_model: ClassVar[type[Options]] = SmokeOptions

    def tasks(self, options: RunOptions) -> list[Task]:
        opts = self.opts(options)
        rng = random.Random(opts.dataset_seed)
        tasks = []
        for i in range(opts.n):
            a, b, op = rng.randint(2, 60), rng.randint(2, 40), rng.choice("+-*")
            question = f"What is {a} {op} {b}? Reply with the number only."
            tasks.append(
                Task(
                    id=f"smoke/{i}",
                    benchmark=self.name,
                    instruction=question,
                    gold={"answer": _solve(a, op, b)},
                )
            )
        return tasks

    def score_episode(self, trace: Trace) -> dict[str, Any]:
        numbers = re.findall(r"-?\d+", trace.final_answer or "")
        answered = bool(numbers)
        return {"success": answered and int(numbers[0]) == trace.task.gold["answer"], "answered": answered}

    def aggregate(self, scores: list[dict[str, Any]], traces: Sequence[Trace]) -> dict[str, float]:
        n = max(len(scores), 1)
        return {
            "accuracy": sum(bool(s.get("success")) for s in scores) / n,
            "answer_rate": sum(bool(s.get("answered")) for s in scores) / n,
        }


def _smoke_oracle(task: Task | None, params: dict[str, str]):
    def policy(messages: list[BaseMessage]) -> str:
        match = _QUESTION.search(str(messages[-1].content))
        return (
            str(_solve(int(match.group(1)), match.group(2), int(match.group(3))))
            if match
            else "I don't know."
        )

    return policy


register_scripted("smoke-oracle", _smoke_oracle)


def _smoke_tools(task: Task | None, params: dict[str, str]):
    """``chat-tools`` on smoke: two ``add`` tool calls, then ``submit`` with the right answer (a
    tool call per model call: the A/B workload of ``bench/harness_ab.py``)."""

    def policy(messages: list[BaseMessage]) -> AIMessage:
        match = _QUESTION.search(str(messages[0].content))
        turn = sum(isinstance(m, ToolMessage) for m in messages)
        if match is None:
            return AIMessage(content="I don't know.")
        if turn < 2:
            return AIMessage(
                content="",
                tool_calls=[
                    {"name": "add", "args": {"a": int(match.group(1)), "b": turn}, "id": f"call_{turn}"}
                ],
            )
        answer = _solve(int(match.group(1)), match.group(2), int(match.group(3)))
        return AIMessage(
            content="", tool_calls=[{"name": "submit", "args": {"answer": str(answer)}, "id": f"call_{turn}"}]
        )

    return policy


register_scripted("smoke-tools", _smoke_tools)
