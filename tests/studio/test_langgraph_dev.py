"""The README's Studio section, end to end: ``langgraph dev`` (the in-memory server of
``langgraph-cli[inmem]``, in the dev extra) serves every graph of ``langgraph.json``, and each one
answers a run made through ``langgraph_sdk`` with a scripted model, as Studio would make it.

The server is started as the README says, from the repository's folder (``langgraph.json`` names
its graphs by paths relative to the working folder; the server's state goes to the git-ignored
``.langgraph_api``), on loopback with ``--no-browser`` and a free port, and the test waits for the
line it prints once the application has started, not for a fixed time."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from langgraph_sdk import get_client

REPO = Path(__file__).resolve().parents[2]
#: every graph ends on its first model reply: the planner, the caller or the baseline reads it as its answer
MODEL = "scripted:constant?structured=0&text=Final%20Answer%3A%2042"
STARTUP_S = 120  # bounded: a loaded 2-core machine imports langgraph-api and seven graphs in ~5-20 s


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """A ``langgraph dev`` process and the log lines it printed so far."""

    def __init__(self, proc: subprocess.Popen[str], url: str):
        self.proc, self.url = proc, url
        self.lines: list[str] = []
        self.ready = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line)
            if "Application started up" in line:
                self.ready.set()
        self.ready.set()  # exited: wake the waiter, which then sees the exit code

    def log(self) -> str:
        return "".join(self.lines[-40:])


@pytest.fixture(scope="module")
def server(data_dir: Path) -> Iterator[Server]:
    port = _free_port()
    env = {
        **os.environ,
        "RESTGRAPH_STUDIO_MODEL": MODEL,
        "RESTGRAPH_STUDIO_SCENARIO": "tmdb",
        "LANGSMITH_TRACING": "false",  # offline: no traces sent anywhere
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
        "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p),
        "NO_COLOR": "1",
    }
    argv = [sys.executable, "-m", "langgraph_cli", "dev", "--no-browser", "--no-reload"]
    argv += ["--host", "127.0.0.1", "--port", str(port), "--config", str(REPO / "langgraph.json")]
    proc = subprocess.Popen(
        argv,
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    srv = Server(proc, f"http://127.0.0.1:{port}")
    try:
        if not srv.ready.wait(STARTUP_S) or proc.poll() is not None:
            pytest.fail(f"langgraph dev did not start (exit {proc.poll()}):\n{srv.log()}")
        yield srv
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _graphs() -> list[str]:
    return list(json.loads((REPO / "langgraph.json").read_text())["graphs"])


async def test_langgraph_dev_serves_every_graph_of_langgraph_json(server: Server) -> None:
    client = get_client(url=server.url)
    assistants = await client.assistants.search(limit=100)
    assert sorted(a["graph_id"] for a in assistants) == sorted(_graphs())


@pytest.mark.parametrize("graph", _graphs())
async def test_each_studio_graph_answers_a_run(server: Server, graph: str) -> None:
    """One run per graph through the SDK, with Studio's one-field input; the scripted model's
    answer (42) must come back in the graph's final state."""
    client = get_client(url=server.url)
    thread = await client.threads.create()
    state = await client.runs.wait(
        thread["thread_id"],
        graph,
        input={"instruction": "What is the answer?"},
        config={"recursion_limit": 40},
        raise_error=True,
    )
    assert isinstance(state, dict), f"{graph}: {state!r}\n{server.log()}"
    assert "42" in str(state.get("final_answer")), f"{graph}: {state.get('final_answer')!r}\n{server.log()}"
    runs = await client.runs.list(thread["thread_id"])
    assert [r["status"] for r in runs] == ["success"]
