"""The episode runner: many tasks through one agent, concurrently, with nothing lost.

- asyncio with a pool of ``concurrency`` workers; each episode has a step budget (LangGraph's
  ``recursion_limit``) and a wall-clock timeout;
- every finished episode is appended to ``traces.jsonl`` at once (fsynced with the others that
  finished meanwhile: ``restgraph.evals.trace_writer``), so a killed run loses only what was in flight or
  waiting for that write, and ``resume=True`` runs exactly the missing episodes;
- an episode that raises becomes a trace with ``status="error:<kind>"`` and the run goes on;
- Ctrl-C (SIGINT/SIGTERM) stops launching, cancels what is in flight, and keeps what finished.
"""

from __future__ import annotations

import asyncio
import json
import signal
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import suppress
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import RunnableConfig
from langgraph.errors import GraphRecursionError

from restgraph.agents.connection_limit import limiting, run_limit
from restgraph.agents.context_fit import context_window
from restgraph.evals.benchmark import Benchmark, EpisodeOutcome, RunOptions, get_benchmark
from restgraph.evals.collector import tuned_collector
from restgraph.evals.defaults import DEFAULT_MAX_STEPS, resolve_run_options
from restgraph.evals.fork import EpisodeFork, fork_source
from restgraph.evals.guards import ErrorGuard
from restgraph.evals.option_check import check_run_options
from restgraph.evals.progress import RunProgress
from restgraph.evals.provenance import provenance
from restgraph.evals.recording import EpisodeRecorder, recorded_model, reset_recorder, set_recorder
from restgraph.evals.redact import redact
from restgraph.evals.run_guard import check_resume
from restgraph.evals.selection import select_tasks
from restgraph.evals.summary import score_one, write_summary
from restgraph.evals.trace import Task, Trace, TraceStore, epoch_of, now_iso
from restgraph.evals.trace_writer import TraceWriter
from restgraph.evals.watchdog import BudgetExceeded, EpisodeStuck, EpisodeWatch, settle
from restgraph.graphs.episode_context import BoundGraph, EpisodeContext
from restgraph.graphs.registry import AgentSpec, get_agent
from restgraph.tools.baton import Baton, Hold, reset_hold, set_hold
from restgraph.tools.datafiles import used_data
from restgraph.tools.episode_limits import EPISODE_LIMITS, EpisodeLimits

ModelFactory = Callable[[Task], BaseChatModel | None]


