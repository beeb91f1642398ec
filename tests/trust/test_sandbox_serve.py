"""``restgraph sandbox serve NAME`` prints its URL, base path and how to authenticate, and serves the
API's OpenAPI docs at ``/docs`` (offline: Swagger UI's files come from a package, not a CDN)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import httpx
import pytest

from restgraph.evals.sandbox_serve import banner, serving_app
from tests.conftest import CHROMIUM

pytestmark = pytest.mark.skipif(
    not os.environ.get("RESTGRAPH_DATA_DIR"),
    reason="RESTGRAPH_DATA_DIR is unset (the OpenAPI specs come from it)",
)
AUTH = {"Authorization": "Bearer dev"}


@pytest.fixture(scope="module")
def tmdb_server() -> Iterator[tuple[str, list[str]]]:
    """The real command on a free loopback port; yields the server root and the banner lines."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "restgraph.evals.cli", "sandbox", "serve", "tmdb", "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        lines = []
        assert proc.stdout is not None
        for (
            line
        ) in proc.stdout:  # the banner ends with "Ctrl-C stops."; the socket listens before it is printed
            lines.append(line.rstrip("\n"))
            if line.startswith("Ctrl-C"):
                break
        url = lines[0].split()[3]
        yield url.removesuffix("/3"), lines
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_the_banner_says_url_base_path_auth_and_docs_and_its_example_works(
    tmdb_server: tuple[str, list[str]],
) -> None:
    root, lines = tmdb_server
    assert lines[0].startswith(f"restgraph sandbox tmdb: {root}/3") and "base path /3" in lines[0]
    assert "Authorization: Bearer <token>" in lines[1] and "api_key" in lines[1]
    assert f"{root}/docs" in lines[2]
    example = lines[3].split("'")[-2]  # the curl line's URL
    assert httpx.get(example, headers=AUTH).json()["results"], "the banner's example request finds something"
    assert httpx.get(example).status_code == 401  # and the auth line is needed


def test_docs_and_the_spec_point_at_the_sandbox(tmdb_server: tuple[str, list[str]]) -> None:
    root, _ = tmdb_server
    page = httpx.get(f"{root}/docs")
    assert (
        page.status_code == 200
        and "/_docs_static/swagger-ui-bundle.js" in page.text
        and "cdn" not in page.text
    )
    assert httpx.get(f"{root}/_docs_static/swagger-ui-bundle.js").status_code == 200
    spec = httpx.get(f"{root}/openapi.json").json()
    assert spec["servers"] == [{"url": "/3", "description": "this sandbox (restgraph sandbox serve)"}]
    assert len(spec["paths"]) == 54 and {"sandbox_bearer": []} in spec["security"]
    assert (
        httpx.get(f"{root}/3/movie/238", headers=AUTH).json()["id"] == 238
    )  # the API is still there beside the docs


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM, reason="needs Debian's chromium")
def test_swagger_ui_renders_every_operation_offline(tmdb_server: tuple[str, list[str]]) -> None:
    from playwright.sync_api import sync_playwright

    root, _ = tmdb_server
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page()
        page.route(
            "**/*", lambda route: route.continue_() if route.request.url.startswith(root) else route.abort()
        )  # offline
        page.goto(f"{root}/docs")
        page.wait_for_function("document.querySelectorAll('.opblock').length === 54", timeout=60_000)
        assert any("/search/movie" in t for t in page.locator(".opblock-summary-path").all_text_contents())
        browser.close()


def test_spotify_docs_authenticate_by_bearer_token_not_spotify_oauth() -> None:
    app, no_docs = serving_app("spotify")
    assert no_docs is None
    from fastapi.testclient import TestClient

    with TestClient(app) as client:
        spec = client.get("/openapi.json").json()
        assert spec["servers"][0]["url"] == "/v1"
        assert all(
            op.get("security", spec["security"]) == spec["security"]
            for item in spec["paths"].values()
            for op in item.values()
            if isinstance(op, dict)
        )
        assert client.get("/docs").status_code == 200
        assert client.get("/v1/me", headers=AUTH).status_code == 200
    assert "/v1" in banner("spotify", "http://127.0.0.1:1", None).splitlines()[0]


def test_the_web_sandbox_says_it_has_no_api_docs() -> None:
    _, no_docs = serving_app("web")
    assert no_docs == "web pages, not an API"
    assert "no authentication" in banner("web", "http://127.0.0.1:1", no_docs)
