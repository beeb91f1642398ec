"""A report as one self-contained HTML page (``index.html``) that opens from disk.

Why: a report is read by people who were not at the terminal; a page that fetches files or needs a
server shows nothing when opened as ``file://``. Everything is in the page: the table, the chart
(base64 PNG), how each number was computed, and relative links to each run's files and to its
viewer export where one exists (``restgraph view RUN --export RUN/viewer``).
"""

from __future__ import annotations

import base64
import html
import os
from pathlib import Path

#: where a run's viewer export is looked for, relative to the run folder (first found is linked)
VIEWER_EXPORTS = ("viewer/index.html", "site/index.html")

_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1b1b1b;max-width:1700px}
table{border-collapse:collapse;margin:12px 0}
th,td{border:1px solid #d0d0d0;padding:3px 8px;white-space:nowrap}
th{background:#f3f3f3}
td.num{text-align:right;font-variant-numeric:tabular-nums}
tr.paper td{color:#555;background:#fafafa;font-style:italic}
img{max-width:100%;border:1px solid #eee}
code{background:#f4f4f4;padding:0 3px}
.scroll{overflow-x:auto}
"""


def _groups(header: list[str]) -> list[tuple[str, int]]:
    """Runs of consecutive columns sharing a first word (``TMDB Success %``...): a spanning header."""
    out: list[tuple[str, int]] = []
    for name in header:
        first = name.split(" ", 1)[0] if " " in name else ""
        if out and first and out[-1][0] == first:
            out[-1] = (first, out[-1][1] + 1)
        else:
            out.append((first, 1))
    return out


def table_html(header: list[str], body: list[list[str]], source_col: int | None = 1) -> str:
    """The table with a spanning header per group of columns; rows whose Source starts with
    ``paper`` are marked as the paper's."""
    groups = _groups(header)
    top = "".join(f'<th colspan="{n}">{html.escape(g)}</th>' if n > 1 else "<th></th>" for g, n in groups)
    names: list[str] = []
    i = 0
    for _, n in groups:
        for h in header[i : i + n]:
            names.append(h.split(" ", 1)[1] if n > 1 else h)
        i += n
    rows = []
    for cells in body:
        paper = source_col is not None and cells[source_col].startswith("paper")
        tds = "".join(
            f'<td class="{"num" if j >= 2 else ""}">{html.escape(c).replace(chr(10), "<br>")}</td>'
            for j, c in enumerate(cells)
        )
        rows.append(f'<tr class="{"paper" if paper else "ours"}">{tds}</tr>')
    return (
        '<div class="scroll"><table><thead>'
        + (f"<tr>{top}</tr>" if any(n > 1 for _, n in groups) else "")
        + "<tr>"
        + "".join(f"<th>{html.escape(h)}</th>" for h in names)
        + "</tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table></div>"
    )


def runs_html(runs: list[Path], page_dir: Path) -> str:
    """One line per run: its folder, summary and config, and its viewer export if there is one."""
    items = []
    for run in dict.fromkeys(runs):
        rel = Path(os.path.relpath(run.resolve(), page_dir.resolve())).as_posix()
        links = [f'<a href="{html.escape(rel)}/summary.json">summary.json</a>']
        if (run / "config.json").is_file():
            links.append(f'<a href="{html.escape(rel)}/config.json">config.json</a>')
        viewer = next((v for v in VIEWER_EXPORTS if (run / v).is_file()), None)
        if viewer:
            links.insert(0, f'<a href="{html.escape(rel)}/{viewer}">viewer</a>')
        else:
            links.append(
                f"no viewer export (<code>restgraph view {html.escape(str(run))} --export {html.escape(str(run))}/viewer</code>)"
            )
        items.append(f"<li><code>{html.escape(run.name)}</code>: {' · '.join(links)}</li>")
    return "<ul>" + "".join(items) + "</ul>"


def write_html(
    path: Path,
    *,
    title: str,
    header: list[str],
    body: list[list[str]],
    notes: list[str],
    chart: Path | None,
    runs: list[Path],
) -> Path:
    """Write the page; nothing in it is fetched (the chart is embedded)."""
    image = ""
    if chart is not None and chart.is_file():
        data = base64.b64encode(chart.read_bytes()).decode("ascii")
        image = f'<h2>Chart</h2><img alt="{html.escape(title)} chart" src="data:image/png;base64,{data}">'
    page = (
        f"<!doctype html><html lang=en><head><meta charset=utf-8><title>{html.escape(title)}</title>"
        f"<style>{_CSS}</style></head><body><h1>{html.escape(title)}</h1>"
        + table_html(header, body)
        + "<h2>How each number was computed</h2><ul>"
        + "".join(f"<li>{html.escape(n)}</li>" for n in notes)
        + "</ul>"
        + image
        + f"<h2>Runs ({len(dict.fromkeys(runs))})</h2>"
        + runs_html(runs, path.parent)
        + "</body></html>\n"
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(page, encoding="utf-8")
    return path
