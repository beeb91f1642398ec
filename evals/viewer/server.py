"""``restgraph view RUN [RUN...]``: a local trace viewer, served on loopback or exported as static files.

One static page (``static/index.html``: plain JavaScript, no build step, no CDN) loads the documents
of ``restgraph.evals.viewer.data`` as *scripts* under relative URLs (``data/runs.js`` calls
``restgraphData("runs", {...})``), never with ``fetch``: Chromium refuses ``fetch`` of ``file://``
URLs ("TypeError: Failed to fetch"), but a ``<script src>`` loads from disk. So the FastAPI server
and the exported folder are the same site, and ``--export site/`` opens by double-clicking
``site/index.html``. The server also answers the same documents as ``.json`` for scripts and
``bench/viewer_scale.py``.

The server only binds loopback by default and only serves files inside the run folders given.
"""

from __future__ import annotations

import shutil
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
from starlette.requests import Request  # at module level: FastAPI resolves the endpoint's annotations here

from restgraph.evals.viewer.data import RunIndex, episode_doc, episodes_doc, index_run, run_card

STATIC = Path(__file__).with_name("static")
JS = "text/javascript; charset=utf-8"


def as_script(key: str, doc: Any) -> bytes:
    """A document as a script the page loads with ``<script src>`` (JSON is a JavaScript expression)."""
    return b"restgraphData(" + orjson.dumps(key) + b"," + orjson.dumps(doc, default=str) + b");\n"


class Viewer:
    """The runs being viewed, indexed once, and the documents the page asks for."""

    def __init__(self, run_dirs: list[Path], reviewer: str | None = None):
        self.runs: list[RunIndex] = [index_run(d) for d in run_dirs]
        self._by_task: list[dict[tuple[str, int], int]] | None = None
        #: who marks verdicts (``restgraph review``); None: a read-only viewer, no review routes
        self.reviewer = reviewer

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

    @app.get("/data/runs.js")
    def runs_js() -> Any:
        return Response(as_script("runs", viewer.runs_doc()), media_type=JS)

    @app.get("/data/{run}/episodes.js")
    def episodes_js(run: int) -> Any:
        return Response(as_script(f"{run}/episodes", viewer.episodes_doc(_run(run))), media_type=JS)

    @app.get("/data/{run}/ep/{i}.js")
    def episode_js(run: int, i: int) -> Any:
        if not 0 <= i < len(viewer.runs[_run(run)].rows):
            raise HTTPException(404, f"run {run} has no episode {i}")
        return Response(as_script(f"{run}/ep/{i}", viewer.episode_doc(run, i)), media_type=JS)

    if viewer.reviewer is not None:
        add_review_routes(app, viewer, _run)

    @app.get("/files/{run}/{rel:path}")
    def files(run: int, rel: str) -> FileResponse:
        path = viewer.file_path(_run(run), rel)
        if path is None:
            raise HTTPException(404, "not a file of this run")
        return FileResponse(path)

    return app


def add_review_routes(app: Any, viewer: Viewer, check_run: Any) -> None:
    """``restgraph review``: the review cards as a script, and ``POST /api/review`` appending a
    person's verdict to the run's ``reviews.jsonl`` (a page opened from disk cannot write files)."""
    from fastapi import HTTPException
    from fastapi.responses import Response

    from restgraph.evals.reviews import Review, append_review
    from restgraph.evals.viewer.review import review_doc

    who = str(viewer.reviewer)

    @app.get("/data/{run}/review.js")
    def review_js(run: int) -> Any:
        doc = review_doc(check_run(run), viewer.runs[run], who)
        return Response(as_script(f"{run}/review", doc), media_type=JS, headers={"Cache-Control": "no-store"})

    @app.post("/api/review")
    async def post_review(request: Request) -> Any:
        # JSON only: a form posted by another site's page cannot reach here without a CORS preflight;
        # and a loopback Host only, so a page on a rebound DNS name cannot post as same-origin
        if request.url.hostname not in ("127.0.0.1", "localhost", "::1"):
            raise HTTPException(403, "reviews are taken on loopback only")
        if not request.headers.get("content-type", "").startswith("application/json"):
            raise HTTPException(415, "send application/json")
        body = await request.json()
        run, i, verdict = body.get("run"), body.get("i"), body.get("verdict")
        if not isinstance(run, int) or not isinstance(i, int) or verdict not in ("pass", "fail"):
            raise HTTPException(422, "expected {run: int, i: int, verdict: 'pass' | 'fail'}")
        index = viewer.runs[check_run(run)]
        if not 0 <= i < len(index.rows):
            raise HTTPException(404, f"run {run} has no episode {i}")
        row = index.rows[i]
        checker = body.get("checker")
        review = Review(
            task_id=str(row[1]),
            epoch=int(row[2] or 0),
            verdict=verdict,
            who=who,
            checker=checker if isinstance(checker, bool) else None,
        )
        append_review(index.run_dir, review)
        return Response(review.model_dump_json(), media_type="application/json")


def export_site(viewer: Viewer, out: Path) -> Path:
    """Write the page, every document (as a script, so the copy opens from disk) and the runs'
    screenshots into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(STATIC / "index.html", out / "index.html")
    _write(out / "data", "runs", viewer.runs_doc())
    for r, index in enumerate(viewer.runs):
        _write(out / "data", f"{r}/episodes", viewer.episodes_doc(r))
        for i in range(len(index.rows)):
            doc = viewer.episode_doc(r, i)
            _write(out / "data", f"{r}/ep/{i}", doc)
            for step in doc["trace"].get("steps") or []:
                for call in step.get("tool_calls") or []:
                    url = call.get("screenshot_url")
                    source = viewer.file_path(r, url.split("/", 2)[2]) if url else None
                    if source is not None:
                        target = out / url
                        target.parent.mkdir(parents=True, exist_ok=True)
                        shutil.copyfile(source, target)
    return out / "index.html"


def _write(data_dir: Path, key: str, doc: Any) -> None:
    path = data_dir / f"{key}.js"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(as_script(key, doc))


def serve(
    viewer: Viewer, host: str = "127.0.0.1", port: int = 0, open_browser: bool = True, ready: Any = None
) -> None:
    """Serve until Ctrl-C. ``port=0`` picks a free port; the URL is printed (and opened)."""
    import webbrowser

    import uvicorn

    from restgraph.evals.listen import listening_socket

    sock = listening_socket(host, port)
    url = f"http://{host}:{sock.getsockname()[1]}/" + ("?mode=review" if viewer.reviewer else "")
    episodes = sum(len(r.rows) for r in viewer.runs)
    if viewer.reviewer:
        where = ", ".join(str(r.run_dir / "reviews.jsonl") for r in viewer.runs)
        what = f"{episodes} episodes; verdicts by {viewer.reviewer} go to {where}"
    else:
        what = f"{episodes} episodes in {len(viewer.runs)} runs"
    print(f"restgraph {'review' if viewer.reviewer else 'view'}: {url}  ({what}; Ctrl-C stops)", flush=True)
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
