"""From SeePlanAct's grounding reply to a browser operation and its history line, as upstream does.

Resolution (``resolve``) keeps upstream's rules: GOTO, SEARCH, GOBACK, SCROLL need no element
(a TYPE whose element letter is not a listed choice becomes a GOTO to its value); CLICK, SELECT,
TYPE, PRESS ENTER, HOVER, TERMINATE act on the chosen candidate; PRESS ENTER and TERMINATE also
work without one; anything else is no operation.

Execution (``execute``) writes the history line upstream writes (``[tag head] description ->
ACTION: value``; page-level operations are recorded as "No Operation", and count towards the
no-op limit, exactly as upstream's loop does) and says whether the step was a no-op. Deliberate
differences, recorded in the agent's config: SEARCH opens the configured search engine's results
URL (offline: the fixture's engine) instead of typing into google.com; the pause after an action
is ``BrowserConfig.settle_s`` rather than 3 s; ``goto_urls="resolve"`` (an option) passes
absolute URLs through and resolves "/path" against the current page, where upstream prefixes
"https://www." to anything not starting with it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urljoin

from restgraph.agents.browser.seeplanact_observe import StepView
from restgraph.agents.browser.seeplanact_parse import Grounding
from restgraph.agents.browser.seeplanact_prompt import option_index
from restgraph.tools.browser.element_actions import on_element
from restgraph.tools.browser.elements import PageElement, locator
from restgraph.tools.browser.session import BrowserSession

ELEMENT_ACTIONS = ("CLICK", "SELECT", "TYPE", "PRESS ENTER", "HOVER", "TERMINATE")
_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*://", re.I)


@dataclass
class Resolved:
    #: GOTO | SEARCH | SCROLL | GOBACK | ELEMENT | PRESS ENTER | TERMINATE | None (no operation)
    kind: str | None
    action: str = "CLICK"
    value: str = ""
    element: PageElement | None = None
    #: upstream's ``target_element_text``
    label: str = ""
    history: str = ""


def resolve(grounding: Grounding, view: StepView) -> Resolved:
    action, value = grounding.action.strip(), grounding.value
    index = option_index(grounding.element) if len(grounding.element) in (1, 2) else -1
    out = Resolved(None)
    if action in ("GOTO", "SEARCH", "TYPE", "GOBACK"):
        out = Resolved("GOTO", "GOTO", value, label="New URL")
    if action in ("SCROLL", "SEARCH", "GOBACK"):
        out = Resolved(action, action, value, label=action)
    if 0 <= index < len(view.choices) and action in ELEMENT_ACTIONS:
        element = view.elements[int(view.choices[index][0])]
        history = f"[{element.tag_head}] {element.description} -> {action}" + (
            f": {value}" if action in ("SELECT", "TYPE") else ""
        )
        return Resolved("ELEMENT", action, value, element, view.choices[index][1], history)
    if action in ("PRESS ENTER", "TERMINATE"):
        return Resolved(action, action, value, label=action, history=action)
    return out


def goto_url(value: str, current: str, mode: Literal["upstream", "resolve"]) -> str:
    if mode == "resolve":
        if _SCHEME.match(value):
            return value
        if value.startswith("/"):
            return urljoin(current, value)
    if value.startswith("https://www."):
        return value
    return "https://" + value if value.startswith("www.") else "https://www." + value


async def _page_operation(
    session: BrowserSession, step: Resolved, goto_urls: Literal["upstream", "resolve"]
) -> str | None:
    page = session.page
    if step.kind == "GOTO":
        return await session.goto(goto_url(step.value, session.last_good_url or page.url, goto_urls))
    if step.kind == "SEARCH":
        return await session.goto(session.search_url(step.value))
    if step.kind == "SCROLL":
        if step.value.lower() == "up":
            await page.evaluate("window.scrollTo(0, 0);")
        else:
            await page.evaluate("window.scrollBy(0, Math.trunc(window.innerHeight * 0.75));")
        return None
    if step.kind == "GOBACK":
        await page.go_back()
        return None
    if step.kind == "PRESS ENTER":
        await page.keyboard.press("Enter")
    return None


async def execute(
    session: BrowserSession, step: Resolved, *, goto_urls: Literal["upstream", "resolve"]
) -> tuple[str, bool]:
    """Run the resolved operation: (history line, counts as a no-op)."""
    history = step.history
    if step.kind is None:
        return "No Operation", True

    async def run() -> str | None:
        nonlocal history
        if step.kind == "ELEMENT" and step.element is not None:
            outcome = await on_element(
                locator(session.page, step.element), step.element.tag, step.action, step.value
            )
            if outcome.words != step.action:  # a fallback ran (or every fallback failed)
                history = f"[{step.element.tag_head}] {step.element.description} -> {outcome.words}"
            elif step.action == "SELECT":
                history = history.replace(step.value, outcome.value)
        else:
            error = await _page_operation(session, step, goto_urls)
            if error:
                return error
        await session.settle()
        return None

    error = await session.perform(run)
    if error is not None:
        if step.action in ("TYPE", "SELECT"):
            return f"Failed to {step.action} {step.value} for {step.label} because {error}", True
        return f"Failed to {step.action} {step.label} because {error}", True
    return (history, False) if history else ("No Operation", True)
