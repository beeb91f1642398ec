"""What a benchmark is to the harness, and the registry of benchmarks.

A benchmark (tau2-bench style: data, environment and evaluator kept apart) says
- which tasks there are (``tasks``, reading its dataset loader),
- what environment an episode acts on (``run_resources`` once per run, ``environment`` per task),
- how one episode is driven (``run_episode``; the default invokes the agent graph once),
- how a finished trace is scored (``score_episode``, trace only, never a model) and how episode
  scores aggregate into the run's metrics (``aggregate``).

Benchmarks are found by name through the ``restgraph.benchmarks`` entry points (``restgraph.tools.plugins``;
the built-ins are declared in ``pyproject.toml``, an installed package adds its own), or register
themselves in-process with ``@register_benchmark``.
"""

from __future__ import annotations

import abc
import contextlib
import importlib
from collections.abc import AsyncIterator, Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from restgraph.evals.trace import Task, Trace
from restgraph.tools.options import NoOptions, Options, read_recorded, validate_options
from restgraph.tools.plugins import Registry

if TYPE_CHECKING:
    from langchain_core.runnables import RunnableConfig

EPISODE_TIMEOUT_S = 600.0
#: an 8k-token prompt takes about a minute on 2 CPU cores; a remote model answers in seconds
LOCAL_EPISODE_TIMEOUT_S = 3600.0


class RunOptions(BaseModel):
    """Options of one ``restgraph run`` that benchmarks and agents may read.

    A mistyped name is an error, as on the command line: ``RunOptions(limt=2)`` raises
    :class:`UnknownRunOption` with one line naming the closest field, never a silent full run."""

    model_config = ConfigDict(extra="forbid")

    benchmark: str
    agent: str
    model: str = "local"
    #: ``N`` (the first N tasks) or ``"A:B"`` (tasks A..B-1); see ``restgraph.evals.selection``
    limit: int | str | None = None
    #: run only these tasks (in the benchmark's order)
    task_ids: list[str] | None = None
    seed: int = 0
    concurrency: int = 4
    #: ``--workers N``: episodes on N processes, ``concurrency`` in flight in each, one writer
    #: (``restgraph.evals.process_workers``); 1: all in this process
    workers: int = Field(default=1, ge=1)
    #: default: EPISODE_TIMEOUT_S, or LOCAL_EPISODE_TIMEOUT_S for ``local`` models
    episode_timeout_s: float = EPISODE_TIMEOUT_S
    #: LangGraph step budget per episode; None: derived from the agent's loop budgets (evals.defaults)
    max_steps: int | None = None
    #: ``--epochs K``: each task runs K times, epoch e with seed ``seed + e`` (pass@k, pass^k)
    epochs: int = Field(default=1, ge=1)
    #: ``--price IN/OUT``: $ per 1M tokens, overriding ``restgraph.evals.cost.PRICES``
    price: dict[str, float] | None = None
    #: ``--max-errors N``: stop after N errored episodes (0: never); None: stop when the first 5 all
    #: errored with the same kind (``restgraph.evals.guards``)
    max_errors: int | None = None
    #: per-episode limits: tokens (in + out) and dollars; passing one ends the episode as
    #: ``budget_exhausted`` naming it (``restgraph.evals.watchdog``)
    token_limit: int | None = None
    cost_limit: float | None = None
    #: ``--max-connections N``: model requests in flight per endpoint, over all episodes
    #: (``restgraph.agents.connection_limit``); None: only ``concurrency`` bounds them
    max_connections: int | None = Field(default=None, ge=1)
    #: ``--fork-from RUN_DIR --fork-at STEP``: replay RUN_DIR's episodes up to STEP, then continue
    #: with this run's agent and model (``restgraph.evals.fork``)
    fork_from: str | None = None
    fork_at: int | None = None
    bench_options: dict[str, Any] = Field(default_factory=dict)
    agent_options: dict[str, Any] = Field(default_factory=dict)
    model_options: dict[str, Any] = Field(default_factory=dict)
    #: ``--code-sandbox``: where model-written code runs (``restgraph.tools.codebox``); None: its default
    code_sandbox: str | None = None
    #: ``--allow-modified-data``: local data files whose sha256 is not the pinned one were allowed
    allow_modified_data: bool = False
    #: the run folder (set by the runner); per-run files other than traces go there (screenshots)
    run_dir: str | None = None

    def __init__(self, /, **data: Any) -> None:  # pydantic calls it from model_validate too
        if unknown := [key for key in data if key not in type(self).model_fields]:
            raise UnknownRunOption(_unknown_field(unknown[0]))
        super().__init__(**data)

    @field_validator("limit")
    @classmethod
    def _limit_selects_something(cls, value: int | str | None) -> int | str | None:
        from restgraph.evals.selection import parse_limit

        parse_limit(value)  # negative or empty ranges are errors, not a shorter run
        return value

    @model_validator(mode="before")
    @classmethod
    def _local_models_get_longer_episodes(cls, data: Any) -> Any:
        """Unset (or None, as the CLI passes it): the model's default."""
        if isinstance(data, dict) and data.get("episode_timeout_s") is None:
            local = str(data.get("model", "local")).startswith("local")
            data = {**data, "episode_timeout_s": LOCAL_EPISODE_TIMEOUT_S if local else EPISODE_TIMEOUT_S}
        return data


