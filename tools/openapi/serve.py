"""Serve an ASGI app (a sandbox) on a free loopback port for the length of a run."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator
from typing import Any

import uvicorn


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


@contextlib.asynccontextmanager
async def serve_on_loopback(
    app: Any, *, host: str = "127.0.0.1", port: int | None = None, startup_timeout_s: float = 20.0
) -> AsyncIterator[str]:
    """Run ``app`` with uvicorn (one worker) in this event loop; yields its base URL."""
    port = port or free_port(host)
    server = uvicorn.Server(
        uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="off", access_log=False)
    )
    task = asyncio.create_task(server.serve())
    try:
        for _ in range(int(startup_timeout_s / 0.05)):
            if server.started:
                break
            if task.done():
                task.result()
            await asyncio.sleep(0.05)
        else:
            raise RuntimeError(f"sandbox server did not start on {host}:{port} within {startup_timeout_s}s")
        yield f"http://{host}:{port}"
    finally:
        server.should_exit = True
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(task, timeout=5)
