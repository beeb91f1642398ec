"""The environment a RestBench episode acts on: a spec, an HTTP tool, and how to read the end state."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from restgraph.tools.openapi.client import HttpTool
from restgraph.tools.openapi.spec import Operation, operations


@dataclass
class OpenAPIEnvironment:
    scenario: str  # "tmdb" | "spotify"
    spec: dict[str, Any]  # dereferenced
    http: HttpTool
    base_url: str
    extra: dict[str, Any] = field(default_factory=dict)
    #: puts a stateful environment back into its initial state (Reflexion's fresh trials); None: stateless
    reset: Callable[[], None] | None = None

    def reset_state(self) -> bool:
        """Reset to the initial state if the environment can; returns whether it did."""
        if self.reset is None:
            return False
        self.reset()
        return True

    @property
    def operations(self) -> list[Operation]:
        if "_ops" not in self.extra:
            self.extra["_ops"] = operations(self.spec)
        return self.extra["_ops"]

    @property
    def endpoint_keys(self) -> list[str]:
        return [op.key for op in self.operations]

    def operation(self, key: str) -> Operation | None:
        return next((op for op in self.operations if op.key == key), None)