class UnknownRunOption(TypeError):
    """A ``RunOptions`` field that does not exist (a typo); the message is the one line to show."""


def _unknown_field(name: str) -> str:
    from restgraph.tools.suggest import did_you_mean

    known = sorted(RunOptions.model_fields)
    return f"unknown RunOptions field {name!r}{did_you_mean(name, known)}; valid: {', '.join(known)}"


class EpisodeOutcome(BaseModel):
    """What the benchmark hands back to the runner after driving one episode."""

    final_answer: str | None = None
    status: str = "finished"
    error: str | None = None
    env_state: dict[str, Any] | None = None
    extra: dict[str, Any] = Field(default_factory=dict)


def outcome_from_state(state: dict[str, Any]) -> EpisodeOutcome:
    """Read the conventional output keys every agent graph's state carries."""
    answer = state.get("final_answer")
    return EpisodeOutcome(
        final_answer=None if answer is None else str(answer),
        status=state.get("status") or "finished",
        error=state.get("error"),
    )


class Benchmark(abc.ABC):
    name: ClassVar[str]
    description: ClassVar[str] = ""
    #: metric keys ``aggregate`` returns, in report order
    metric_keys: ClassVar[tuple[str, ...]] = ()
    default_agent: ClassVar[str] = ""
    #: agent families this benchmark's environment can serve (matched against ``AgentSpec.env_kind``)
    env_kind: ClassVar[str] = ""
    #: per-episode score key counted as a success in the live progress bar
    episode_success_key: ClassVar[str] = "success"
    #: model options the published runs used (temperature, max_tokens); ``-M`` overrides them
    decoding: ClassVar[dict[str, Any]] = {}
    #: metric -> the per-episode score it is the mean of, where the names do not say it (``restgraph.evals.stats``)
    metric_sources: ClassVar[dict[str, str]] = {}
    #: the ``-B`` options it takes (names, types, defaults, help); validated before a run starts
    options_model: ClassVar[type[Options]] = NoOptions

    def check_options(self, values: dict[str, Any] | None) -> Options:
        """The run's benchmark options validated (``restgraph.tools.options.OptionError`` names a bad key)."""
        return validate_options(self.options_model, values, what=f"benchmark {self.name}")

    def opts(self, options: RunOptions) -> Any:
        """This run's benchmark options, typed (an instance of ``options_model``)."""
        return self.options_model.model_validate(options.bench_options)

    def recorded_opts(self, trace: Trace) -> Any:
        """The benchmark options a stored trace was run with, typed (for scoring)."""
        return read_recorded(self.options_model, trace.config.get("bench_options"))

    @abc.abstractmethod
    def tasks(self, options: RunOptions) -> list[Task]:
        """All tasks of the requested split/suite, in a stable order."""

    @contextlib.asynccontextmanager
    async def run_resources(self, options: RunOptions) -> AsyncIterator[Any]:
        """Per-run shared resources (a loopback server, a browser). Default: none."""
        yield None

    @contextlib.asynccontextmanager
    async def environment(self, task: Task, resources: Any, options: RunOptions) -> AsyncIterator[Any]:
        """The per-episode environment handed to the agent builder. Default: none."""
        yield None

    def initial_state(self, task: Task, env: Any, options: RunOptions) -> dict[str, Any]:
        """Graph input. Agents registered with ``needs_gold`` (oracle, replay) also get ``gold``."""
        from restgraph.graphs.registry import get_agent

        state: dict[str, Any] = {"task_id": task.id, "instruction": task.instruction}
        if get_agent(options.agent).needs_gold:
            state["gold"] = task.gold
        return state

    async def run_episode(
        self, task: Task, graph: Any, env: Any, options: RunOptions, config: RunnableConfig
    ) -> EpisodeOutcome:
        """Drive one episode. The runner streams the graph so each node becomes a trace step."""
        from restgraph.evals.graph_stream import (
            stream_graph,  # LangChain's callbacks: only once a run drives a graph
        )

        state = await stream_graph(graph, self.initial_state(task, env, options), config)
        outcome = outcome_from_state(state)
        outcome.env_state = await self.final_env_state(env)
        return outcome

    async def final_env_state(self, env: Any) -> dict[str, Any] | None:
        """What of the environment's end state the scorer needs (e.g. Spotify's state diff)."""
        return None

    @abc.abstractmethod
    def score_episode(self, trace: Trace) -> dict[str, Any]:
        """Per-episode scores from the trace alone (``trace.task`` holds the gold)."""

    @abc.abstractmethod
    def aggregate(self, scores: list[dict[str, Any]], traces: Sequence[Trace]) -> dict[str, float]:
        """Run-level metrics keyed by ``metric_keys``; rates are fractions in [0, 1]."""


