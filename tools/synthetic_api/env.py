"""The per-episode environment of the ``api-use`` benchmark: one generated problem's test.

Agents with ``env_kind="synthetic_api"`` receive this object. It knows how to check a body
(through the sandboxed checker) and what the extraction adapter needs: the name of the
function to write, the root library name (whose imports are dropped) and the indent string.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from restgraph.tools.synthetic_api.checker import TIMEOUT_S, execute_async, parse_test


class SyntheticApiEnv(BaseModel):
    test: str
    api_args: dict[str, list[str]] = Field(default_factory=dict)
    kwargs_aware: bool = False
    timeout_s: float = TIMEOUT_S

    @property
    def func_name(self) -> str:
        return parse_test(self.test).header.split("def ", 1)[1].split("(", 1)[0].strip()

    @property
    def root(self) -> str:
        return parse_test(self.test).root

    @property
    def indent(self) -> str:
        return parse_test(self.test).indent

    async def check(self, bodies: list[str]) -> list[tuple[bool, str | None]]:
        """Run every body against the test in one sandboxed subprocess (one traced tool call)."""
        if not bodies:
            return []
        result = await execute_async(
            list(bodies),
            self.test,
            api_args=self.api_args,
            kwargs_aware=self.kwargs_aware,
            timeout_s=self.timeout_s,
        )
        if not isinstance(result, list):  # a list of bodies always gives a list of outcomes
            raise TypeError(f"expected one outcome per body, got {result!r}")
        return result
