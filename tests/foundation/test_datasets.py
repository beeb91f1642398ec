"""Dataset resolution: data dir, then cache, then a pinned download from a local HTTP server (no
real network); a changed upstream file is refused; offline, the error says what to do."""

from __future__ import annotations

import hashlib
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from restgraph.evals.datasets import DATA_DIR_ENV, DataFile, DatasetUnavailable, resolve

CONTENT = b'{"tasks": [1, 2, 3]}\n'
SHA = hashlib.sha256(CONTENT).hexdigest()


class _Server:
    def __init__(self) -> None:
        self.hits: list[str] = []
        self.body = CONTENT
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802
                server.hits.append(self.path)
                if self.path != "/data/tasks.json":
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Length", str(len(server.body)))
                self.end_headers()
                self.wfile.write(server.body)

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/data/tasks.json"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()


@pytest.fixture
def server() -> Iterator[_Server]:
    srv = _Server()
    yield srv
    srv.httpd.shutdown()
    srv.httpd.server_close()


@pytest.fixture
def dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    data, cache = tmp_path / "data", tmp_path / "cache"
    data.mkdir()
    monkeypatch.setenv(DATA_DIR_ENV, str(data))
    monkeypatch.setenv("RESTGRAPH_CACHE_DIR", str(cache))
    return data, cache


def _closed_port_url() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/data/tasks.json"  # nothing listens: like being offline


def test_data_dir_wins_without_any_download(dirs: tuple[Path, Path]) -> None:
    data, _ = dirs
    (data / "demo").mkdir()
    (data / "demo" / "tasks.json").write_bytes(CONTENT)
    assert resolve(DataFile("demo", "tasks.json", _closed_port_url(), SHA)) == data / "demo" / "tasks.json"


def test_download_verifies_caches_and_is_not_repeated(dirs: tuple[Path, Path], server: _Server) -> None:
    _, cache = dirs
    file = DataFile("demo", "tasks.json", server.url, SHA)
    path = resolve(file)
    assert path == cache / "datasets" / "demo" / "tasks.json" and path.read_bytes() == CONTENT
    assert resolve(file) == path and len(server.hits) == 1  # second time from the cache


def test_corrupt_cache_is_not_used_but_fetched_again(dirs: tuple[Path, Path], server: _Server) -> None:
    _, cache = dirs
    cached = cache / "datasets" / "demo" / "tasks.json"
    cached.parent.mkdir(parents=True)
    cached.write_bytes(b"half a fi")
    assert resolve(DataFile("demo", "tasks.json", server.url, SHA)).read_bytes() == CONTENT
    assert len(server.hits) == 1


def test_sha256_mismatch_is_refused_and_nothing_cached(dirs: tuple[Path, Path], server: _Server) -> None:
    _, cache = dirs
    server.body = b'{"tasks": "changed upstream"}'
    with pytest.raises(DatasetUnavailable, match="sha256") as err:
        resolve(DataFile("demo", "tasks.json", server.url, SHA))
    assert SHA in str(err.value) and "refusing" in str(err.value)
    assert not (cache / "datasets" / "demo" / "tasks.json").exists()


def test_offline_error_says_what_to_do(dirs: tuple[Path, Path]) -> None:
    data, cache = dirs
    url = _closed_port_url()
    with pytest.raises(DatasetUnavailable) as err:
        resolve(DataFile("demo", "tasks.json", url, SHA), timeout=5)
    message = str(err.value)
    assert url in message and DATA_DIR_ENV in message
    assert "demo/tasks.json" in message and str(cache / "datasets" / "demo" / "tasks.json") in message


def test_http_error_status_is_reported(dirs: tuple[Path, Path], server: _Server) -> None:
    with pytest.raises(DatasetUnavailable, match="404"):
        resolve(DataFile("demo", "tasks.json", server.url.replace("tasks.json", "gone.json"), SHA))


def test_file_without_public_download_names_the_folder(dirs: tuple[Path, Path]) -> None:
    data, _ = dirs
    with pytest.raises(DatasetUnavailable) as err:
        resolve(DataFile("private", "gold.json", None, None))
    assert f"${DATA_DIR_ENV}/private/" in str(err.value) and str(data) in str(err.value)
