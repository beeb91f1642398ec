"""The per-episode browser environment handed to agent builders.

The session (a fresh Playwright context and page) opens lazily on first use, so agents that never
browse (``closed-book``) cost nothing, and the first navigation happens inside the graph where it
is recorded in the trace.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.async_api import Browser

from restgraph.tools.browser.launch import BrowserConfig
from restgraph.tools.browser.session import BrowserSession


class BrowserEnv:
    def __init__(
        self,
        browser: Browser,
        config: BrowserConfig,
        *,
        start_url: str = "about:blank",
        screenshot_dir: Path | None = None,
        max_steps: int = 20,
    ):
        self.browser = browser
        self.config = config
        self.start_url = start_url
        self.screenshot_dir = screenshot_dir
        self.max_steps = max_steps
        #: the world's own search engine backend (``restgraph.tools.search.SearchBackend``), when the benchmark
        #: serves one: retrieval-augmented agents search what the browser's search action would
        self.search: Any = None
        self._session: BrowserSession | None = None

    async def session(self) -> BrowserSession:
        if self._session is None:
            self._session = await BrowserSession.open(
                self.browser,
                self.config,
                start_url=self.start_url,
                max_steps=self.max_steps,
                screenshot_dir=self.screenshot_dir,
            )
        return self._session

    @property
    def opened(self) -> BrowserSession | None:
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None
