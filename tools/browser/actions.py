"""The browsing action space (BrowserGym's AssistantBench subset plus ``search``) and results."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

ActionName = Literal["goto", "search", "click", "type", "press", "select", "scroll", "back", "answer"]
ACTION_NAMES: tuple[str, ...] = (
    "goto",
    "search",
    "click",
    "type",
    "press",
    "select",
    "scroll",
    "back",
    "answer",
)
#: actions that need an element ref from the latest observation
REF_ACTIONS = ("click", "type", "select")


class BrowserAction(BaseModel):
    """One action. Only the fields the action uses matter; the rest stay ``None``."""

    action: ActionName
    url: str | None = Field(
        default=None, description="goto: absolute URL or a path relative to the current page"
    )
    query: str | None = Field(default=None, description="search: the search-engine query")
    ref: str | None = Field(default=None, description="click/type/select: element ref such as e12")
    text: str | None = Field(
        default=None, description="type: text to enter; answer: the final answer ('' to give up)"
    )
    submit: bool = Field(default=False, description="type: press Enter afterwards")
    key: str | None = Field(default=None, description="press: a key such as Enter, Tab, PageDown")
    value: str | None = Field(default=None, description="select: option value or label")
    direction: Literal["up", "down"] = "down"

    def key_for_loops(self, url: str) -> tuple[str, str, str]:
        """What counts as "the same action again" for loop detection: (action, target, URL)."""
        target = (
            self.ref
            or self.url
            or self.query
            or self.key
            or (self.direction if self.action == "scroll" else "")
        )
        return (self.action, f"{target}|{self.text or ''}|{self.value or ''}", url)

    def describe(self) -> str:
        fields = ("url", "query", "ref", "text", "submit", "key", "value", "direction")
        args = {
            k: getattr(self, k)
            for k in fields
            if getattr(self, k) not in (None, False) and not (k == "direction" and self.action != "scroll")
        }
        return f"{self.action}({', '.join(f'{k}={v!r}' for k, v in args.items())})"


class ActionResult(BaseModel):
    ok: bool
    error: str | None = None
    #: the page (URL or accessibility tree) changed
    changed: bool = True
    url: str = ""
    #: navigations and requests refused by the offline policy during this action
    refused: list[str] = Field(default_factory=list)
    screenshot: str | None = None
    #: the observation taken right after the action
    observation: str = ""
