"""``api-use``: Synthetic API Use (ethanachi/api_use) with its four benchmark files as suites.

``--suite`` picks ``distractors`` (distractors_and_positioning), ``argument_fixing``,
``chaining``, ``name_description`` or ``all``. Each case is generated with ``get_example`` in
faithful mode unless ``-B fixed=true`` (all fixes) or ``-B fixed=flag1,flag2`` (individual
``Fixes`` flags); the flags are recorded in every task's gold and reported by the dial report.
The metric is ``pass_rate`` (mean per-case pass rate over the agent's samples), with pass@k when
agents draw several samples and ``pass_rate/<dial>=<value>`` breakdowns.
``scripted:api-use-target`` is an oracle that answers each task with its target.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from typing import Any, ClassVar

from langchain_core.messages import BaseMessage
from langchain_core.runnables import RunnableConfig
from pydantic import Field, field_validator

from restgraph.agents.scripted import register_scripted
from restgraph.evals.benchmark import Benchmark, EpisodeOutcome, RunOptions, register_benchmark
from restgraph.evals.datasets.api_use import FILES, load_suite, suite_name
from restgraph.evals.scorers.api_use import (
    aggregate_scores,
    check_samples,
    samples_from_answer,
    score_samples,
)
from restgraph.evals.trace import Task, Trace
from restgraph.tools.options import Options
from restgraph.tools.synthetic_api.env import SyntheticApiEnv
from restgraph.tools.synthetic_api.generator import Fixes, get_example


def fixes_option(value: Any) -> Fixes:
    """``-B fixed=`` as given on the command line: a bool or a comma-separated list of flags."""
    if isinstance(value, bool) or value is None:
        return Fixes.all() if value else Fixes()
    text = str(value).strip().lower()
    if text in ("", "0", "false", "no", "faithful"):
        return Fixes()
    if text in ("1", "true", "yes", "all"):
        return Fixes.all()
    flags = [f.strip() for f in text.split(",") if f.strip()]
    unknown = sorted(set(flags) - set(Fixes.model_fields))
    if unknown:
        raise ValueError(f"unknown api-use fix flags {unknown}; known: {', '.join(Fixes.model_fields)}")
    return Fixes(**dict.fromkeys(flags, True))


class ApiUseOptions(Options):
    suite: str = Field("distractors", description=f"{' | '.join(FILES)} | all (--suite)")
    fixed: bool | str | None = Field(
        None, description="faithful (unset/false), every fix (true), or comma-separated Fixes flags"
    )

    @field_validator("suite")
    @classmethod
    def _known_suite(cls, value: str) -> str:
        return value if value == "all" else suite_name(value)

    @field_validator("fixed")
    @classmethod
    def _known_fixes(cls, value: bool | str | None) -> bool | str | None:
        fixes_option(value)  # raises on an unknown flag
        return value


def build_tasks(suite: str, fixes: Fixes) -> list[Task]:
    """Generate every case of a suite; a case that fails to generate is a clear error, not a skip."""
    tasks = []
    for case in load_suite(suite):
        try:
            tc = get_example(**case.options, fixed=fixes)
        except Exception as exc:
            raise ValueError(
                f"api-use case {case.suite}/{case.key} does not generate: {type(exc).__name__}: {exc}"
            ) from exc
        gold = {
            "target": tc.target,
            "test": tc.test,
            "api_args": tc.api_args,
            "fixes": tc.fixes,
            "kwargs_aware": fixes.kwargs_aware_checker,
        }
        tasks.append(
            Task(
                id=f"api-use/{case.suite}/{case.key}",
                benchmark="api-use",
                instruction=tc.prompt,
                gold=gold,
                metadata={
                    "suite": case.suite,
                    "key": case.key,
                    "dials": case.dials,
                    "mode": "fixed" if tc.fixes else "faithful",
                },
            )
        )
    return tasks


@register_benchmark
class ApiUseBenchmark(Benchmark):
    name: ClassVar[str] = "api-use"
    description: ClassVar[str] = (
        "Synthetic API Use: write code against synthetic libraries (--suite distractors|argument_fixing|chaining|name_description|all)"
    )
    metric_keys: ClassVar[tuple[str, ...]] = ("pass_rate", "pass@1", "no_code_rate", "keyword_args_rate")
    default_agent: ClassVar[str] = "api-use-coder"
    env_kind: ClassVar[str] = "synthetic_api"
    episode_success_key: ClassVar[str] = "success"
    options_model: ClassVar[type[Options]] = ApiUseOptions

    def tasks(self, options: RunOptions) -> list[Task]:
        opts = self.opts(options)
        fixes = fixes_option(opts.fixed)
        suites = list(FILES) if opts.suite == "all" else [opts.suite]
        return [task for s in suites for task in build_tasks(s, fixes)]

    @contextlib.asynccontextmanager
    async def environment(
        self, task: Task, resources: Any, options: RunOptions
    ) -> AsyncIterator[SyntheticApiEnv]:
        yield SyntheticApiEnv(
            test=task.gold["test"],
            api_args=task.gold.get("api_args") or {},
            kwargs_aware=bool(task.gold.get("kwargs_aware")),
        )

    async def run_episode(
        self, task: Task, graph: Any, env: Any, options: RunOptions, config: RunnableConfig
    ) -> EpisodeOutcome:
        """The episode, then its samples checked against the gold test once, the verdicts kept in
        the trace (``restgraph score`` reads them: a re-score cannot flip on the machine's state)."""
        outcome = await super().run_episode(task, graph, env, options, config)
        outcome.env_state = await check_samples(_samples(outcome.final_answer, task), task.gold)
        return outcome

    def score_episode(self, trace: Trace) -> dict[str, Any]:
        samples = _samples(trace.final_answer, trace.task)
        scores = score_samples(samples, trace.task.gold, trace.env_state)
        scores.update(trace.task.metadata.get("dials", {}))
        return scores

    def aggregate(self, scores: list[dict[str, Any]], traces: Sequence[Trace]) -> dict[str, float]:
        metrics = aggregate_scores(scores)
        metrics["faithful"] = float(
            all(t.task.metadata.get("mode", "faithful") == "faithful" for t in traces)
        )
        return metrics


def _target_policy(task: Task | None, params: dict[str, str]):
    """Answer with the task's target: as a fenced function (default) or raw (``?style=raw``)."""
    style = params.get("style", "fenced")

    def policy(messages: list[BaseMessage]) -> str:
        if task is None or "target" not in task.gold:
            return "I have no task."
        if style == "raw":
            return task.gold["target"] + "\n[END]"
        header = task.gold["test"].split("\n", 1)[0].split("=", 1)[1].strip()
        return f"Here is the function:\n\n```python\n{header}\n    {task.gold['target']}\n```\n[END]"

    return policy


register_scripted("api-use-target", _target_policy)


def _samples(final_answer: str | None, task: Task) -> list[str | None]:
    """The samples an answer holds; an episode that ended without one counts as one failed sample."""
    return samples_from_answer(final_answer, task.gold["test"]) or [None]
