"""Launching Debian's Chromium through Playwright, without ``playwright install``.

We point Playwright at the real binary (``/usr/lib/chromium/chromium``; ``/usr/bin/chromium`` is
a shell wrapper that injects extension flags) and override the ``HeadlessChrome`` user agent.

Offline mode is enforced by the operating system, not only by the request router: Chromium runs
in its own network namespace that holds nothing but loopback (``OfflineNetwork``), where only the
ports of ``BrowserConfig.reachable`` (the fixture server) answer, forwarded by this process. So
HTTP, WebSocket, redirect hops, WebRTC/UDP and DNS cannot leave the machine whatever the page
does. On top: a host-resolver rule (no public name resolves), WebRTC limited to proxied UDP, and
the session's router and listeners that refuse and record every off-loopback attempt.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import socket
import sys
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

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
    #: offline: loopback URLs (the fixture server) reachable from the browser's network namespace
    reachable: list[str] = []


def find_chromium(explicit: str | None = None) -> str:
    """The Chromium binary: explicit path, ``$RESTGRAPH_CHROMIUM``, Debian's real binary, then PATH."""
    for candidate in (explicit, os.environ.get("RESTGRAPH_CHROMIUM"), *CHROMIUM_CANDIDATES):
        if candidate and Path(candidate).is_file():
            return candidate
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    raise FileNotFoundError(
        "Chromium not found: install Debian's package (apt-get install chromium) or set RESTGRAPH_CHROMIUM; never `playwright install`"
    )


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
        args += [
            "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1, EXCLUDE [::1]",
            "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
            "--webrtc-ip-handling-policy=disable_non_proxied_udp",
        ]
    return args


#: runs as root inside a fresh network namespace: loopback up, one listening socket per forwarded
#: port handed to the parent over the inherited socket, then it holds the namespace until stdin closes
_NETNS_HELPER = """
import fcntl, os, socket, struct, sys
probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
flags = struct.unpack('16sH', fcntl.ioctl(probe, 0x8913, struct.pack('16sH', b'lo', 0)))[1]
fcntl.ioctl(probe, 0x8914, struct.pack('16sH', b'lo', flags | 1))
listeners = []
for port in map(int, sys.argv[2:]):
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(('127.0.0.1', port))
    sock.listen(128)
    listeners.append(sock)
socket.send_fds(socket.socket(fileno=int(sys.argv[1])), [b'ok'], [s.fileno() for s in listeners])
sys.stdin.buffer.read()
"""


class OfflineNetwork:
    """A network namespace holding only loopback, with ``ports`` forwarded to this namespace's loopback.

    ``executable(chromium)`` is a wrapper that starts Chromium inside it (``nsenter``)."""

    def __init__(self, ports: list[int]):
        self.ports = sorted(set(ports))
        self.helper: asyncio.subprocess.Process | None = None
        self.servers: list[asyncio.AbstractServer] = []
        self.folder = tempfile.mkdtemp(prefix="rg-offline-browser-")

    async def __aenter__(self) -> OfflineNetwork:
        ours, theirs = socket.socketpair()
        try:
            self.helper = await asyncio.create_subprocess_exec(
                shutil.which("unshare") or "unshare",
                "--net",
                "--",
                sys.executable,
                "-I",
                "-S",
                "-c",
                _NETNS_HELPER,
                str(theirs.fileno()),
                *map(str, self.ports),
                stdin=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                pass_fds=(theirs.fileno(),),
                env={"PATH": "/usr/bin:/bin"},
            )
            theirs.close()
            _, fds, _, _ = await asyncio.wait_for(
                asyncio.to_thread(socket.recv_fds, ours, 16, len(self.ports) or 1), timeout=20
            )
        except (OSError, TimeoutError) as exc:
            await self.__aexit__(None, None, None)
            raise RuntimeError(
                f"offline browsing needs its own network namespace (util-linux 'unshare', root or user namespaces): {exc}"
            ) from exc
        finally:
            ours.close()
        assert self.helper is not None and self.helper.stderr is not None  # started above, stderr a PIPE
        if self.helper.returncode is not None or (not fds and self.ports):
            err = (await self.helper.stderr.read()).decode(errors="replace").strip().splitlines()
            await self.__aexit__(None, None, None)
            raise RuntimeError(
                "offline browsing needs its own network namespace (util-linux 'unshare', root or user "
                f"namespaces): {err[-1] if err else 'the helper failed'}"
            )
        for port, fd in zip(self.ports, fds, strict=True):
            self.servers.append(await asyncio.start_server(_forwarder(port), sock=socket.socket(fileno=fd)))
        return self

    def executable(self, chromium: str) -> str:
        if self.helper is None:
            raise RuntimeError("the network namespace is not set up: enter the context first")
        path = Path(self.folder) / "chromium"
        path.write_text(
            f'#!/bin/sh\nexec {shutil.which("nsenter") or "nsenter"} --net=/proc/{self.helper.pid}/ns/net -- {chromium} "$@"\n'
        )
        path.chmod(0o755)
        return str(path)

    async def __aexit__(self, *exc: object) -> None:
        for server in self.servers:
            server.close()
        if self.helper is not None and self.helper.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.helper.kill()
            await self.helper.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


def _forwarder(port: int):
    async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError, ConnectionError):
            while chunk := await reader.read(65536):
                writer.write(chunk)
                await writer.drain()
        with contextlib.suppress(OSError, RuntimeError):
            writer.close()

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            writer.close()
            return
        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    return handle


def loopback_ports(urls: list[str]) -> list[int]:
    ports = []
    for url in urls:
        parts = urlsplit(url)
        if parts.hostname and parts.port:
            ports.append(parts.port)
        elif parts.hostname:
            ports.append(443 if parts.scheme in ("https", "wss") else 80)
    return ports


@contextlib.asynccontextmanager
async def launch_browser(config: BrowserConfig) -> AsyncIterator[Browser]:
    """One browser for a whole run (episodes get their own contexts); offline, inside ``OfflineNetwork``."""
    chromium = find_chromium(config.executable_path)
    async with contextlib.AsyncExitStack() as stack:
        if config.offline:
            network = await stack.enter_async_context(OfflineNetwork(loopback_ports(config.reachable)))
            chromium = network.executable(chromium)
        pw = await stack.enter_async_context(async_playwright())
        browser = await pw.chromium.launch(
            executable_path=chromium,
            headless=config.headless,
            chromium_sandbox=False,
            args=launch_args(config),
        )
        log.info("chromium %s%s", browser.version, " (offline network namespace)" if config.offline else "")
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
