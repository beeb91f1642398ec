"""The Playwright browsing environment: Debian's Chromium, aria-snapshot observations with element
refs, a small action space, per-action timeouts, loop detection, screenshots, offline URL policy.

- ``launch``: finding and launching Chromium (one browser per run);
- ``session``: one episode's context/page, ``observe()`` and ``act()``;
- ``observe``: snapshot compaction and the observation text;
- ``actions``: the action model; ``netpolicy``: which URLs may load;
- ``sites``: the offline fixture websites and their tasks.
"""

from restgraph.tools.browser.actions import ACTION_NAMES, ActionResult, BrowserAction
from restgraph.tools.browser.launch import BrowserConfig, find_chromium, launch_browser
from restgraph.tools.browser.netpolicy import check_url, is_loopback_host
from restgraph.tools.browser.session import BrowserSession

__all__ = [
    "ACTION_NAMES",
    "ActionResult",
    "BrowserAction",
    "BrowserConfig",
    "BrowserSession",
    "check_url",
    "find_chromium",
    "is_loopback_host",
    "launch_browser",
]