class EpisodeRunner:
    """Runs tasks of one benchmark through one agent and writes their traces."""

    def __init__(
        self,
        options: RunOptions,
        out_dir: str | Path,
        *,
        model_factory: ModelFactory | None = None,
        benchmark: Benchmark | None = None,
        agent: AgentSpec | None = None,
        progress: bool | str = True,
    ):
        self.out_dir = Path(out_dir)
        self.benchmark = benchmark or get_benchmark(options.benchmark)
        self.agent = agent or get_agent(options.agent)
        options = check_run_options(options, self.benchmark, self.agent)  # before any episode
        # per-run files other than traces (browser screenshots) go in the run folder: expose it
        self.options = (
            options
            if getattr(options, "run_dir", None)
            else options.model_copy(update={"run_dir": str(self.out_dir)})
        )
        self.store = TraceStore(self.out_dir)
        self.options = resolve_run_options(
            self.options, self.benchmark, self.agent
        )  # published decoding, step budget
        self.model_factory = model_factory or self._default_model_factory
        self.progress = progress  # True: live on a terminal, a line per episode elsewhere (evals.progress)
        self.display: RunProgress | None = None
        self.run_id = uuid.uuid4().hex[:12]
        self.in_flight = 0
        self.peak_in_flight = 0
        self.stopped = False
        self.guard = ErrorGuard(options.max_errors)
        self.stop_reason: str | None = None
        self.context_window = (
            context_window(self.options.model, self.options.model_options) if self.agent.needs_model else None
        )
        # --max-connections, else (a local model this runner builds) the embedded server's slots
        builds_model = self.agent.needs_model and self.model_factory == self._default_model_factory
        self.connection_limit = (
            run_limit(self.options.model, self.options.model_options, self.options.max_connections)
            if builds_model
            else self.options.max_connections
        )
        self._run_graph: Any = None  # a per_run agent's graph, compiled at the first episode
        self.config_notes: dict[str, Any] = {}  # what episodes added to config.json (note_config)
        self.fork = fork_source(
            self.options.fork_from, self.options.fork_at, self.options.benchmark
        )  # --fork-from: each episode replays a recorded prefix

    def _default_model_factory(self, task: Task, seed: int | None = None) -> BaseChatModel | None:
        if not self.agent.needs_model:
            return None
        from restgraph.agents.models import make_chat_model

        return make_chat_model(
            self.options.model,
            task=task,
            seed=self.options.seed if seed is None else seed,
            **self.options.model_options,
        )

    def _make_model(self, task: Task, seed: int) -> BaseChatModel | None:
        """The episode's model; with ``--epochs`` each epoch gets its own seed (``seed + epoch``)."""
        if self.model_factory == self._default_model_factory:
            return self._default_model_factory(task, seed)
        return self.model_factory(task)

    # -- one episode ------------------------------------------------------------------------------
    async def run_episode(self, task: Task, resources: Any, epoch: int = 0) -> Trace:
        recorder = EpisodeRecorder(model_name=self.options.model)
        recorder.watch = EpisodeWatch(
            model=self.options.model,
            token_limit=self.options.token_limit,
            cost_limit=self.options.cost_limit,
            price=self.options.price,
            context_window=self.context_window,
        )
        token = set_recorder(recorder)
        if self.display is not None:
            self.display.started(RunProgress.key(task.id, epoch), recorder)
        limits = EPISODE_LIMITS.set(
            EpisodeLimits(
                deadline=asyncio.get_running_loop().time() + self.options.episode_timeout_s
                if self.options.episode_timeout_s
                else None,
                spend=recorder.watch,
            )
        )
        started = time.perf_counter()
        started_at = now_iso()
        self.in_flight += 1
        self.peak_in_flight = max(self.peak_in_flight, self.in_flight)
        in_flight_at_start = self.in_flight
        outcome = EpisodeOutcome(status="error:unknown")
        fork = None
        try:
            fork = self.fork.episode(task.id, recorder) if self.fork is not None else None
            async with asyncio.timeout(
                self.options.episode_timeout_s
            ):  # in this task: wait_for would start one per episode
                outcome = await self._drive(task, resources, recorder, self.options.seed + epoch, fork)
        except GraphRecursionError as exc:
            outcome = EpisodeOutcome(
                status="budget_exhausted",
                error=f"step budget of {self.options.max_steps} graph steps reached: {exc}"[:500],
            )
        except (EpisodeStuck, BudgetExceeded):
            pass  # settle() below names the status from the watch
        except TimeoutError:
            outcome = EpisodeOutcome(
                status="error:timeout", error=f"episode exceeded {self.options.episode_timeout_s}s"
            )
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # an episode's failure is data; the run goes on
            outcome = EpisodeOutcome(
                status=f"error:{type(exc).__name__}", error=f"{type(exc).__name__}: {exc}"[:2000]
            )
        finally:
            self.in_flight -= 1
            recorder.flush()
            reset_recorder(token)
            EPISODE_LIMITS.reset(limits)
        outcome = settle(outcome, recorder.watch, recorder.steps)
        if fork is not None and (diverged := fork.final_problem()):
            outcome = EpisodeOutcome(status="error:ForkDiverged", error=diverged, env_state=outcome.env_state)
        trace = Trace(
            run_id=self.run_id,
            task_id=task.id,
            task=task,
            benchmark=self.benchmark.name,
            agent=self.agent.name,
            model=self.options.model if self.agent.needs_model else "none",
            seed=self.options.seed + epoch,
            config={
                "max_steps": self.options.max_steps,
                "episode_timeout_s": self.options.episode_timeout_s,
                "agent_options": self.options.agent_options,
                "bench_options": self.options.bench_options,
            },
            steps=recorder.steps,
            final_answer=outcome.final_answer,
            status=outcome.status,
            error=outcome.error,
            env_state=outcome.env_state if outcome.env_state is not None else recorder.partial_env_state,
            started_at=started_at,
            ended_at=now_iso(),
            wall_s=round(time.perf_counter() - started, 6),
            extra={
                **recorder.partial_extra,
                **outcome.extra,
                **({"fork": fork.prefix.point.model_dump()} if fork is not None else {}),
                "in_flight": in_flight_at_start,
                **({"epoch": epoch} if epoch else {}),
            },
        )
        trace.recompute_usage()
        return trace

    def _graph_for(self, model: BaseChatModel | None, env: Any) -> Any:
        """The episode's graph: compiled once per run for a ``per_run`` agent (the episode's model
        and environment bound as its runtime context), else built for this episode."""
        if not self.agent.per_run:
            return self.agent.build(model, env, self.options.agent_options)
        if self._run_graph is None:
            self._run_graph = self.agent.build(None, None, self.options.agent_options)
        return BoundGraph(self._run_graph, EpisodeContext(model, env))

    async def _drive(
        self, task: Task, resources: Any, recorder: EpisodeRecorder, seed: int, fork: EpisodeFork | None
    ) -> EpisodeOutcome:
        model = self._make_model(task, seed)
        if fork is not None and model is not None:
            model = fork.wrap(model)  # the recorded prefix's outputs first, then this run's model
        model = recorded_model(model, recorder)
        async with self.benchmark.environment(task, resources, self.options) as env:
            graph = self._graph_for(model, env)
            config: RunnableConfig = {
                "recursion_limit": self.options.max_steps or DEFAULT_MAX_STEPS,  # (resolved in __init__)
                "configurable": {"thread_id": task.id},
                "metadata": {"task_id": task.id},
            }
            try:
                return await self.benchmark.run_episode(task, graph, env, self.options, config)
            except BaseException:
                # A timeout (cancellation) or a crash still changed the environment: keep its end
                # state (Spotify's state diff and request log) so the trace shows it.
                with suppress(Exception):
                    recorder.partial_env_state = await self.benchmark.final_env_state(env)
                raise

    # -- the run ----------------------------------------------------------------------------------
    def pending_tasks(self, resume: bool) -> tuple[list[tuple[Task, int]], int]:
        """(task, epoch) pairs still to run, and how many episodes the run has in all."""
        tasks = select_tasks(
            self.benchmark.tasks(self.options), limit=self.options.limit, task_ids=self.options.task_ids
        )
        done = (
            {(t.task_id, epoch_of(t)) for t in self.store.traces(prompts=False)} if resume else set()
        )  # streamed: flat in memory
        episodes = [(t, e) for e in range(max(1, self.options.epochs)) for t in tasks]
        return [(t, e) for t, e in episodes if (t.id, e) not in done], len(episodes)

    def write_config(self, total: int) -> None:
        self.out_dir.mkdir(parents=True, exist_ok=True)
        config = {
            "options": self.options.model_dump(mode="json"),
            "n_tasks": total,
            "run_id": self.run_id,
            "written_at": now_iso(),
            "data_sha256": used_data(),
            "provenance": provenance(self.benchmark, self.options.agent_options),
        }
        config["agent_settings"] = self.agent.settings(
            self.options.agent_options, self.options.model, self.options.model_options
        )
        (self.out_dir / "config.json").write_text(json.dumps(redact(config), indent=2, sort_keys=True) + "\n")

    def note_config(self, **notes: Any) -> None:
        """Add what only an episode can tell (the role set a RestGPT-family agent resolved for the
        scenario: ``agent_roles``) to config.json, once per key."""
        self.config_notes.update(notes)
        path = self.out_dir / "config.json"
        config = json.loads(path.read_text())
        config.update(redact(notes))
        path.write_text(json.dumps(config, indent=2, sort_keys=True) + "\n")

    def record_finished(self, key: str, trace: Any, success: Any, stop: asyncio.Event) -> None:
        """The run's bookkeeping for a finished episode (``trace``: a Trace, or an episode worker's
        note of one): config notes, the display, and ``--max-errors``."""
        roles = trace.extra.get("roles")
        if "agent_roles" not in self.config_notes and roles is not None:
            self.note_config(agent_roles=roles)
        if self.display is not None:
            self.display.finished(key, trace, success)
        reason = self.guard.observe(trace.status)
        if reason:  # --max-errors: stop launching, say why (the CLI exits 1)
            self.stop_reason = reason
            stop.set()

    async def run_pool(
        self,
        units: Iterator[tuple[Task, int]],
        n_units: int,
        resources: Any,
        stop: asyncio.Event,
        finished: Callable[[Task, int, Trace], None],
    ) -> None:
        """Run ``units`` with ``concurrency`` episodes in flight, calling ``finished`` for each
        trace; on ``stop``, cancel what is in flight. A harness bug in a worker is raised."""
        # A fixed pool of `concurrency` workers pulls (task, epoch) units from one iterator:
        # one wait over the running set, so scheduling stays linear in the number of episodes
        # (a wait over every remaining future per wake-up grew as n^2 / concurrency).
        baton = Baton()

        async def worker() -> None:
            # CPU work runs in turns, first come first served, handed on at each model call
            # or other real wait (tools.baton: no lockstep waves). A worker keeps its turn
            # from one episode's end into the next one's start: no queueing in between.
            hold = Hold(baton)
            token = set_hold(hold)
            try:
                await baton.acquire(hold)
                for task, epoch in units:
                    if stop.is_set():
                        return
                    finished(task, epoch, await self.run_episode(task, resources, epoch))
            finally:
                baton.release(hold)
                reset_hold(token)

        workers = [
            asyncio.ensure_future(worker()) for _ in range(min(max(1, self.options.concurrency), n_units))
        ]
        stopper = asyncio.ensure_future(stop.wait())
        pool = asyncio.ensure_future(asyncio.gather(*workers))
        try:
            waiters: list[asyncio.Future[Any]] = [pool, stopper]
            await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
            if stop.is_set() or pool.done() and pool.exception() is not None:
                self.stopped = self.stopped or stop.is_set()
                for job in workers:
                    job.cancel()
                await asyncio.gather(*workers, return_exceptions=True)
        finally:
            stopper.cancel()
            if pool.done() and not pool.cancelled():
                pool.exception()  # retrieved here; re-raised below from the worker that failed
        for job in workers:
            if job.done() and not job.cancelled() and (error := job.exception()) is not None:
                raise error  # a harness bug (not an episode failure): surface it

    async def run(self, *, resume: bool = False) -> dict[str, Any]:
        with tuned_collector():  # the garbage collector skips the pre-run heap (evals.collector)
            return await self._run(resume)

    async def _run(self, resume: bool) -> dict[str, Any]:
        if not resume and self.store.path.exists() and self.store.path.stat().st_size:
            raise FileExistsError(
                f"{self.store.path} already holds traces; pass --resume to continue that run or choose another --out"
            )
        if resume:
            check_resume(self.out_dir, self.options.model_dump(mode="json"), self.store.traces(prompts=False))
        pending, total = self.pending_tasks(resume)
        self.write_config(total)
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(sig, stop.set)

        progress = self.display = RunProgress(
            self.progress, f"{self.benchmark.name}/{self.agent.name}", total=total, done=total - len(pending)
        )
        workers = min(self.options.workers, len(pending))  # --workers: this process and N - 1 more
        if workers > 1:
            from restgraph.evals import process_workers
        writer: TraceWriter[Any] = (
            TraceWriter(self.store, process_workers.write_group(self.store))
            if workers > 1
            else TraceWriter(self.store)
        )

        def finished(task: Task, epoch: int, trace: Trace) -> None:
            if workers > 1:
                trace.extra["worker"] = 0
            writer.put(trace)  # group commit, off the loop (evals.trace_writer)
            success = (
                score_one(self.benchmark, trace).get(self.benchmark.episode_success_key)
                if progress.mode != "off"
                else None
            )  # shown only; a scorer's crash never kills a run (`restgraph score` reports it)
            self.record_finished(RunProgress.key(task.id, epoch), trace, success, stop)

        try:
            with progress:
                try:
                    if workers > 1:  # (each process with its own run resources)
                        await process_workers.run_with_workers(self, pending, stop, finished, writer)
                    else:
                        async with (
                            self.benchmark.run_resources(self.options) as resources,
                            limiting(self.connection_limit),
                        ):
                            await self.run_pool(iter(pending), len(pending), resources, stop, finished)
                finally:
                    await writer.drain()  # every finished episode on disk, even when stopped
        finally:
            for sig in (signal.SIGINT, signal.SIGTERM):
                with suppress(NotImplementedError, RuntimeError, ValueError):
                    loop.remove_signal_handler(sig)
        if self.options.bench_options.get("judge") and not self.stopped:  # -B judge=MODEL: LLM second opinion
            from restgraph.evals.judge import judge_run_async

            await judge_run_async(self.out_dir, str(self.options.bench_options["judge"]), self.benchmark)
        return write_summary(self.out_dir, self.benchmark)


def run_sync(
    options: RunOptions, out_dir: str | Path, *, resume: bool = False, progress: bool = True, **kwargs: Any
) -> dict[str, Any]:
    return asyncio.run(EpisodeRunner(options, out_dir, progress=progress, **kwargs).run(resume=resume))
