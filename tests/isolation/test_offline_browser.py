"""The offline browser is offline: nothing reaches an off-loopback canary, and every refusal is traced.

The test builds its own world: it re-runs itself inside a fresh network namespace (``unshare
--net``) whose only interface also carries an off-loopback test address, and puts the
canary (TCP and UDP) on that address, which any process in that namespace can reach (the control
below proves it). No packet ever goes near the machine's real interfaces. Pages on the loopback
fixture then try a redirect, a WebSocket, WebRTC (STUN over UDP) and a fetch to the canary, and
the agent navigates there directly and to ``file://``. None of it may arrive, and the episode's
trace must list each attempt as refused.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.responses import HTMLResponse, RedirectResponse

from restgraph.evals.recording import EpisodeRecorder, reset_recorder, set_recorder
from restgraph.tools.browser import BrowserAction, BrowserConfig, BrowserSession, launch_browser
from restgraph.tools.openapi.serve import serve_on_loopback

pytestmark = pytest.mark.browser


#: set inside the namespace this test makes; the canary lives only there
NETNS_ENV = "RESTGRAPH_CANARY_NETNS"
#: an address of the benchmarking range (RFC 2544), added in the test's own namespace only
CANARY_ADDRESS = "198.18.0.1"
_NAMESPACE_SETUP = f'ip link set lo up && ip addr add {CANARY_ADDRESS}/32 dev lo && exec "$@"'


class Canary:
    """TCP and UDP listeners on an off-loopback address that count whatever reaches them."""

    def __init__(self, address: str):
        self.tcp = socket.socket()
        self.tcp.bind((address, 0))
        self.tcp.listen(16)
        self.tcp.settimeout(0.1)
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind((address, 0))
        self.udp.settimeout(0.1)
        self.address, self.tcp_port, self.udp_port = (
            address,
            self.tcp.getsockname()[1],
            self.udp.getsockname()[1],
        )
        self.hits: list[str] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._listen, daemon=True)
        self.thread.start()

    def _listen(self) -> None:
        while not self.stop.is_set():
            try:
                conn, peer = self.tcp.accept()
                self.hits.append(f"tcp from {peer}")
                conn.close()
            except OSError:
                pass
            try:
                _, peer = self.udp.recvfrom(4096)
                self.hits.append(f"udp from {peer}")
            except OSError:
                pass

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=2)
        self.tcp.close()
        self.udp.close()


def hostile_site(canary: Canary) -> FastAPI:
    app = FastAPI()
    http = f"http://{canary.address}:{canary.tcp_port}"
    done = "<script>window.done = false; function finish() { window.done = true; }</script>"

    @app.get("/", response_class=HTMLResponse)
    def home() -> str:
        return "<html><body><h1>hostile</h1><a href='/ws'>ws</a></body></html>"

    @app.get("/redirect")
    def redirect() -> RedirectResponse:
        return RedirectResponse(f"{http}/redirected", status_code=302)

    @app.get("/ws", response_class=HTMLResponse)
    def ws() -> str:
        return (
            f"<html><body>{done}<script>try {{ const s = new WebSocket('ws://{canary.address}:{canary.tcp_port}/socket');"
            "s.onclose = finish; s.onerror = finish; } catch (e) { finish(); }</script>ws</body></html>"
        )

    @app.get("/webrtc", response_class=HTMLResponse)
    def webrtc() -> str:
        return (
            f"<html><body>{done}<script>try {{ const pc = new RTCPeerConnection({{iceServers: "
            f"[{{urls: 'stun:{canary.address}:{canary.udp_port}'}}]}});"
            "pc.createDataChannel('x'); pc.createOffer().then(o => pc.setLocalDescription(o)); setTimeout(finish, 1500);"
            "} catch (e) { finish(); }</script>webrtc</body></html>"
        )

    @app.get("/fetch", response_class=HTMLResponse)
    def fetch() -> str:
        return f"<html><body>{done}<script>fetch('{http}/fetched').then(finish, finish);</script>fetch</body></html>"

    return app


@pytest.fixture
def canary():
    if os.environ.get(NETNS_ENV) != "1":
        pytest.skip("runs only inside the namespace test_offline_browser_in_its_own_network_namespace makes")
    address = CANARY_ADDRESS
    canary = Canary(address)
    # control: from the host's namespace the canary is reachable, so silence below means something
    socket.create_connection((address, canary.tcp_port), timeout=5).close()
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    probe.sendto(b"control", (address, canary.udp_port))
    probe.close()
    for _ in range(100):
        if len(canary.hits) >= 2:
            break
        threading.Event().wait(0.05)
    assert len(canary.hits) == 2, canary.hits
    canary.hits.clear()
    yield canary
    canary.close()


async def _episode(canary: Canary) -> tuple[EpisodeRecorder, list[str]]:
    recorder = EpisodeRecorder()
    token = set_recorder(recorder)
    try:
        async with serve_on_loopback(hostile_site(canary)) as base:
            config = BrowserConfig(offline=True, reachable=[base], screenshots=False, settle_s=0.0)
            async with launch_browser(config) as browser:
                session = await BrowserSession.open(browser, config, start_url=base + "/")
                assert session.start_error is None, session.start_error
                errors = []
                for url in (
                    "/redirect",
                    "/ws",
                    "/webrtc",
                    "/fetch",
                    f"http://{canary.address}:{canary.tcp_port}/direct",
                    "file:///etc/passwd",
                ):
                    result = await session.act(BrowserAction(action="goto", url=url))
                    errors.append(result.error or "")
                    if url in ("/ws", "/webrtc", "/fetch"):
                        await session.page.wait_for_function("window.done === true", timeout=10_000)
                await session.act(BrowserAction(action="goto", url="/"))
                await session.close()
        recorder.flush()
    finally:
        reset_recorder(token)
    return recorder, errors


def test_offline_browser_in_its_own_network_namespace() -> None:
    """Run the canary test below in a namespace of its own (skip where namespaces cannot be made)."""
    if os.environ.get(NETNS_ENV) == "1":
        pytest.skip("already inside the canary namespace")
    if not (shutil.which("unshare") and shutil.which("ip")):
        pytest.skip("needs unshare (util-linux) and ip (iproute2) to build the canary's namespace")
    probe = subprocess.run(
        ["unshare", "--net", "sh", "-c", _NAMESPACE_SETUP, "sh", "true"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    if probe.returncode != 0:
        pytest.skip(
            f"cannot build a network namespace with a test address here: {probe.stderr.strip()[:200]}"
        )
    inner = [
        sys.executable,
        "-m",
        "pytest",
        f"{__file__}::test_offline_browser_sends_nothing_off_loopback_and_traces_every_refusal",
        "-o",
        "addopts=",
        "-q",
        "-p",
        "no:cacheprovider",
        "-rs",
    ]
    result = subprocess.run(
        ["unshare", "--net", "sh", "-c", _NAMESPACE_SETUP, "sh", *inner],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, NETNS_ENV: "1"},
        cwd=Path(__file__).resolve().parents[2],
    )
    assert result.returncode == 0 and "1 passed" in result.stdout, (
        result.stdout[-3000:] + result.stderr[-2000:]
    )


def test_offline_browser_sends_nothing_off_loopback_and_traces_every_refusal(canary: Canary) -> None:
    recorder, errors = asyncio.run(_episode(canary))
    refused = [
        c for step in recorder.steps for c in step.tool_calls if c.kind == "browser" and c.name == "refused"
    ]
    urls = " ".join(f"{c.url} {c.error}" for c in refused)
    assert canary.hits == [], f"traffic reached the canary: {canary.hits}"
    target = f"{canary.address}:{canary.tcp_port}"
    assert f"http://{target}/redirected" in urls and "redirect hop" in urls
    assert f"ws://{target}/socket" in urls and "websocket" in urls
    assert f"stun:{canary.address}:{canary.udp_port}" in urls and "webrtc" in urls
    assert f"http://{target}/fetched" in urls
    assert f"http://{target}/direct" in urls and "file:///etc/passwd" in urls
    assert "navigation refused" in errors[4] and "navigation refused" in errors[5]


def _descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fh:
                    ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def test_the_offline_browser_runs_in_a_namespace_with_only_loopback() -> None:
    async def inspect() -> tuple[set[str], set[str]]:
        async with serve_on_loopback(FastAPI()) as base:
            config = BrowserConfig(offline=True, reachable=[base], screenshots=False)
            async with launch_browser(config) as browser:
                await (await browser.new_context()).new_page()
                namespaces, interfaces = set(), set()
                for pid in _descendants(os.getpid()):
                    try:
                        if "chromium" not in os.readlink(f"/proc/{pid}/exe"):
                            continue
                        namespaces.add(os.readlink(f"/proc/{pid}/ns/net"))
                        with open(f"/proc/{pid}/net/dev") as fh:
                            interfaces |= {line.split(":")[0].strip() for line in fh.readlines()[2:]}
                    except OSError:
                        continue
                return namespaces, interfaces

    namespaces, interfaces = asyncio.run(inspect())
    assert namespaces and os.readlink("/proc/self/ns/net") not in namespaces and len(namespaces) == 1
    assert interfaces == {"lo"}
