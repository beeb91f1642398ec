"""``restgraph view RUN [RUN...]``: a local trace viewer, served on loopback or exported as static files.

One static page (``static/index.html``: plain JavaScript, no build step, no CDN) reads the JSON
documents of ``restgraph.evals.viewer.data`` under relative URLs, so the FastAPI server and the exported
folder are the same site: ``--export site/`` writes every document the server would serve, and
the copy opens from any static file host (or ``python -m http.server`` in that folder).

The server only binds loopback by default and only serves files inside the run folders given.
"""

from __future__ import annotations

import json
import shutil
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from restgraph.evals.viewer.data import RunIndex, episode_doc, episodes_doc, index_run, run_card

STATIC = Path(__file__).with_name("static")


class Viewer:
    """The runs being viewed, indexed once, and the documents the page asks for."""

    def __init__(self, run_dirs: list[Path]):
        self.runs: list[RunIndex] = [index_run(d) for d in run_dirs]
        self._by_task: list[dict[tuple[str, int], int]] | None = None

    def runs_doc(self) -> list[dict[str, Any]]:
        return [run_card(i, r) for i, r in enumerate(self.runs)]

    def episodes_doc(self, run: int) -> dict[str, Any]:
        return episodes_doc(self.runs[run])

    def episode_doc(self, run: int, i: int) -> dict[str, Any]:
        doc = episode_doc(run, self.runs[run], i)
        key = (doc["row"]["task_id"], int(doc["row"]["epoch"] or 0))
        doc["same_task"] = [
            {"run": r, "i": idx[key], "label": self.runs[r].label}
            for r, idx in enumerate(self._task_maps())
            if r != run and key in idx
        ]
        return doc

    def _task_maps(self) -> list[dict[tuple[str, int], int]]:
        if self._by_task is None:
            self._by_task = [{(row[1], int(row[2] or 0)): row[0] for row in r.rows} for r in self.runs]
        return self._by_task

    def file_path(self, run: int, rel: str) -> Path | None:
        """A file inside run ``run``'s folder (screenshots), or None for anything outside it."""
        root = self.runs[run].run_dir.resolve()
        path = (root / rel).resolve()
        return path if path.is_file() and path.is_relative_to(root) else None


def make_app(viewer: Viewer) -> Any:
    from fastapi import FastAPI, HTTPException
    from fastapi.responses import FileResponse, HTMLResponse, Response

    def ORJSONResponse(doc: Any) -> Response:  # noqa: N802 - orjson: a 10,000-row list serialises several times faster
        return Response(orjson.dumps(doc, default=str), media_type="application/json")

    app = FastAPI(title="restgraph view", docs_url=None, redoc_url=None, openapi_url=None)

    def _run(run: int) -> int:
        if not 0 <= run < len(viewer.runs):
            raise HTTPException(404, f"no run {run}")
        return run

    @app.get("/", response_class=HTMLResponse)
    def index() -> str:
        return (STATIC / "index.html").read_text(encoding="utf-8")

    @app.get("/data/runs.json")
    def runs() -> Any:
        return ORJSONResponse(viewer.runs_doc())

    @app.get("/data/{run}/episodes.json")
    def episodes(run: int) -> Any:
        return ORJSONResponse(viewer.episodes_doc(_run(run)))

    @app.get("/data/{run}/ep/{i}.json")
    def episode(run: int, i: int) -> Any:
        if not 0 <= i < len(viewer.runs[_run(run)].rows):
            raise HTTPException(404, f"run {run} has no episode {i}")
        return ORJSONResponse(viewer.episode_doc(run, i))

    @app.get("/files/{run}/{rel:path}")
    def files(run: int, rel: str) -> FileResponse:
        path = viewer.file_path(_run(run), rel)
        if path is None:
            raise HTTPException(404, "not a file of this run")
        return FileResponse(path)

    return app


def export_site(viewer: Viewer, out: Path) -> Path:
    """Write the page, every JSON document and the runs' screenshots into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(STATIC / "index.html", out / "index.html")
    _write(out / "data" / "runs.json", viewer.runs_doc())
    for r, index in enumerate(viewer.runs):
        _write(out / "data" / str(r) / "episodes.json", viewer.episodes_doc(r))
        for i in range(len(index.rows)):
            doc = viewer.episode_doc(r, i)
            _write(out / "data" / str(r) / "ep" / f"{i}.json", doc)
            for step in doc["trace"].get("steps") or []:
                for call in step.get("tool_calls") or []:
                    url = call.get("screenshot_url")
                    source = viewer.file_path(r, url.split("/", 2)[2]) if url else None
                    if source is not None:
                        target = out / url
                        target.parent.mkdir(parents=True, exist_ok=True)
                        shutil.copyfile(source, target)
    return out / "index.html"


def _write(path: Path, doc: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, ensure_ascii=False, separators=(",", ":"), default=str), encoding="utf-8")


def serve(
    viewer: Viewer, host: str = "127.0.0.1", port: int = 0, open_browser: bool = True, ready: Any = None
) -> None:
    """Serve until Ctrl-C. ``port=0`` picks a free port; the URL is printed (and opened)."""
    import webbrowser

    import uvicorn

    from restgraph.evals.listen import listening_socket

    sock = listening_socket(host, port)
    url = f"http://{host}:{sock.getsockname()[1]}/"
    print(
        f"restgraph view: {url}  ({sum(len(r.rows) for r in viewer.runs)} episodes in {len(viewer.runs)} runs; Ctrl-C stops)",
        flush=True,
    )
    if ready is not None:
        ready(url)
    if open_browser:
        webbrowser.open(url)
    server = uvicorn.Server(uvicorn.Config(make_app(viewer), log_level="warning"))
    server.run(sockets=[sock])


@dataclass
class Running:
    """A viewer served from a background thread (``start``); ``stop()`` ends it."""

    url: str
    server: Any
    thread: threading.Thread

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def start(run_dirs: list[str | Path], host: str = "127.0.0.1", port: int = 0) -> Running:
    """The viewer beside the caller (a notebook kernel, a script): the same page ``restgraph view``
    serves, on a free loopback port, answering as soon as this returns."""
    import uvicorn

    from restgraph.evals.listen import listening_socket

    viewer = Viewer([Path(d) for d in run_dirs])
    sock = listening_socket(host, port)
    server = uvicorn.Server(uvicorn.Config(make_app(viewer), log_level="warning"))
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": [sock]}, daemon=True, name="restgraph-view"
    )
    thread.start()
    return Running(f"http://{host}:{sock.getsockname()[1]}/", server, thread)
