"""Stop a run that can only produce errors, and say why (``--max-errors``).

Why: with a broken endpoint or a bug, every episode fails the same way; running the remaining
hundreds of episodes spends time (and money, on a paid model) to learn nothing. The default rule
is deliberately narrow: stop when the first 5 finished episodes all errored with the same kind.
``--max-errors N`` stops once N episodes have errored (any kind); ``--max-errors 0`` never stops.
"""

from __future__ import annotations

from collections import Counter

FIRST_N = 5


class ErrorGuard:
    """Sees each finished episode's status; ``observe`` returns the reason to stop, once, or None."""

    def __init__(self, max_errors: int | None = None, first_n: int = FIRST_N):
        self.max_errors = max_errors
        self.first_n = first_n
        self.finished: list[str] = []
        self.errors: Counter[str] = Counter()
        self.reason: str | None = None

    def observe(self, status: str) -> str | None:
        self.finished.append(status)
        if status.startswith("error"):
            self.errors[status] += 1
        if self.reason is not None:
            return None
        if self.max_errors is None:
            first = self.finished[: self.first_n]
            if len(self.finished) == self.first_n and first[0].startswith("error") and len(set(first)) == 1:
                self.reason = f"the first {self.first_n} episodes all ended {first[0]}; stopping (--max-errors N to change, 0 never stops)"
        elif self.max_errors > 0 and sum(self.errors.values()) >= self.max_errors:
            self.reason = (
                f"{sum(self.errors.values())} episodes errored "
                f"({', '.join(f'{k} x{v}' for k, v in self.errors.most_common())}), --max-errors "
                f"{self.max_errors}; stopping"
            )
        return self.reason
