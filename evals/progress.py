"""What a run shows while it runs: per-episode activity on a terminal, one line per episode elsewhere.

Why: a bar that sits at 0/3 for minutes says nothing about a slow model, and piped output (CI,
``nohup``) got nothing until the end. Three modes:

- ``live`` (a terminal or a notebook): the bar with success / error counts, and a table of the
  episodes in flight: the node at work (the node whose model call is open, with how long that
  call has been running, else the last node that finished), model calls, tokens and elapsed time;
- ``lines`` (anything else): one log line per finished episode, flushed at once:
  ``[3/10] restbench-tmdb/17 status=finished success=0 tokens=12,345 calls=17 time=45.2s errors=1``;
- ``off`` (``--quiet``, tests).

The display only *reads* the episode recorders the runner already keeps (``restgraph.evals.recording``), at
render time (4 times a second, on rich's refresh thread): it adds nothing to a model call, a node or
a tool call, and nothing at all when off. Names are never cut: long ids fold onto a second line.
"""

from __future__ import annotations

import time
from typing import Any, Literal

from rich.console import Console, Group
from rich.live import Live
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

Mode = Literal["live", "lines", "off"]
#: episodes listed in the live table; the rest are counted
MAX_ROWS = 12


def resolve_mode(progress: bool | str, console: Console) -> Mode:
    """``True``: live on a terminal or in a notebook, else lines; ``False``: off."""
    if progress is False or progress == "off":
        return "off"
    if progress in ("live", "lines"):
        return progress
    return "live" if console.is_terminal or console.is_jupyter else "lines"


def _calls_and_node(recorder: Any, now: float) -> tuple[int, str]:
    steps = list(recorder.steps)
    open_calls = recorder.open_calls()
    calls = sum(len(s.model_calls) for s in steps) + len(recorder._pending_models) + len(open_calls)
    if open_calls:  # with the call's own elapsed time: a planner call may read its prompt for minutes
        starts = recorder.open_call_starts()
        running = f" {now - starts[-1]:.0f}s" if starts else ""
        return calls, f"{open_calls[-1].role or '?'} (model{running})"
    if recorder._pending_tools:
        tool = recorder._pending_tools[-1]
        return calls, f"{tool.kind}: {tool.name}"
    return calls, f"after {steps[-1].node}" if steps else "starting"


def _tokens(recorder: Any) -> int:
    watch = getattr(recorder, "watch", None)
    if watch is not None:
        return int(watch.tokens)
    return sum(c.input_tokens + c.output_tokens for s in list(recorder.steps) for c in s.model_calls)


class RunProgress:
    """The runner's display; ``started``/``finished`` are its only hooks (both cheap)."""

    def __init__(
        self, progress: bool | str, title: str, *, total: int, done: int = 0, console: Console | None = None
    ):
        #: soft_wrap: a log line is never folded at 80 columns when piped
        self.console = console or Console(stderr=True, soft_wrap=True)
        self.mode = resolve_mode(progress, self.console)
        self.title, self.total, self.done = title, total, done
        self.success = self.errors = 0
        self.active: dict[str, tuple[float, Any]] = {}
        self._bar = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("{task.fields[stats]}"),
            console=self.console,
        )
        self._task = self._bar.add_task(title, total=total, completed=done, stats="")
        self._live: Live | None = None

    # -- lifetime --------------------------------------------------------------------------------
    def __enter__(self) -> RunProgress:
        if self.mode == "live":
            self._live = Live(self, console=self.console, refresh_per_second=4, transient=False)
            self._live.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._live is not None:
            self.active.clear()
            self._live.__exit__(None, None, None)
            self._live = None

    # -- hooks -----------------------------------------------------------------------------------
    @staticmethod
    def key(task_id: str, epoch: int) -> str:
        return f"{task_id}#{epoch}" if epoch else task_id

    def started(self, key: str, recorder: Any) -> None:
        if self.mode == "live":
            self.active[key] = (time.perf_counter(), recorder)

    def finished(self, key: str, trace: Any, success: Any) -> None:
        self.done += 1
        self.success += int(bool(success))
        self.errors += int(trace.status.startswith("error"))
        self.active.pop(key, None)
        if self.mode == "live":
            self._bar.update(
                self._task,
                completed=self.done,
                stats=f"success {self.success}  errors {self.errors}  in flight {len(self.active)}",
            )
        elif self.mode == "lines":
            print(self.line(key, trace, success), file=self.console.file, flush=True)

    def line(self, key: str, trace: Any, success: Any) -> str:
        usage = trace.usage
        score = "" if success is None else f" success={int(bool(success))}"
        return (
            f"[{self.done}/{self.total}] {key} status={trace.status}{score} tokens={usage.input_tokens + usage.output_tokens:,} "
            f"calls={usage.model_calls} time={trace.wall_s:.1f}s errors={self.errors}"
        )

    # -- the live view -----------------------------------------------------------------------------
    def __rich__(self) -> Group:
        table = Table(box=None, padding=(0, 1), show_header=True, header_style="dim")
        table.add_column("episode", overflow="fold")
        table.add_column("node", overflow="fold")
        for name in ("calls", "tokens", "time"):
            table.add_column(name, justify="right", no_wrap=True)
        now = time.perf_counter()
        # an episode in a worker process (--workers) has no recorder here: counted in the bar only
        entries = [(key, entry) for key, entry in list(self.active.items()) if entry[1] is not None]
        for key, (started, recorder) in entries[:MAX_ROWS]:
            try:
                calls, node = _calls_and_node(recorder, now)
                tokens = _tokens(recorder)
            except RuntimeError:  # a buffer changed under the refresh thread: next refresh shows it
                continue
            table.add_row(key, node, str(calls), f"{tokens:,}", f"{now - started:.0f}s")
        parts: list[Any] = [self._bar]
        if entries:
            parts.append(table)
        if len(entries) > MAX_ROWS:
            parts.append(f"[dim]... and {len(entries) - MAX_ROWS} more in flight[/dim]")
        return Group(*parts)
