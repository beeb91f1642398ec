"""Counterfactual forks: continue an earlier episode from one of its steps with another model or agent.

``restgraph run BENCH -a AGENT -m MODEL --fork-from RUN_DIR --fork-at STEP`` runs each task of
``RUN_DIR`` again: the model calls of the source episode's steps ``0 .. STEP-1`` (the *prefix*) are
answered with the outputs recorded there, in order, and every later call goes to ``MODEL`` with
``AGENT``'s graph (``restgraph.agents.fork_model``). The environment is not restored from a
snapshot: the sandboxes are deterministic given the same requests, so the graph re-executes the
prefix's requests against a fresh sandbox and reaches the state the source episode had. That is
checked, not assumed: just before the first call the new model answers (and again when the episode
ends), the prefix's model calls must have gone to the same roles and its HTTP requests must have
got the responses recorded in the source trace; otherwise the episode stops as
``error:ForkDiverged`` saying which call differed (an agent variant whose graph differs inside the
prefix, a changed sandbox, a run of another benchmark).

So "would RestGPT without the parser have failed on this very response?" is one command: fork a
``restgpt`` run at its first parser step with ``-a restgpt-no-parser``. Each forked trace records
where it came from (``extra.fork``: a ``ForkPoint``), which the viewer shows as one marker line.

A step is the source trace's step index (``restgraph view`` numbers them the same way).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from pydantic import BaseModel, ConfigDict

from restgraph.evals.recording import EpisodeRecorder
from restgraph.evals.trace import PLAIN_KEYS, ToolCall, Trace, TraceStore
from restgraph.tools.redact import redact_document


class ForkError(ValueError):
    """``--fork-from`` / ``--fork-at`` name no episode or no step to fork at (a usage error)."""


class ForkDiverged(RuntimeError):
    """The replayed prefix did not reproduce the source episode."""


class ForkPoint(BaseModel):
    """Where a forked episode left its source (``Trace.extra["fork"]``)."""

    model_config = ConfigDict(extra="forbid")

    source_run: str
    source_run_id: str
    source_agent: str
    source_model: str
    task_id: str
    #: the first step of the source episode that was not replayed
    step: int
    #: model calls answered from the source trace (the prefix's), then HTTP requests checked against it
    replayed_calls: int
    checked_http: int
    #: sha256 (16 hex) of the prefix's roles, model outputs and HTTP exchanges
    prefix_hash: str


def _http(call: ToolCall) -> dict[str, Any]:
    """What must be equal between a recorded HTTP exchange and its replay (redacted as stored)."""
    fields = ("method", "url", "params", "body", "status", "response")
    return redact_document({k: getattr(call, k) for k in fields}, plain_keys=PLAIN_KEYS)


class Prefix:
    """One source episode cut at ``step``: what is replayed and what must come out the same."""

    def __init__(self, trace: Trace, run_dir: Path, step: int):
        calls = [c for s in trace.steps[:step] for c in s.model_calls if not c.error]
        http = [c for s in trace.steps[:step] for c in s.tool_calls if c.kind == "http"]
        self.outputs = [c.raw_output for c in calls]
        self.roles = [c.role for c in calls]
        self.http = [_http(c) for c in http]
        digest = json.dumps({"roles": self.roles, "outputs": self.outputs, "http": self.http}, sort_keys=True)
        self.point = ForkPoint(
            source_run=str(run_dir),
            source_run_id=trace.run_id,
            source_agent=trace.agent,
            source_model=trace.model,
            task_id=trace.task_id,
            step=step,
            replayed_calls=len(calls),
            checked_http=len(http),
            prefix_hash=hashlib.sha256(digest.encode()).hexdigest()[:16],
        )

    def difference(self, recorder: EpisodeRecorder, *, ended: bool) -> str | None:
        """Why the episode so far is not the source's prefix, or None. At the switch to the new
        model all recorded calls have been made; when the episode ends without it, fewer may have."""
        where = f"fork of {self.point.source_run} task {self.point.task_id} at step {self.point.step}"
        calls, tools = recorder.calls_so_far()
        calls = [c for c in calls if not c.error]
        for i, (role, output) in enumerate(zip(self.roles, self.outputs, strict=True)):
            if i >= len(calls):
                return (
                    f"{where}: the episode ended after {len(calls)} of the prefix's {len(self.outputs)} "
                    "model calls (this agent does not reach that step the way the source did)"
                )
            live = calls[i]
            if role and live.role and role != live.role:
                return f"{where}: model call {i + 1} went to the {live.role!r} role, the source's to {role!r}"
            if live.raw_output != output:
                return (
                    f"{where}: model call {i + 1} answered {live.raw_output[:80]!r}, not the recorded output"
                )
        http = [_http(c) for c in tools if c.kind == "http"]
        for i, recorded in enumerate(self.http):
            if i >= len(http):
                if ended:
                    return (
                        f"{where}: the prefix made {len(http)} of its {len(self.http)} recorded HTTP requests"
                    )
                return f"{where}: only {len(http)} of the prefix's {len(self.http)} HTTP requests were made"
            if http[i] != recorded:
                got = http[i]
                return (
                    f"{where}: HTTP request {i + 1} diverged: {got['method']} {got['url']} -> {got['status']} "
                    f"where the source got {recorded['method']} {recorded['url']} -> {recorded['status']}"
                    + (" (same status, another body)" if got["status"] == recorded["status"] else "")
                )
        return None


class EpisodeFork:
    """One forked episode: wraps its model and checks its prefix (at the switch, and at the end)."""

    def __init__(self, prefix: Prefix, recorder: EpisodeRecorder):
        self.prefix, self.recorder = prefix, recorder
        self.switched = False
        self.diverged: str | None = None

    def wrap(self, model: BaseChatModel) -> BaseChatModel:
        from restgraph.agents.fork_model import ForkedChatModel

        point = self.prefix.point
        return ForkedChatModel(
            recorded=self.prefix.outputs,
            then=model,
            source=f"fork of {point.source_run} task {point.task_id} at step {point.step}",
            on_switch=self._switch,
        )

    def _switch(self) -> None:
        self.switched = True
        self.diverged = self.prefix.difference(self.recorder, ended=False)
        if self.diverged:
            raise ForkDiverged(self.diverged)

    def final_problem(self) -> str | None:
        """Called once the episode has ended: the divergence, if any (also when the model never switched)."""
        if self.diverged or self.switched:
            return self.diverged
        return self.prefix.difference(self.recorder, ended=True)


class ForkSource:
    """The episodes of ``run_dir`` (epoch 0 of each task), to fork at ``step``."""

    def __init__(self, run_dir: str | Path, step: int, benchmark: str):
        self.run_dir, self.step = Path(run_dir), step
        store = TraceStore(self.run_dir)
        if not store.path.is_file():
            raise ForkError(
                f"--fork-from {run_dir}: no traces.jsonl there (give the folder of an earlier run)"
            )
        if step < 1:
            raise ForkError(
                f"--fork-at {step}: give a step of the source episodes, 1 or more (0 is the start)"
            )
        self.traces: dict[str, Trace] = {}
        for trace in store.traces(prompts=False):
            if not trace.extra.get("epoch"):
                self.traces.setdefault(trace.task_id, trace)
        if not self.traces:
            raise ForkError(f"--fork-from {run_dir}: no readable episode in its traces.jsonl")
        other = {t.benchmark for t in self.traces.values()} - {benchmark}
        if other:
            raise ForkError(f"--fork-from {run_dir} is a run of {sorted(other)[0]}, not of {benchmark}")

    def task_ids(self) -> list[str]:
        return list(self.traces)

    def check(self, task_ids: list[str]) -> None:
        """Every task to run has a source episode long enough to fork at ``step``."""
        for task_id in task_ids:
            trace = self.traces.get(task_id)
            if trace is None:
                raise ForkError(f"--fork-from {self.run_dir} has no episode of task {task_id!r}")
            if self.step >= len(trace.steps):
                raise ForkError(
                    f"--fork-at {self.step}: task {task_id} of {self.run_dir} has {len(trace.steps)} steps "
                    f"(0-{len(trace.steps) - 1}); fork at 1-{len(trace.steps) - 1}"
                )

    def episode(self, task_id: str, recorder: EpisodeRecorder) -> EpisodeFork:
        self.check([task_id])
        return EpisodeFork(Prefix(self.traces[task_id], self.run_dir, self.step), recorder)


def fork_source(fork_from: str | Path | None, fork_at: int | None, benchmark: str) -> ForkSource | None:
    """The run's fork source (``RunOptions.fork_from`` / ``fork_at``); None: not a fork."""
    if not fork_from:
        if fork_at is not None:
            raise ForkError("--fork-at needs --fork-from RUN_DIR (the run whose episodes are forked)")
        return None
    if fork_at is None:
        raise ForkError("--fork-from needs --fork-at STEP (the first step the new model or agent takes)")
    return ForkSource(fork_from, fork_at, benchmark)
