"""Launching Debian's Chromium through Playwright, without ``playwright install``.

We point Playwright at the real binary (``/usr/lib/chromium/chromium``; ``/usr/bin/chromium`` is
a shell wrapper that injects extension flags), override the ``HeadlessChrome`` user agent, and in
offline mode add a host-resolver rule so that even a request that slipped past the request router
could not resolve a public name.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, async_playwright
from pydantic import BaseModel

log = logging.getLogger(__name__)
CHROMIUM_CANDIDATES = ("/usr/lib/chromium/chromium", "/usr/lib/chromium-browser/chromium-browser")
OFFLINE_SEARCH_PATH = "/search?q={q}"
ONLINE_SEARCH_URL = "https://html.duckduckgo.com/html/?q={q}"


class BrowserConfig(BaseModel):
    """Browser and action settings of a run (benchmark options can override each field)."""

    executable_path: str | None = None
    headless: bool = True
    offline: bool = True
    viewport_width: int = 1280
    viewport_height: int = 800
    action_timeout_s: float = 5.0
    navigation_timeout_s: float = 15.0
    #: pause after ``domcontentloaded`` (1-2 s for the real web; the fixture needs far less)
    settle_s: float = 0.1
    max_obs_chars: int = 10_000
    screenshots: bool = True
    #: search-engine URL template for the ``search`` action; ``None`` picks by mode
    search_url: str | None = None


def find_chromium(explicit: str | None = None) -> str:
    """The Chromium binary: explicit path, ``$RESTGRAPH_CHROMIUM``, Debian's real binary, then PATH."""
    for candidate in (explicit, os.environ.get("RESTGRAPH_CHROMIUM"), *CHROMIUM_CANDIDATES):
        if candidate and Path(candidate).is_file():
            return candidate
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    raise FileNotFoundError("Chromium not found: install Debian's package (apt-get install chromium) or set RESTGRAPH_CHROMIUM; never `playwright install`")


def launch_args(config: BrowserConfig) -> list[str]:
    args = [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-blink-features=AutomationControlled",
    ]
    if config.offline:
        args.append("--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1, EXCLUDE [::1]")
    return args


@contextlib.asynccontextmanager
async def launch_browser(config: BrowserConfig) -> AsyncIterator[Browser]:
    """One browser for a whole run (episodes get their own contexts)."""
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=find_chromium(config.executable_path), headless=config.headless, chromium_sandbox=False, args=launch_args(config))
        log.info("chromium %s", browser.version)
        try:
            yield browser
        finally:
            with contextlib.suppress(Exception):
                await browser.close()


def context_options(browser: Browser, config: BrowserConfig) -> dict[str, Any]:
    major = browser.version.split(".")[0]
    return {
        "viewport": {"width": config.viewport_width, "height": config.viewport_height},
        "locale": "en-US",
        "timezone_id": "America/New_York",
        "user_agent": f"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/{major}.0.0.0 Safari/537.36",
        "service_workers": "block",  # a service worker's fetches would bypass the request router
        "accept_downloads": False,
    }
