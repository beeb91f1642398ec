"""ShortcutsBench report: the paper's per-level table and heat maps, from run folders.

Reads each run's ``scores.jsonl`` (written with ``summary.json``), so a report never needs a
model. The table gives every metric per difficulty level with its denominator (parameter metrics
are conditional on a right API, so rates alone mislead); the PNG has one heat map per metric,
runs by levels, like the paper's figures.

    python -m restgraph.evals.reports.shortcuts runs/a runs/b --out report/
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from restgraph.evals.scorers.shortcuts import METRICS, level_counts, position_counts
from restgraph.evals.stats import wilson
from restgraph.tools.shortcuts.protocol import LEVELS

COLUMNS = [label for label, _, _ in LEVELS] + ["Overall"]
TITLES = {
    "api_selection_accuracy": "API selection",
    "static_param_accuracy": "Static parameter fill",
    "prev_output_param_accuracy": "Previous-output fill",
    "ask_input_accuracy": "Ask for input",
}


def load_scores(run_dir: str | Path) -> tuple[str, list[dict[str, Any]]]:
    """A run's label (model, or agent for model-free runs) and its per-episode scores."""
    run_dir = Path(run_dir)
    scores_path, summary_path = run_dir / "scores.jsonl", run_dir / "summary.json"
    if not scores_path.is_file() or not summary_path.is_file():
        raise FileNotFoundError(
            f"{run_dir} has no scores.jsonl/summary.json; run `restgraph score {run_dir}` first"
        )
    summary = json.loads(summary_path.read_text())
    if summary.get("benchmark") != "shortcuts":
        raise ValueError(f"{run_dir} is a {summary.get('benchmark')!r} run, not shortcuts")
    scores = [
        json.loads(line) for line in scores_path.read_text(encoding="utf-8").splitlines() if line.strip()
    ]
    label = (
        summary["model"]
        if summary.get("model") not in (None, "none")
        else f"{summary['agent']} ({run_dir.name})"
    )
    return label, scores


def load_run(run_dir: str | Path) -> tuple[str, dict[str, dict[str, tuple[int, int]]]]:
    """A run's label and its per-level counts."""
    label, scores = load_scores(run_dir)
    return label, level_counts(scores)


def position_table(label: str, scores: list[dict[str, Any]], max_position: int = 30) -> str:
    """API selection by scored-action position within levels (1,5], (5,15], (15,30] (paper, §3.1)."""
    counts = position_counts(scores)
    width = min(max_position, max((max(per, default=0) for per in counts.values()), default=0))
    lines = [
        f"### API selection by action position: {label}",
        "",
        "| level | " + " | ".join(str(k) for k in range(1, width + 1)) + " |",
        "|---" * (width + 1) + "|",
    ]
    for level, per in counts.items():
        lines.append(f"| {level} | " + " | ".join(_cell(per.get(k)) for k in range(1, width + 1)) + " |")
    return "\n".join(lines) + "\n"


def _cell(counts: tuple[int, int] | None) -> str:
    if not counts or not counts[1]:
        return "–"
    correct, n = counts
    lo, hi = wilson(correct, n)
    return f"{100 * correct / n:.2f} [{100 * lo:.1f}, {100 * hi:.1f}] ({correct}/{n})"


def measured(runs: list[tuple[str, dict[str, dict[str, tuple[int, int]]]]]) -> list[str]:
    """The metrics with something counted in at least one run. A log replay has no essential-parameter
    data (so no static-parameter fill) and a log without ask-for-input actions counts none: a panel of
    blanks looked like a result of zero."""
    return [m for m in METRICS if any(n for _, counts in runs for _, n in counts[m].values())]


def level_table(runs: list[tuple[str, dict[str, dict[str, tuple[int, int]]]]]) -> str:
    """Markdown: one section per metric, one row per run, columns = levels + overall."""
    parts = []
    for metric in METRICS:
        if metric not in measured(runs):
            parts.append(f"### {TITLES[metric]}\n\nnothing counted in these runs (n = 0), so no table.")
            continue
        lines = [
            f"### {TITLES[metric]} (%, [95% Wilson interval], right/counted)",
            "",
            "| run | " + " | ".join(COLUMNS) + " |",
            "|---" * (len(COLUMNS) + 1) + "|",
        ]
        for label, counts in runs:
            lines.append(
                f"| {label} | " + " | ".join(_cell(counts[metric].get(col)) for col in COLUMNS) + " |"
            )
        parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"


def heatmap(runs: list[tuple[str, dict[str, dict[str, tuple[int, int]]]]], path: str | Path) -> Path:
    """One heat map per measured metric (runs x levels, percentages in the cells; blank = no data at
    that level); metrics nothing was counted for are named in the title instead of drawn empty."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    shown = measured(runs) or METRICS[:1]
    fig, axes = plt.subplots(1, len(shown), figsize=(4.2 * len(shown), 0.55 * len(runs) + 2.2), squeeze=False)
    missing = [TITLES[m] for m in METRICS if m not in shown]
    if missing:
        fig.suptitle(f"not shown, nothing counted in these runs: {', '.join(missing)}", fontsize=9)
    for ax, metric in zip(axes[0], shown, strict=True):
        grid = np.full((len(runs), len(COLUMNS)), np.nan)
        for i, (_, counts) in enumerate(runs):
            for j, col in enumerate(COLUMNS):
                correct, n = counts[metric].get(col, (0, 0))
                if n:
                    grid[i, j] = 100 * correct / n
        ax.imshow(np.ma.masked_invalid(grid), cmap="YlGnBu", vmin=0, vmax=100, aspect="auto")
        for (i, j), value in np.ndenumerate(grid):
            if not np.isnan(value):
                ax.text(
                    j,
                    i,
                    f"{value:.1f}",
                    ha="center",
                    va="center",
                    fontsize=8,
                    color="white" if value > 60 else "black",
                )
        ax.set_xticks(range(len(COLUMNS)), COLUMNS, fontsize=8)
        ax.set_yticks(
            range(len(runs)),
            [label for label, _ in runs] if metric == shown[0] else [""] * len(runs),
            fontsize=8,
        )
        ax.set_title(TITLES[metric], fontsize=10)
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def write_report(run_dirs: list[str | Path], out_dir: str | Path) -> dict[str, Any]:
    loaded = [load_scores(d) for d in run_dirs]
    runs = [(label, level_counts(scores)) for label, scores in loaded]
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    table = out_dir / "shortcuts_levels.md"
    positions = "\n".join(position_table(label, scores) for label, scores in loaded)
    table.write_text(level_table(runs) + "\n" + positions, encoding="utf-8")
    return {"table": table, "heatmap": heatmap(runs, out_dir / "shortcuts_heatmap.png")}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_dirs", nargs="+", type=Path)
    parser.add_argument(
        "--out", type=Path, default=None, help="folder for the table and heat map; none: print only"
    )
    args = parser.parse_args(argv)
    from restgraph.evals.termtable import print_markdown, say, table_console

    console = table_console()
    if args.out is None:  # files only where --out says
        loaded = [load_scores(d) for d in args.run_dirs]
        print_markdown(console, level_table([(label, level_counts(scores)) for label, scores in loaded]))
        return
    paths = write_report(args.run_dirs, args.out)
    print_markdown(console, paths["table"].read_text(encoding="utf-8"))
    say(console, f"heat map: {paths['heatmap']}")


if __name__ == "__main__":
    main()
