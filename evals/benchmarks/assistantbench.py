"""``assistantbench`` (the real benchmark, real web) and ``assistantbench-local`` (offline fixture).

Both run the browsing agents (``browser``, ``browser+cb``, ``closed-book``) in Debian's headless
Chromium: one browser per run (``run_resources``), one fresh context per episode
(``environment``), and score answers with the official AssistantBench scorer
(``restgraph.evals.scorers.assistantbench``) on the raw final answer. ``assistantbench-local`` also serves
the offline world (``restgraph.tools.browser.sites.world``: the fixture sites and the Loopback Search engine
over them, on two free loopback ports), starts every episode on the engine's home page and browses
in offline mode, where any request to a non-loopback host is refused and recorded in the trace.

Benchmark options (``-B k=v``): ``split`` (validation|test), ``path`` (a local JSONL),
``scorer`` (official|fixed), ``hal_compat`` (crashes score (0, 0)), ``normalize_answers`` (score
rewritten answers instead of the raw ones; off by default, as published), ``offline``, ``start_url``,
``screenshots`` (1|0), ``screenshots_dir``, and any ``BrowserConfig`` field (``settle_s``,
``max_obs_chars``, ``action_timeout_s``, ``navigation_timeout_s``, ``headless``...).
Screenshots go to ``<run folder>/screenshots/<task>/`` (or ``screenshots_dir``).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Literal

from langchain_core.runnables import RunnableConfig
from pydantic import Field, create_model, field_validator

from restgraph.evals.benchmark import (
    Benchmark,
    EpisodeOutcome,
    RunOptions,
    outcome_from_state,
    register_benchmark,
)
from restgraph.evals.datasets.assistantbench import load_tasks, split_name
from restgraph.evals.scorers.assistantbench import (
    aggregate,
    exact_match,
    exact_match_raw,
    independent_has_answer,
    score_answer,
)
from restgraph.evals.scorers.assistantbench_normalize import format_answer
from restgraph.evals.trace import Task, Trace
from restgraph.tools.browser.env import BrowserEnv
from restgraph.tools.browser.launch import BrowserConfig, launch_browser
from restgraph.tools.options import Options


class _Options(Options):
    split: str = Field("validation", description="validation (dev) | test")
    path: str | None = Field(None, description="a local JSONL of tasks instead of the HF dataset")
    scorer: Literal["official", "fixed"] = Field(
        "official", description="official: the published scorer; fixed: its bugs fixed"
    )
    hal_compat: bool = Field(False, description="score crashed episodes (0, 0) as HAL does")
    normalize_answers: bool = Field(
        False,
        description=(
            "rewrite answers into the scorer's shapes before scoring (1,010,000 -> 1010000, bullets "
            "-> JSON list, 'unknown' -> abstain); off = the raw answer, as published"
        ),
    )
    offline: bool | None = Field(
        None,
        description="refuse non-loopback requests (default: off for the real web, always on for assistantbench-local)",
    )
    start_url: str = Field(
        "about:blank",
        description="first page of every episode (assistantbench; the local one starts at its fixture)",
    )
    screenshots_dir: str | None = Field(
        None, description="where screenshots go (default <run folder>/screenshots)"
    )

    @field_validator("split")
    @classmethod
    def _known_split(cls, value: str) -> str:
        split_name(value)  # raises on an unknown split
        return value


#: ``_Options`` plus every ``BrowserConfig`` field (``settle_s``, ``headless``, ``screenshots``...)
AssistantBenchOptions: type[Options] = create_model(  # type: ignore[call-overload]
    "AssistantBenchOptions",
    __base__=_Options,
    **{
        name: (
            f.annotation,
            Field(f.default, description=f.description or f"browser setting (BrowserConfig.{name})"),
        )
        for name, f in BrowserConfig.model_fields.items()
        if name not in _Options.model_fields
    },
)


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name)[:80]


@dataclass
class Resources:
    browser: Any
    config: BrowserConfig
    start_url: str
    screenshots_root: Path | None
    #: assistantbench-local: the fixture sites' origin (what the local search index covers)
    sites_url: str | None = None
    #: assistantbench-local: the search engine's backend (``restgraph.tools.search``), handed to every episode
    search: Any = None


class _AssistantBenchBase(Benchmark):
    metric_keys: ClassVar[tuple[str, ...]] = (
        "accuracy",
        "answer_rate",
        "precision",
        "exact_match",
        "exact_match_raw",
        "full_score_rate",
        "scorer_errors",
        "gold_available",
        "gold_unavailable",
    )
    #: each rate is the mean of one per-episode score, so summary.json carries its 95% interval
    metric_sources: ClassVar[dict[str, str]] = {
        "accuracy": "score",
        "answer_rate": "has_ans",
        "exact_match": "exact_match",
        "exact_match_raw": "exact_match_raw",
        "full_score_rate": "success",
    }
    default_agent: ClassVar[str] = "browser+cb"
    env_kind: ClassVar[str] = "browser"
    episode_success_key: ClassVar[str] = "success"
    offline_default: ClassVar[bool] = False
    options_model: ClassVar[type[Options]] = AssistantBenchOptions

    # -- browser per run, context per episode ----------------------------------------------------
    def browser_config(self, options: RunOptions) -> BrowserConfig:
        opts = self.opts(options)
        fields = {k: getattr(opts, k) for k in BrowserConfig.model_fields if k in opts.model_fields_set}
        fields["offline"] = self.offline_default if opts.offline is None else opts.offline
        fields["screenshots"] = opts.screenshots
        return BrowserConfig.model_validate(fields)

    def screenshots_root(self, options: RunOptions) -> Path | None:
        explicit = self.opts(options).screenshots_dir
        run_dir = getattr(options, "run_dir", None)
        if explicit:
            return Path(explicit)
        return Path(run_dir) / "screenshots" if run_dir else None

    @contextlib.asynccontextmanager
    async def _browser(
        self, options: RunOptions, start_url: str, origins: Sequence[str] = ()
    ) -> AsyncIterator[Resources]:
        config = self.browser_config(options)
        # offline: the fixture servers are all the browser's network namespace reaches
        config.reachable = [
            *config.reachable,
            *origins,
            *([start_url] if start_url.startswith("http") else []),
        ]
        async with launch_browser(config) as browser:
            yield Resources(
                browser, config, start_url, self.screenshots_root(options) if config.screenshots else None
            )

    @contextlib.asynccontextmanager
    async def run_resources(self, options: RunOptions) -> AsyncIterator[Resources]:
        async with self._browser(options, self.opts(options).start_url) as resources:
            yield resources

    @contextlib.asynccontextmanager
    async def environment(
        self, task: Task, resources: Resources, options: RunOptions
    ) -> AsyncIterator[BrowserEnv]:
        shots = resources.screenshots_root / _safe(task.id) if resources.screenshots_root else None
        env = BrowserEnv(
            resources.browser,
            resources.config,
            start_url=resources.start_url,
            screenshot_dir=shots,
            max_steps=int(options.agent_options.get("max_steps", 20)),
        )
        env.search = resources.search  # the world's engine: what retrieval-augmented agents search offline
        try:
            yield env
        finally:
            await env.close()

    async def run_episode(
        self, task: Task, graph: Any, env: Any, options: RunOptions, config: RunnableConfig
    ) -> EpisodeOutcome:
        from restgraph.evals.graph_stream import stream_graph

        state = await stream_graph(graph, self.initial_state(task, env, options), config)
        outcome = outcome_from_state(state)
        session = env.opened if isinstance(env, BrowserEnv) else None
        outcome.extra = {
            "answer_source": state.get("answer_source", "none"),
            "browse_outcome": state.get("browse_outcome"),
            "browser_actions": session.steps if session else 0,
            **(
                {"ensemble": state["ensemble"]} if state.get("ensemble") else {}
            ),  # X-cb: which path answered and why
        }
        return outcome

    # -- scoring ------------------------------------------------------------------------------------
    def score_episode(self, trace: Trace) -> dict[str, Any]:
        """The official scorer on the raw final answer (``normalize_answers=1``: on the rewritten one)."""
        bench = self.recorded_opts(trace)
        gold = trace.task.gold.get("answer")
        answer = format_answer(trace.final_answer) if bench.normalize_answers else trace.final_answer
        if gold is None:  # hidden test split: scored only by the leaderboard
            return {"has_ans": independent_has_answer(answer), "gold_available": False}
        result = score_answer(answer, str(gold), fixed=bench.scorer == "fixed", hal_compat=bench.hal_compat)
        row: dict[str, Any] = {
            "score": result.score,
            "has_ans": result.has_ans,
            "exact_match": exact_match(answer, str(gold)),
            "exact_match_raw": exact_match_raw(answer, str(gold)),
            "success": result.score == 1.0,
        }
        if result.error:
            row["scorer_error"] = result.error
        return row

    def aggregate(self, scores: list[dict[str, Any]], traces: Sequence[Trace]) -> dict[str, float]:
        return aggregate(scores, n_tasks=len(traces))


@register_benchmark
class AssistantBench(_AssistantBenchBase):
    name: ClassVar[str] = "assistantbench"
    description: ClassVar[str] = (
        "AssistantBench (HF, gated): 33 validation tasks with answers, 181 hidden test tasks; real web"
    )

    def tasks(self, options: RunOptions) -> list[Task]:
        opts = self.opts(options)
        split = split_name(opts.split)
        rows = load_tasks(split, path=opts.path)
        return [
            Task(
                id=row.id,
                benchmark=self.name,
                instruction=row.task,
                gold={"answer": row.answer, "gold_url": row.gold_url},
                metadata={"hf_id": row.id, "split": split, "difficulty": row.difficulty},
            )
            for row in rows
        ]


@register_benchmark
class AssistantBenchLocal(_AssistantBenchBase):
    name: ClassVar[str] = "assistantbench-local"
    description: ClassVar[str] = (
        "AssistantBench-style tasks on six offline fixture sites and a local search engine (loopback only); all four answer types"
    )
    offline_default: ClassVar[bool] = True

    def tasks(self, options: RunOptions) -> list[Task]:
        from restgraph.tools.browser.sites.tasks import TASKS

        return [
            Task(
                id=f"local/{t.id}",
                benchmark=self.name,
                instruction=t.question,
                gold={"answer": t.gold},
                metadata={"local_id": t.id, "answer_type": t.answer_type, "difficulty": t.difficulty},
            )
            for t in TASKS
        ]

    def browser_config(self, options: RunOptions) -> BrowserConfig:
        config = super().browser_config(options)
        config.offline = True  # the fixture benchmark never leaves loopback
        if "settle_s" not in self.opts(options).model_fields_set:
            config.settle_s = 0.0  # static server-rendered pages: domcontentloaded is enough
        return config

    @contextlib.asynccontextmanager
    async def run_resources(self, options: RunOptions) -> AsyncIterator[Resources]:
        """The fixture sites and the search engine on two loopback origins; episodes start on the engine."""
        from restgraph.tools.browser.sites.world import serve_world

        async with (
            serve_world() as world,
            self._browser(options, world.start_url, world.origins) as resources,
        ):
            resources.sites_url, resources.search = world.sites_url, world.backend
            yield resources
