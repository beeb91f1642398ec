"""Table 4 as a researcher reads it after ``restgraph sweep table4``: one row per method with TMDB and
Spotify side by side, the paper's text-davinci-003 rows beside them, ``restgraph report STUDY_DIR``,
the self-contained HTML page and the chart; every table at 80, 100 and 120 columns keeps names and
numbers whole and no line is wider than the terminal."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rich.cells import cell_len

from restgraph.evals.reports.table4_paper import METHODS
from tests.foundation.conftest import cli

WIDTHS = (80, 100, 120)
PAPER_DAVINCI = {  # the paper's Success and Correct Path (text-davinci-003), TMDB then Spotify
    "Offline": ("29.0", "33.0", "14.5", "36.4"),
    "DEPS": ("38.0", "43.0", "19.3", "43.8"),
    "ReAct": ("44.0", "57.0", "54.5", "49.1"),
    "Reflexion": ("52.0", "59.0", "59.6", "61.4"),
    "RestGPT": ("75.0", "79.0", "72.7", "74.5"),
    "RestGPT w/o Planner": ("44.0", "57.0", "54.5", "49.1"),
    "RestGPT w/o Parser": ("46.0", "53.0", "47.3", "52.7"),
}


def assert_fits(text: str, width: int, names: list[str]) -> None:
    """No line wider than ``width``; every name whole on some line (never folded across lines)."""
    lines = text.splitlines()
    wide = [line for line in lines if cell_len(line) > width]
    assert not wide, f"{len(wide)} lines wider than {width}: {wide[:2]}"
    for name in names:
        pattern = re.compile(rf"(?<![\w/-]){re.escape(name)}(?![\w/-])")
        assert any(pattern.search(line) for line in lines), f"{name!r} not whole in:\n{text}"


@pytest.fixture(scope="module")
def study(tmp_path_factory: pytest.TempPathFactory, data_dir: Path) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("study") / "table4"
    mp = pytest.MonkeyPatch()
    mp.setenv("COLUMNS", "80")
    try:
        result = cli(
            "sweep", "table4", "--model", "scripted:restgpt-oracle", "--limit", "3", "--out", out, "--quiet"
        )
    finally:
        mp.undo()
    assert result.exit_code == 0, result
    return out, result.stdout


def md_rows(path: Path) -> list[list[str]]:
    lines = [line for line in path.read_text().splitlines() if line.startswith("| ")]
    return [[c.strip() for c in line.strip("|").split("|")] for line in lines]


def test_sweep_table4_writes_one_row_per_method_beside_the_papers(study: tuple[Path, str]) -> None:
    out, _ = study
    header, *body = md_rows(out / "report" / "table4.md")
    ours = [dict(zip(header, cells, strict=True)) for cells in body if cells[1] == "ours"]
    assert [r["Method"] for r in ours] == list(METHODS.values())  # exactly one row per method, in order
    for row in ours:  # both scenarios filled in the same row
        assert row["TMDB n (err)"] == "3 (0)" and row["Spotify n (err)"] == "3 (0)", row
        assert re.fullmatch(r"\d+\.\d \[\d+\.\d, \d+\.\d\]", row["TMDB Success %"]), row
        assert re.fullmatch(r"\d+\.\d \[\d+\.\d, \d+\.\d\]", row["Spotify Success %"]), row
    paper = {c[0]: dict(zip(header, c, strict=True)) for c in body if c[1] == "paper"}
    assert list(paper) == list(METHODS.values())
    for method, (ts, tc, ss, sc) in PAPER_DAVINCI.items():
        got = paper[method]
        assert got["TMDB Success %"].startswith(ts + " [") and got["TMDB Correct Path %"].startswith(
            tc + " ["
        )
        assert got["Spotify Success %"].startswith(ss + " [") and got["Spotify Correct Path %"].startswith(
            sc + " ["
        )
    text = (out / "report" / "table4.md").read_text()
    assert "TMDB protocol" in text and "max_tokens=256" in text and "max_tokens=700" in text
    assert "hand-judged" in text and "text-davinci-003" in text
    csv = (out / "report" / "table4.csv").read_text().splitlines()
    assert csv[0].startswith("method,agent,source,model,judged,scenario,metric,value,ci95_low,ci95_high,n")
    assert any(
        line.startswith("RestGPT,restgpt,paper,text-davinci-003,hand-judged,TMDB,success_rate,0.75,")
        for line in csv
    )


def test_the_html_report_is_self_contained(study: tuple[Path, str]) -> None:
    out, _ = study
    page = (out / "report" / "index.html").read_text()
    assert "data:image/png;base64," in page and "fetch(" not in page and "<script" not in page
    assert "How each number was computed" in page and "hand-judged" in page
    assert page.count('class="ours"') == 7 and page.count('class="paper"') == 7
    assert page.count("restbench-tmdb--restgpt--scripted-restgpt-oracle--s0/summary.json") == 1
    assert "--export" in page  # no viewer export yet: the page says how to make one


def test_the_chart_has_a_panel_per_run_scenario_and_metric(study: tuple[Path, str]) -> None:
    from matplotlib.container import BarContainer
    from PIL import Image

    from restgraph.evals.reports.table4 import load_rows, with_paper
    from restgraph.evals.reports.table4_chart import figure

    out, _ = study
    with Image.open(out / "report" / "table4.png") as png:
        assert png.size == (1600, 900)
    tmdb = sorted(out.glob("restbench-tmdb--*"))
    for runs, titles in (
        (
            sorted(out.glob("restbench-*")),
            ["TMDB: Success %", "Spotify: Success %", "TMDB: Correct Path %", "Spotify: Correct Path %"],
        ),
        (tmdb, ["TMDB: Success %", "TMDB: Correct Path %"]),  # Spotify not run: no Spotify panel
    ):
        fig = figure(with_paper(load_rows(runs)))
        assert [ax.get_title() for ax in fig.axes] == titles
        for ax in fig.axes:
            labels = [t.get_text() for t in ax.texts]
            assert (
                sum("n=3" in t for t in labels) == 7
                and sum(re.search(r"n=(100|57)$", t) is not None for t in labels) == 7
            )
            bars = [c for c in ax.containers if isinstance(c, BarContainer)]
            assert len(bars) == 14 and all(c.errorbar is not None for c in bars)  # each with its interval


def test_report_of_a_study_folder(
    study: tuple[Path, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out, _ = study
    names = [*METHODS.values(), "75.0", "72.7", "ours", "paper"]
    for width in WIDTHS:
        monkeypatch.setenv("COLUMNS", str(width))
        result = cli("report", out, "--out", tmp_path / str(width))
        assert result.exit_code == 0, result
        assert_fits(result.stdout, width, names)
        assert "TMDB" in result.stdout and "Spotify" in result.stdout
        assert (tmp_path / str(width) / "table4.md").read_text() == (out / "report" / "table4.md").read_text()
    assert "restgraph score" not in result.stdout + result.stderr


def test_report_takes_runs_globs_and_skips_what_is_not_a_run(
    study: tuple[Path, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out, _ = study
    monkeypatch.setenv("COLUMNS", "100")
    (tmp_path / "notes").mkdir()
    result = cli("report", str(out / "restbench-tmdb--*"), tmp_path / "notes", "--out", tmp_path / "r")
    assert result.exit_code == 0, result
    assert result.stderr.count("skipping") == 1 and "notes: not a run folder" in result.stderr
    header, *body = md_rows(tmp_path / "r" / "table4.md")
    assert not any(h.startswith("Spotify") for h in header)  # no Spotify run: no Spotify columns
    assert len([b for b in body if b[1] == "ours"]) == 7


def test_sweep_table_fits_80_columns(study: tuple[Path, str]) -> None:
    _, stdout = study
    assert_fits(stdout, 80, [*METHODS.values(), "75.0", "79.0", "72.7", "74.5", "-B collateral=fail"])


@pytest.mark.browser
def test_the_html_report_opens_from_disk_in_chromium_with_links_to_the_viewer(
    study: tuple[Path, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from playwright.sync_api import sync_playwright

    from tests.conftest import CHROMIUM

    out, _ = study
    cell = out / "restbench-tmdb--restgpt--scripted-restgpt-oracle--s0"
    assert cli("view", cell, "--export", tmp_path / "viewer").exit_code == 0
    viewer = cell / "viewer"
    if not viewer.exists():
        viewer.symlink_to(tmp_path / "viewer", target_is_directory=True)  # where the report looks
    monkeypatch.setenv("COLUMNS", "120")
    assert cli("report", out, "--out", tmp_path / "report").exit_code == 0
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1600, "height": 1000})
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto((tmp_path / "report" / "index.html").as_uri())
        table = page.locator("table").first.inner_text()
        assert "RestGPT w/o Planner" in table and "75.0 [" in table and "72.7 [" in table
        assert page.locator("img").first.evaluate("img => img.naturalWidth") == 1600
        link = page.locator("a", has_text="viewer")
        assert link.count() == 1
        link.click()
        page.wait_for_selector("#episodes tbody tr.episode")
        assert "tmdb/1" in page.locator("#episodes").inner_text()
        assert errors == []
        browser.close()
