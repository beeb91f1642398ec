"""SeeAct / SeePlanAct's browser operations on a chosen page element, with upstream's fallbacks.

Re-implements the execution part of SeePlanAct's step loop: CLICK (a JavaScript ``click()`` for
``select`` and ``input`` elements, else Playwright's click; HOVER if that fails), TYPE (clear, then
type key by key, else ``fill``; a ``select`` gets the closest option, anything else a click),
SELECT (the option whose text is closest by ``difflib.SequenceMatcher``; an ``input`` is typed
into, anything else clicked), HOVER (else click), PRESS ENTER (on the element, else click it and
press Enter). Each returns an ``Outcome``: the words that replace the action in the history line
upstream writes (``CLICK``, or ``Failed to CLICK because ..., did a HOVER instead``), the value
actually selected, and whether the step counts as a no-op (every fallback failed).

Page-level operations (GOTO, SEARCH, SCROLL, GOBACK) go through ``BrowserSession`` so the offline
URL policy applies; see ``restgraph.agents.browser.seeplanact_act``.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from difflib import SequenceMatcher

from playwright.async_api import Locator

#: upstream's per-operation Playwright timeout
TIMEOUT_MS = 10_000


@dataclass
class Outcome:
    words: str
    value: str = ""
    noop: bool = False


def _first_line(exc: BaseException) -> str:
    return (str(exc).splitlines() or [type(exc).__name__])[0][:300]


async def _click(loc: Locator, tag: str) -> None:
    if tag in ("select", "input"):
        await loc.evaluate("element => element.click()", timeout=TIMEOUT_MS)
    else:
        await loc.click(timeout=TIMEOUT_MS)


async def _type(loc: Locator, value: str) -> None:
    try:
        await loc.clear(timeout=TIMEOUT_MS)
        await loc.fill("", timeout=TIMEOUT_MS)
        await loc.press_sequentially(value, timeout=TIMEOUT_MS)
    except Exception:
        await loc.fill(value, timeout=TIMEOUT_MS)


async def select_closest(loc: Locator, value: str) -> str:
    """Select the option whose text is most similar to ``value``; returns that text."""
    options = loc.locator("option")
    best = (-1, "", -1.0)
    for i in range(await options.count()):
        text = await options.nth(i).inner_text()
        ratio = SequenceMatcher(None, text, value).ratio()
        if ratio > best[2]:
            best = (i, text, ratio)
    await loc.select_option(index=best[0], timeout=TIMEOUT_MS)
    return " ".join(best[1].split())


async def _fallback(
    loc: Locator, tag: str, action: str, why: str, value: str, chain: tuple[str, ...]
) -> Outcome:
    quoted = f' "{value}"' if action in ("TYPE", "SELECT") else ""
    for alternative in chain:
        try:
            if alternative == "CLICK":
                await _click(loc, tag)
            elif alternative == "HOVER":
                await loc.hover(timeout=TIMEOUT_MS)
            elif alternative == "TYPE":
                await _type(loc, value)
            elif alternative == "SELECT":
                value = await select_closest(loc, value)
                alternative = f"SELECT {value}"
        except Exception:
            continue
        return Outcome(f"Failed to {action}{quoted} because {why}, did a {alternative} instead", value)
    return Outcome(f"Failed to {action}{quoted} because {why}", value, noop=True)


async def on_element(loc: Locator, tag: str, action: str, value: str) -> Outcome:
    """Run ``action`` (CLICK / TYPE / SELECT / HOVER / PRESS ENTER) on one element."""
    with contextlib.suppress(Exception):
        await loc.scroll_into_view_if_needed(timeout=3000)
    try:
        if action == "CLICK":
            await _click(loc, tag)
        elif action == "TYPE":
            await _type(loc, value)
        elif action == "SELECT":
            value = await select_closest(loc, value)
        elif action == "HOVER":
            await loc.hover(timeout=TIMEOUT_MS)
        elif action == "PRESS ENTER":
            try:
                await loc.press("Enter")
            except Exception:
                await loc.click(timeout=TIMEOUT_MS)
                await loc.page.keyboard.press("Enter")
        return Outcome(action, value)
    except Exception as exc:
        chains = {
            "CLICK": ("HOVER",),
            "TYPE": ("SELECT",) if tag == "select" else ("CLICK",),
            "SELECT": ("TYPE",) if tag == "input" else ("CLICK", "HOVER"),
            "HOVER": ("CLICK",),
        }
        return await _fallback(loc, tag, action, _first_line(exc), value, chains.get(action, ()))