def _adopt(name: str, obj: Any) -> type[Benchmark] | None:
    """An entry point naming a ``Benchmark`` subclass registers it under the entry point's name."""
    return obj if isinstance(obj, type) and issubclass(obj, Benchmark) else None


def _load_builtins() -> None:
    """The fallback for an install whose entry points are stale: import every built-in benchmark.

    By name, like the entry points themselves: the benchmark modules import this one (they
    subclass ``Benchmark``), so a static import of their package here would be an import cycle."""
    importlib.import_module("restgraph.evals.oracles").import_builtins()  # the gold-reading scripted models
    importlib.import_module("restgraph.evals.benchmarks").import_builtins()


_BENCHMARKS: Registry[Callable[[], Benchmark]] = Registry(
    "restgraph.benchmarks", "benchmark", adopt=_adopt, builtins=_load_builtins
)


def register_benchmark(cls: type[Benchmark]) -> type[Benchmark]:
    _BENCHMARKS.register(cls.name, cls)
    return cls


def benchmark_names() -> list[str]:
    """Every benchmark's name (entry points and registrations), nothing imported."""
    return _BENCHMARKS.names()


def all_benchmarks() -> dict[str, Benchmark]:
    """Every benchmark loaded and made, by name (for listings)."""
    return {name: make() for name, make in _BENCHMARKS.load_all().items()}


def check_benchmark(name: str) -> None:
    """``KeyError`` (naming the known ones) if no benchmark is called ``name``; nothing imported."""
    _BENCHMARKS.check(name)


def get_benchmark(name: str) -> Benchmark:
    """The benchmark called ``name``, importing only its module; ``KeyError`` names the known ones."""
    return _BENCHMARKS.get(name)()
