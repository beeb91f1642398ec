"""Table 4 as a chart: Success and Correct Path per scenario, one bar per method and row of ours,
the paper's bars beside (hatched), 95% intervals as error bars, n over every bar.

Why these choices: a bar without its n and interval cannot tell 0% of 3 episodes from 0% of 100,
nor from a scenario that was not run, so every bar is labelled and panels exist only for the
scenarios that were run. Sized for a 1600 px wide page (16 x 9 inches at 100 dpi).
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

from restgraph.evals.reports.table4_paper import PAPER_JUDGED, SCENARIOS

PANEL_METRICS = (("success_rate", "Success %"), ("correct_path_rate", "Correct Path %"))
#: ours: one colour per Source label; the paper: greys, hatched
OURS_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b")
PAPER_COLOURS = ("#bdbdbd", "#8f8f8f", "#6b6b6b", "#4a4a4a")


def scenarios_of(rows: list[Any]) -> list[str]:
    """The scenarios our rows (``table4.Row``) ran, in the paper's order: no column or panel for one not run."""
    return [s for s in SCENARIOS.values() if any(s in r.cells for r in rows if r.source == "ours")]


def bar_chart(rows: list[Any], path: Path) -> Path:
    """Write the chart (``rows``: ``table4.Row``s, ours and the paper's) to ``path``."""
    fig = figure(rows)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100, pil_kwargs={"compress_level": 1})  # a third of the time of level 6
    return path


def figure(rows: list[Any]) -> Any:
    """The chart as a matplotlib figure: a panel per scenario run and metric, never an empty one."""
    # a bare Figure, not pyplot: no GUI backend machinery, nothing to close (saved through Agg)
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch

    scenarios = scenarios_of(rows)
    methods = list(dict.fromkeys(r.method for r in rows if r.source == "ours"))
    labels = list(dict.fromkeys(r.label or r.source for r in rows))
    ours_labels = [lab for lab in labels if lab.startswith("ours")]
    paper_labels = [lab for lab in labels if not lab.startswith("ours")]
    colour = {lab: OURS_COLOURS[i % len(OURS_COLOURS)] for i, lab in enumerate(ours_labels)}
    colour.update({lab: PAPER_COLOURS[i % len(PAPER_COLOURS)] for i, lab in enumerate(paper_labels)})

    fig = Figure(figsize=(16, 9), dpi=100)
    axes = fig.subplots(len(PANEL_METRICS), max(1, len(scenarios)), squeeze=False, sharey=True)
    for col, scenario in enumerate(scenarios):
        for row_i, (metric, name) in enumerate(PANEL_METRICS):
            ax = axes[row_i][col]
            for x, method in enumerate(methods):
                bars = [r for r in rows if r.method == method and scenario in r.cells]
                width = 0.84 / max(1, len(bars))
                for j, r in enumerate(bars):
                    _bar(ax, x - 0.42 + width * (j + 0.5), width, r, r.cells[scenario], metric, colour)
            ax.set_title(f"{scenario}: {name}", fontsize=13)
            ax.set_xticks(range(len(methods)), [textwrap.fill(m, 12) for m in methods], fontsize=10)
            ax.set_ylim(0, 115)
            ax.set_xlim(-0.6, len(methods) - 0.4)
            ax.grid(axis="y", alpha=0.3)
            if col == 0:
                ax.set_ylabel("% of episodes", fontsize=11)

    def models(lab: str) -> str:
        return ", ".join(dict.fromkeys(r.model for r in rows if (r.label or r.source) == lab))

    handles = [Patch(facecolor=colour[lab], label=f"{lab}: {models(lab)}, automatic") for lab in ours_labels]
    handles += [
        Patch(facecolor=colour[lab], hatch="//", label=f"{lab}: {models(lab)}, {PAPER_JUDGED}")
        for lab in paper_labels
    ]
    fig.legend(handles=handles, loc="lower center", ncol=min(4, len(handles)), fontsize=11, frameon=False)
    fig.suptitle(
        "RestBench, RestGPT's Table 4: ours (automatic) beside the paper's (hand-judged); "
        "bars: 95% interval, n over each bar",
        fontsize=13,
    )
    # fixed margins, not tight_layout: it draws the figure once more only to measure it
    fig.subplots_adjust(left=0.05, right=0.99, top=0.9, bottom=0.14, hspace=0.42, wspace=0.05)
    return fig


def _bar(
    ax: Any, x: float, width: float, row: Any, cell: dict[str, Any], metric: str, colour: dict[str, str]
) -> None:
    value = cell.get(metric)
    if value is None:
        return
    pct = 100 * value
    ci = ((cell.get("stats") or {}).get(metric) or {}).get("ci95")
    yerr = None if not ci else [[pct - 100 * ci[0]], [100 * ci[1] - pct]]
    paper = row.source == "paper"
    ax.bar(
        x,
        pct,
        width * 0.95,
        color=colour[row.label or row.source],
        hatch="//" if paper else None,
        edgecolor="#333333" if paper else None,
        yerr=yerr,
        capsize=3,
        error_kw={"elinewidth": 1, "ecolor": "#222222"},
    )
    top = 100 * ci[1] if ci else pct
    ax.text(x, top + 1.5, f"{pct:.0f}\nn={cell.get('n')}", ha="center", va="bottom", fontsize=8)
