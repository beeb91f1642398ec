"""One episode's browser: a fresh Playwright context and page, the actions, and their records.

Every action is bounded (Playwright timeouts plus an outer ``asyncio.wait_for``), waits for
``domcontentloaded`` plus a short settle (waiting for ``load`` hangs on pages that did load),
emits a ``restgraph.tools.events.BrowserStep`` (the harness records a ``ToolCall(kind="browser")``) with
a screenshot in the run folder, and feeds the loop detector (same (action, target, URL) three
times, or two no-op actions in a row). In offline mode every request to a non-loopback host is
aborted by a context-wide router, and what the router does not see is refused too: redirect hops
(seen as requests), WebSockets (a WebSocket route) and WebRTC (``RTCPeerConnection`` replaced by a
refusal). Each is reported as a ``BrowserStep(action="refused")``; the browser's network namespace
(``restgraph.tools.browser.launch``) makes the attempts fail even if a listener missed one.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote_plus, urljoin

from playwright.async_api import Browser, BrowserContext, Page, Route

from restgraph.tools.browser.actions import REF_ACTIONS, ActionResult, BrowserAction
from restgraph.tools.browser.launch import (
    OFFLINE_SEARCH_PATH,
    ONLINE_SEARCH_URL,
    BrowserConfig,
    context_options,
)
from restgraph.tools.browser.netpolicy import check_url
from restgraph.tools.browser.observe import compact_snapshot, refs_in, render_observation
from restgraph.tools.events import BrowserStep, emit
from restgraph.tools.trace_schema import bounded

#: offline pages get no WebRTC: constructing a peer connection reports the attempt and throws
_NO_WEBRTC = """(() => {
  for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection', 'mozRTCPeerConnection']) {
    if (!(name in window)) continue;
    const refuse = function (config) {
      const servers = ((config && config.iceServers) || []).map(s => [].concat(s.urls || s.url || [])).flat();
      try { window.__rgRefused('webrtc:' + (servers.join(' ') || 'peer-connection')); } catch (e) {}
      throw new DOMException('offline mode: WebRTC is not allowed', 'NotAllowedError');
    };
    Object.defineProperty(window, name, {value: refuse, writable: false, configurable: false});
  }
})();"""
_BLOCK_PAGE = re.compile(
    r"unusual traffic|recaptcha|verify (that )?you are (a )?human|captcha|access denied", re.I
)
REPEAT_LIMIT = 3
NOOP_LIMIT = 2
#: how long a refused navigation may take to commit Chromium's error page before we go back
ERROR_PAGE_WAIT_S = 2.0
#: characters of the post-action observation kept in the trace (the model call holds the prompt anyway)
OBSERVATION_IN_TRACE = 6000


class BrowserSession:
    """Create with ``await BrowserSession.open(browser, config, ...)``; close with ``close()``."""

    def __init__(
        self,
        context: BrowserContext,
        page: Page,
        config: BrowserConfig,
        *,
        start_url: str,
        max_steps: int,
        screenshot_dir: Path | None,
    ):
        self.context = context
        self.pages = [page]
        self.config = config
        self.start_url = start_url
        self.max_steps = max_steps
        self.screenshot_dir = screenshot_dir
        self.steps = 0
        self.refused: list[str] = []
        #: the main-frame navigation the router refused during the current action, if any
        self.refused_navigation: str | None = None
        #: the last http(s) page the agent was on: the way back from an error page and the base for relative gotos
        self.last_good_url = start_url if start_url.startswith("http") else ""
        self.loop_reason: str | None = None
        self._repeats: Counter[tuple[str, str, str]] = Counter()
        self._noops = 0
        self._refs: set[str] = set()
        self._fingerprint = ""
        self.start_error: str | None = None
        context.on("page", self._on_page)  # popups / target=_blank become the current tab

    @classmethod
    async def open(
        cls,
        browser: Browser,
        config: BrowserConfig,
        *,
        start_url: str = "about:blank",
        max_steps: int = 20,
        screenshot_dir: Path | None = None,
    ) -> BrowserSession:
        context = await browser.new_context(**context_options(browser, config))
        context.set_default_timeout(config.action_timeout_s * 1000)
        context.set_default_navigation_timeout(config.navigation_timeout_s * 1000)
        session_box: list[BrowserSession] = []

        async def router(route: Route) -> None:
            reason = check_url(route.request.url, offline=config.offline)
            if reason is None:
                await route.continue_()
                return
            if session_box:
                session_box[0].refused.append(f"{route.request.url} ({reason})")
                if route.request.is_navigation_request() and route.request.frame.parent_frame is None:
                    session_box[0].refused_navigation = f"{route.request.url} ({reason})"
            await route.abort("blockedbyclient")

        await context.route("**/*", router)
        if config.offline:
            await _refuse_unrouted(context, config, session_box)
        page = await context.new_page()
        session = cls(
            context, page, config, start_url=start_url, max_steps=max_steps, screenshot_dir=screenshot_dir
        )
        session_box.append(session)
        if start_url != "about:blank":
            try:
                session.start_error = await session._goto(start_url)
            except Exception as exc:  # the agent sees the failure in its first observation
                session.start_error = f"{type(exc).__name__}: {str(exc).splitlines()[0][:300]}"
        return session

    def note_refused(self, url: str, reason: str) -> None:
        """An off-loopback attempt refused outside the router (redirect hop, WebSocket, WebRTC)."""
        self.refused.append(f"{url} ({reason})")

    def _on_page(self, page: Page) -> None:
        if page not in self.pages:
            self.pages.append(page)

    @property
    def page(self) -> Page:
        live = [p for p in self.pages if not p.is_closed()]
        self.pages = live
        return live[-1]

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.context.close()
        self._record_refused(
            self.refused, "close"
        )  # noted after the last action (a late WebSocket, WebRTC, redirect)
        self.refused.clear()

    # -- observation ------------------------------------------------------------------------------
    async def snapshot(self) -> str:
        """Raw AI-mode snapshot with boxes (for change detection and compaction)."""
        try:
            return await asyncio.wait_for(
                self.page.aria_snapshot(mode="ai", boxes=True), self.config.action_timeout_s * 2
            )
        except Exception as exc:  # a crashed or navigating page: say so instead of failing the episode
            return f"- text: (could not read the page: {type(exc).__name__})"

    async def observe(self, note: str = "") -> str:
        raw = await self.snapshot()
        if self.page.url.startswith("http"):
            self.last_good_url = self.page.url
        self._fingerprint = self.page.url + "\n" + raw
        tree = compact_snapshot(
            raw, viewport_height=self.config.viewport_height, max_chars=self.config.max_obs_chars
        )
        self._refs = refs_in(tree)
        if _BLOCK_PAGE.search(tree):
            note = (
                note + " " if note else ""
            ) + "This looks like a CAPTCHA or block page: try another site or answer."
        title = ""
        with contextlib.suppress(Exception):
            title = await self.page.title()
        tabs = [f"[{i}]{'*' if p is self.page else ''} {p.url}" for i, p in enumerate(self.pages)]
        return render_observation(
            url=self.page.url,
            title=title,
            tabs=tabs,
            tree=tree,
            step=self.steps,
            max_steps=self.max_steps,
            note=note,
        )

    # -- actions ------------------------------------------------------------------------------------
    async def act(self, action: BrowserAction) -> ActionResult:
        """Run one action (never raises); records it and updates the loop detector."""
        started = time.perf_counter()
        await self._leave_error_page()  # a refusal that committed its error page after the last action
        before_url, before = self.page.url, self._fingerprint
        error = await self.perform(lambda: self._dispatch(action))
        note = f"your last action failed: {error}" if error else ""
        observation = await self.observe(note)
        changed = error is None and self._fingerprint != before
        result = ActionResult(
            ok=error is None,
            error=error,
            changed=changed,
            url=self.page.url,
            refused=list(self.refused),
            observation=observation,
        )
        result.screenshot = await self._screenshot(action)
        self._update_loops(action, before_url, changed)
        self._record(action, result, time.perf_counter() - started)
        self.refused.clear()
        return result

    async def perform(self, run: Callable[[], Awaitable[str | None]]) -> str | None:
        """Run one action coroutine as a step (never raises): bounded, counted, off any error page.

        ``run`` returns an error text or ``None``; Playwright errors and timeouts become the error
        text (they are the agent's feedback, not a crash). Agents with their own action protocol
        (``spa``, ``seeact``) call this directly and record the step with ``record``."""
        await self._leave_error_page()  # a refusal that committed its error page after the last action
        self._record_refused(self.refused, "between actions")  # a page's late WebSocket, WebRTC or redirect
        self.refused.clear()
        self.steps += 1
        self.refused_navigation = None
        limit = self.config.navigation_timeout_s + self.config.action_timeout_s
        try:
            error = await asyncio.wait_for(run(), timeout=limit)
        except TimeoutError:
            error = f"action timed out after {limit:.0f}s"
        except Exception as exc:
            error = f"{type(exc).__name__}: {(str(exc).splitlines() or [''])[0][:300]}"
        if self.refused_navigation or self._on_error_page:
            if error is None and self.refused:
                error = f"navigation refused: {self.refused_navigation or self.refused[-1]}"
            await self._leave_error_page(wait_s=ERROR_PAGE_WAIT_S if self.refused_navigation else 0.0)
        return error

    async def goto(self, url: str) -> str | None:
        """Navigate (offline policy applied); an error text or ``None``."""
        return await self._goto(url)

    def search_url(self, query: str) -> str:
        """The search-engine results URL for ``query`` (the offline fixture's engine when offline)."""
        template = self.config.search_url or (
            urljoin(self.start_url, OFFLINE_SEARCH_PATH) if self.config.offline else ONLINE_SEARCH_URL
        )
        return template.replace("{q}", quote_plus(query))

    async def settle(self) -> None:
        await self._settle()

    async def screenshot_file(self, name: str) -> str | None:
        """Save the current viewport as ``<screenshot_dir>/<step>_<name>.jpg`` (when screenshots are on)."""
        return await self._screenshot(BrowserAction(action="answer"), name=name)

    def record(
        self,
        action: str,
        params: dict[str, Any],
        *,
        error: str | None,
        observation: str,
        latency: float,
        details: dict[str, Any],
    ) -> None:
        """Record one step taken through ``perform`` (a ``BrowserStep`` event, then the refusals)."""
        emit(
            BrowserStep(
                action=action,
                url=self.page.url,
                params=params,
                error=error,
                observation=bounded(observation, OBSERVATION_IN_TRACE),
                latency_s=round(latency, 6),
                details={"step": self.steps, **details},
            )
        )
        self._record_refused(self.refused, action)
        self.refused.clear()

    async def _dispatch(self, action: BrowserAction) -> str | None:
        if action.action == "goto" and not action.url and action.ref:  # small models "goto" a link: click it
            action = action.model_copy(update={"action": "click"})
        if action.action in REF_ACTIONS:
            if not action.ref:
                return f"{action.action} needs a ref such as e12"
            ref = action.ref.strip().strip("[]").removeprefix("ref=")
            if self._refs and ref not in self._refs:
                return f"unknown ref {ref!r}: use a [ref=eN] from the latest page"
            locator = self.page.locator(f"aria-ref={ref}")
            if action.action == "click":
                await locator.click()
                await self._settle()
            elif action.action == "type":
                await locator.fill(action.text or "")
                if action.submit:
                    await locator.press("Enter")
                    await self._settle()
            else:
                await locator.select_option(action.value or action.text or "")
                await self._settle()
            return None
        if action.action == "goto":
            if not action.url:
                return "goto needs a url"
            return await self._goto(urljoin(self._base_url(), action.url.strip()))
        if action.action == "search":
            return await self._goto(self.search_url(action.query or action.text or ""))
        if action.action == "press":
            await self.page.keyboard.press(action.key or "Enter")
            await self._settle()
        elif action.action == "scroll":
            dy = int(self.config.viewport_height * 0.8) * (1 if action.direction == "down" else -1)
            await self.page.evaluate(f"window.scrollBy(0, {dy})")
        elif action.action == "back":
            await self.page.go_back(wait_until="domcontentloaded")
            await self._settle(load=False)
        elif action.action == "answer":
            return None
        return None

    @property
    def _on_error_page(self) -> bool:
        return self.page.url.startswith("chrome-error://")

    def _base_url(self) -> str:
        """Where a relative URL is resolved: the current page, or the last real page when on an error page."""
        url = self.page.url
        return url if url.startswith("http") or not self.last_good_url else self.last_good_url

    async def _leave_error_page(self, *, wait_s: float = 0.0) -> None:
        """Return from Chromium's error page (a refused or failed navigation) to the last real page.

        A refused navigation commits its error page asynchronously: under load that can happen after
        the action returned, so ``wait_s`` gives it time to appear before going back, and every action
        starts by leaving an error page it finds. Back first (keeps history); a direct goto if that fails.
        """
        deadline = time.monotonic() + wait_s
        while not self._on_error_page and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        if not self._on_error_page:
            return
        with contextlib.suppress(Exception):
            await self.page.go_back(wait_until="domcontentloaded")
        if self._on_error_page and self.last_good_url:
            with contextlib.suppress(Exception):
                await self.page.goto(self.last_good_url, wait_until="domcontentloaded")

    async def _goto(self, url: str) -> str | None:
        reason = check_url(url, offline=self.config.offline, navigation=True)
        if reason is not None:
            self.refused.append(f"{url} ({reason})")
            return f"navigation refused: {reason}"
        await self.page.goto(url, wait_until="domcontentloaded")
        await self._settle(load=False)
        return None

    async def _settle(self, *, load: bool = True) -> None:
        if load:
            with contextlib.suppress(Exception):
                await self.page.wait_for_load_state(
                    "domcontentloaded", timeout=self.config.navigation_timeout_s * 1000
                )
        await asyncio.sleep(self.config.settle_s)

    async def _screenshot(self, action: BrowserAction, *, name: str | None = None) -> str | None:
        if not (self.config.screenshots and self.screenshot_dir):
            return None
        path = self.screenshot_dir / f"step{self.steps:02d}_{name or action.action}.jpg"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            await asyncio.wait_for(
                self.page.screenshot(path=str(path), type="jpeg", quality=50), self.config.action_timeout_s
            )
        except Exception:
            return None
        return str(path)

    def _update_loops(self, action: BrowserAction, url: str, changed: bool) -> None:
        if action.action == "answer":
            return
        key = action.key_for_loops(url)
        self._repeats[key] += 1
        self._noops = 0 if changed else self._noops + 1
        if self._repeats[key] >= REPEAT_LIMIT:
            self.loop_reason = f"loop: {action.describe()} repeated {REPEAT_LIMIT} times on {url}"
        elif self._noops >= NOOP_LIMIT:
            self.loop_reason = (
                f"loop: {NOOP_LIMIT} consecutive actions changed nothing (last: {action.describe()})"
            )

    def _record(self, action: BrowserAction, result: ActionResult, latency: float) -> None:
        extra: dict[str, Any] = {
            "changed": result.changed,
            "step": self.steps,
            "observation_chars": len(result.observation),
        }
        if result.screenshot:
            extra["screenshot"] = result.screenshot
        emit(
            BrowserStep(
                action=action.action,
                url=result.url,
                params=action.model_dump(exclude_none=True),
                error=result.error,
                observation=bounded(result.observation, OBSERVATION_IN_TRACE),
                latency_s=round(latency, 6),
                details=extra,
            )
        )
        self._record_refused(result.refused, action.action)

    def _record_refused(self, refused: list[str], during: str) -> None:
        for item in refused:
            url, _, reason = item.partition(" (")
            emit(
                BrowserStep(
                    action="refused",
                    url=url,
                    error=f"refused: {reason.rstrip(')')}",
                    details={"during": during, "step": self.steps},
                )
            )


async def _refuse_unrouted(
    context: BrowserContext, config: BrowserConfig, session_box: list[BrowserSession]
) -> None:
    """Offline: refuse and record what the request router never sees (redirect hops, WebSockets, WebRTC)."""

    def note(url: str, reason: str) -> None:
        if session_box:
            session_box[0].note_refused(url, reason)

    def on_request(request) -> None:
        if request.redirected_from is not None:
            reason = check_url(request.url, offline=True)
            if reason is not None:
                note(request.url, f"redirect hop: {reason}")

    async def on_websocket(ws) -> None:
        reason = check_url(ws.url, offline=True)
        if reason is None:
            ws.connect_to_server()
        else:
            note(ws.url, f"websocket: {reason}")
            await ws.close(code=1008, reason="offline mode")

    context.on("request", on_request)
    await context.route_web_socket(lambda url: True, on_websocket)
    await context.expose_function("__rgRefused", lambda what: note(what, "webrtc: offline mode"))
    await context.add_init_script(_NO_WEBRTC)
