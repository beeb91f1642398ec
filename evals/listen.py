"""A listening socket for the loopback servers (``restgraph view``, ``restgraph sandbox serve``).

Why bind and listen before uvicorn starts: the URL printed (and the browser opened) must carry the
real port when ``--port 0`` picks a free one, and a request sent the moment the URL appears must
queue in the backlog, never be refused.
"""

from __future__ import annotations

import socket


def listening_socket(host: str, port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(2048)
    return sock
