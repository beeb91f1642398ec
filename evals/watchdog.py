"""End an episode that can only repeat itself (status ``stuck``), and what it may spend (budgets).

Why: with deterministic decoding, a model call that repeats an earlier call of the same episode
exactly (same prompt, same settings) gets the same reply; if that reply failed to parse before it
fails again, and every further try is wasted. The RestBench quick start spent minutes calling the
planner 15 times with one prompt and getting one cut-off 512-token reply each time. The watch
ends the episode at the first such repeat.

"Exactly" is checked on the recorded prompt hash plus the call's invocation settings (model,
temperature, max tokens, stop...). The repeat counts as stuck when decoding is deterministic
(temperature 0, or a scripted model) or, whatever the settings, when the reply is identical to the
earlier failed one.

The same watch enforces the per-episode ``--token-limit`` and ``--cost-limit``: a call that takes
the episode over a limit ends it as ``budget_exhausted`` naming the limit. And it refuses a call
whose prompt cannot fit the model's context window (``restgraph.agents.context_fit``) before it is sent: the
episode ends ``error:context_overflow``, as does one whose server refused a prompt as too long.
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

from restgraph.agents.context_fit import ContextOverflow, check_fit, is_context_overflow
from restgraph.evals.cost import Price, price_for
from restgraph.tools.trace_schema import ModelCall

CONTEXT_OVERFLOW = "error:context_overflow"

#: invocation settings that do not change what the model answers
VOLATILE_SETTINGS = ("callbacks", "run_name", "tags", "metadata", "request_timeout", "timeout", "stream")


class EpisodeStuck(Exception):
    """The episode repeated a failed call exactly; the message says which."""


class BudgetExceeded(Exception):
    """A per-episode limit was passed; ``limit`` names it (``token_limit`` / ``cost_limit``)."""

    def __init__(self, limit: str, message: str):
        super().__init__(message)
        self.limit = limit


class _ControlFlowFilter(logging.Filter):
    """Drops LangChain's "Error in TraceCallbackHandler.on_llm_end callback: BudgetExceeded(...)".

    The watch ends an episode by raising from the recorder's callbacks (``raise_error``), so the
    exception reaches the episode; LangChain still logs every callback exception as a warning on
    its way out. For these three it is not an error but the stop working as designed, and its
    reason is in the trace (status and error); on a terminal it read like a crash of the harness.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if not str(record.msg).startswith("Error in "):
            return True
        return not any(
            f"{stop.__name__}(" in record.getMessage()
            for stop in (EpisodeStuck, BudgetExceeded, ContextOverflow)
        )


CALLBACK_LOGGER = "langchain_core.callbacks.manager"
if not any(isinstance(f, _ControlFlowFilter) for f in logging.getLogger(CALLBACK_LOGGER).filters):
    logging.getLogger(CALLBACK_LOGGER).addFilter(_ControlFlowFilter())


def settings_digest(settings: dict[str, Any] | None) -> str:
    kept = {k: v for k, v in (settings or {}).items() if k not in VOLATILE_SETTINGS}
    return hashlib.sha256(json.dumps(kept, sort_keys=True, default=str).encode()).hexdigest()[:16]


def deterministic(settings: dict[str, Any] | None) -> bool:
    settings = settings or {}
    if "scripted" in str(settings.get("_type", "")):
        return True
    temperature = settings.get("temperature")
    return temperature is not None and float(temperature) == 0.0


class EpisodeWatch:
    """Per-episode: remembers failed calls by (prompt, settings) and adds up what calls spend."""

    def __init__(
        self,
        *,
        model: str = "",
        token_limit: int | None = None,
        cost_limit: float | None = None,
        price: Price | dict | None = None,
        context_window: int | None = None,
    ):
        self.context_window = context_window
        self.token_limit = token_limit
        self.cost_limit = cost_limit
        self.price = price_for(model, price) if cost_limit is not None else None
        self.tokens = 0
        self.cost = 0.0
        self._started: dict[int, tuple[str, dict[str, Any] | None, bool]] = {}
        self._failed: dict[str, str] = {}
        #: set once the episode is stuck or over budget; the runner turns it into the status
        self.stop: EpisodeStuck | BudgetExceeded | ContextOverflow | None = None

    def call_started(
        self, call: ModelCall, settings: dict[str, Any] | None, messages: list[dict[str, Any]] | None = None
    ) -> None:
        if self.stop is not None:  # a role swallowed the exception: the next call raises it again
            raise self.stop
        try:
            check_fit(messages or [], settings, self.context_window)
        except ContextOverflow as exc:
            self._halt(exc)
        # the settings themselves, hashed only if the call fails to parse (rare): hashing them on
        # every call (tool schemas included) was a tenth of the recorder's time per model call
        self._started[id(call)] = (call.prompt_hash, settings, deterministic(settings))

    def call_ended(self, call: ModelCall) -> None:
        self.tokens += call.input_tokens + call.output_tokens
        if self.price is not None:
            self.cost += self.price.cost(call.input_tokens, call.output_tokens)
        if self.token_limit is not None and self.tokens > self.token_limit:
            self._halt(
                BudgetExceeded(
                    "token_limit", f"token_limit: {self.tokens} tokens used, limit {self.token_limit}"
                )
            )
        if self.cost_limit is not None and self.cost > self.cost_limit:
            self._halt(
                BudgetExceeded("cost_limit", f"cost_limit: ${self.cost:.6f} spent, limit ${self.cost_limit}")
            )

    def parse_failed(self, call: ModelCall) -> None:
        started = self._started.get(id(call))
        if started is None:
            return
        prompt_hash, settings, exact = started
        key = f"{prompt_hash}:{settings_digest(settings)}"
        earlier = self._failed.get(key)
        if earlier is not None and (exact or earlier == call.raw_output):
            why = "deterministic decoding" if exact else "the identical reply"
            self._halt(
                EpisodeStuck(
                    "stuck: a model call repeated an earlier call of this episode exactly (prompt "
                    f"{call.prompt_hash}, {why}) and failed to parse again: {(call.parse_error or '')[:300]}"
                )
            )
        self._failed.setdefault(key, call.raw_output)

    def _halt(self, exc: EpisodeStuck | BudgetExceeded | ContextOverflow) -> None:
        if self.stop is None:
            self.stop = exc
        raise self.stop


def settle(outcome: Any, watch: EpisodeWatch | None, steps: list[Any]) -> Any:
    """The episode's final ``EpisodeOutcome``: a stop the watch saw wins (even if a role swallowed
    its exception), and a run that ``finished`` although a model call failed is an error."""
    stop = watch.stop if watch is not None else None
    if stop is not None:
        status = (
            "stuck"
            if isinstance(stop, EpisodeStuck)
            else CONTEXT_OVERFLOW
            if isinstance(stop, ContextOverflow)
            else "budget_exhausted"
        )
        return outcome.model_copy(update={"status": status, "error": str(stop)[:2000]})
    if outcome.status == "finished":
        failed = [c for s in steps for c in s.model_calls if c.error]
        if failed:
            status = CONTEXT_OVERFLOW if is_context_overflow(failed[0].error or "") else "error:model"
            return outcome.model_copy(
                update={
                    "status": status,
                    "error": f"a model call failed and the episode went on: {failed[0].error}"[:2000],
                }
            )
    elif outcome.status.startswith("error:") and is_context_overflow(
        outcome.error or ""
    ):  # the server refused it
        return outcome.model_copy(update={"status": CONTEXT_OVERFLOW})
    return outcome
