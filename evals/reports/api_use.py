"""Synthetic API Use dial report: accuracy against each dial, per run, as a table and a PNG.

Reads each run's ``scores.jsonl`` (one row per case, with its pass rate and dial values) and
``config.json`` (for the mode and fix flags, which the spec says must always be reported). Dials:
distractor count and target position (plus their (k, i) grid), noise pair and style pair, chain
length, number of arguments and of fixed arguments, and the few-shot variant.

    python -m restgraph.evals.reports.api_use runs/a runs/b --out report/
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from restgraph.evals.stats import describe, fmt_interval

#: dial -> axis label; numeric dials are drawn as lines, the others as grouped bars
DIAL_LABELS = {
    "distractors": "number of distractors",
    "position": "target position",
    "chain_length": "chain length",
    "n_args": "number of API arguments",
    "fixed_args": "number of fixed arguments",
    "n_shots": "number of shots",
    "shots": "shot variant",
    "noise": "noise (function/description)",
    "style": "style (name/description)",
}


#: dial pairs drawn as heat maps (for the first runs having them): the spec's (k, i) and noise x style breakdowns
GRIDS = (("distractors", "position"), ("noise", "style"))


class Run:
    """One run folder: label, mode and per-case score rows."""

    def __init__(self, run_dir: str | Path):
        run_dir = Path(run_dir)
        scores_path, summary_path = run_dir / "scores.jsonl", run_dir / "summary.json"
        if not scores_path.is_file() or not summary_path.is_file():
            raise FileNotFoundError(
                f"{run_dir} has no scores.jsonl/summary.json; run `restgraph score {run_dir}` first"
            )
        summary = json.loads(summary_path.read_text())
        if summary.get("benchmark") != "api-use":
            raise ValueError(f"{run_dir} is a {summary.get('benchmark')!r} run, not api-use")
        config_path = run_dir / "config.json"
        bench_options = (
            json.loads(config_path.read_text()).get("options", {}).get("bench_options", {})
            if config_path.is_file()
            else {}
        )
        self.mode = (
            "faithful"
            if summary.get("metrics", {}).get("faithful", 1.0) == 1.0
            else f"fixed ({bench_options.get('fixed')})"
        )
        self.label = f"{summary.get('model')} [{self.mode}]"
        self.rows = [
            json.loads(line) for line in scores_path.read_text(encoding="utf-8").splitlines() if line.strip()
        ]


def split_by_suite(runs: list[Run]) -> list[Run]:
    """A run over several suites (``--suite all``) becomes one series per suite, because the same
    dial (e.g. fixed arguments) means different problems in different files."""
    out: list[Run] = []
    for run in runs:
        suites: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for row in run.rows:
            suites[
                str(row.get("task_id", "")).split("/")[1] if row.get("task_id", "").count("/") >= 2 else ""
            ].append(row)
        if len(suites) <= 1:
            out.append(run)
            continue
        for suite, rows in suites.items():
            part = object.__new__(Run)
            part.mode, part.label, part.rows = run.mode, f"{run.label} {suite}", rows
            out.append(part)
    return out


def by_dial(rows: list[dict[str, Any]], dial: str) -> dict[Any, tuple[float, int]]:
    """dial value -> (mean pass rate, number of cases), values in natural order."""
    groups = _dial_groups(rows, dial)
    return {
        v: (sum(groups[v]) / len(groups[v]), len(groups[v]))
        for v in sorted(groups, key=lambda x: (isinstance(x, str), x))
    }


def _dial_groups(rows: list[dict[str, Any]], dial: str) -> dict[Any, list[float]]:
    groups: dict[Any, list[float]] = defaultdict(list)
    for row in rows:
        if dial in row:
            groups[row[dial]].append(float(row.get("pass_rate", 0.0)))
    return groups


def grid(rows: list[dict[str, Any]], row_dial: str, col_dial: str) -> dict[tuple[Any, Any], float]:
    cells: dict[tuple[Any, Any], list[float]] = defaultdict(list)
    for row in rows:
        if row_dial in row and col_dial in row:
            cells[(row[row_dial], row[col_dial])].append(float(row.get("pass_rate", 0.0)))
    return {k: sum(v) / len(v) for k, v in cells.items()}


def table(runs: list[Run]) -> str:
    """Markdown: one section per dial, one column per run, cells ``rate [95% bootstrap interval] (n)``."""
    out = []
    for dial, label in DIAL_LABELS.items():
        per_run = [by_dial(run.rows, dial) for run in runs]
        groups = [_dial_groups(run.rows, dial) for run in runs]
        values = sorted({v for d in per_run for v in d}, key=lambda x: (isinstance(x, str), x))
        if not values:
            continue
        out.append(
            f"### pass rate by {label}\n\n| {dial} | "
            + " | ".join(r.label for r in runs)
            + " |\n|---|"
            + "---|" * len(runs)
        )
        for value in values:
            cells = [
                f"{fmt_interval(describe(g[value]), d[value][0])} ({d[value][1]})" if value in d else ""
                for d, g in zip(per_run, groups, strict=True)
            ]
            out.append(f"| {value} | " + " | ".join(cells) + " |")
        out.append("")
    return "\n".join(out)


def plot(runs: list[Run], path: Path) -> list[str]:
    """One panel per dial present in any run, plus the ``GRIDS`` heat maps; returns the dials drawn."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    dials = [d for d in DIAL_LABELS if any(by_dial(r.rows, d) for r in runs)]
    grids = [(a, b, run) for a, b in GRIDS for run in runs if grid(run.rows, a, b)][:4]
    panels = len(dials) + len(grids)
    if panels == 0:
        raise ValueError("no dial values in these runs' scores.jsonl")
    cols = min(3, panels)
    rows_n = (panels + cols - 1) // cols
    fig, axes = plt.subplots(rows_n, cols, figsize=(5.5 * cols, 4.2 * rows_n), squeeze=False)
    flat = list(axes.flat)
    for ax, dial in zip(flat, dials, strict=False):
        numeric = all(isinstance(v, int) for r in runs for v in by_dial(r.rows, dial))
        for i, run in enumerate(runs):
            data = by_dial(run.rows, dial)
            if numeric:
                ax.plot(list(data), [m for m, _ in data.values()], marker="o", label=run.label)
                ax.set_xticks(sorted({v for r in runs for v in by_dial(r.rows, dial)}))
            else:
                xs = list(range(len(data)))
                width = 0.8 / len(runs)
                ax.bar(
                    [x + i * width for x in xs], [m for m, _ in data.values()], width=width, label=run.label
                )
                ax.set_xticks(
                    [x + 0.4 - width / 2 for x in xs],
                    [str(v) for v in data],
                    rotation=30,
                    ha="right",
                    fontsize=7,
                )
        ax.set_xlabel(DIAL_LABELS[dial])
        ax.set_ylabel("pass rate")
        ax.set_ylim(-0.05, 1.05)
    for ax, (row_dial, col_dial, grid_run) in zip(flat[len(dials) :], grids, strict=False):
        cells = grid(grid_run.rows, row_dial, col_dial)
        row_values = sorted({r for r, _ in cells}, key=lambda x: (isinstance(x, str), x))
        col_values = sorted({c for _, c in cells}, key=lambda x: (isinstance(x, str), x))
        matrix = [[cells.get((r, c), float("nan")) for c in col_values] for r in row_values]
        image = ax.imshow(matrix, vmin=0, vmax=1, cmap="viridis", origin="lower", aspect="auto")
        ax.set_xticks(
            range(len(col_values)), [str(v) for v in col_values], rotation=30, ha="right", fontsize=7
        )
        ax.set_yticks(range(len(row_values)), [str(v) for v in row_values], fontsize=7)
        ax.set_xlabel(DIAL_LABELS[col_dial])
        ax.set_ylabel(DIAL_LABELS[row_dial])
        ax.set_title(f"pass rate: {grid_run.label}", fontsize=8)
        fig.colorbar(image, ax=ax)
    for ax in flat[panels:]:
        ax.axis("off")
    flat[0].legend(fontsize=7)
    fig.suptitle("Synthetic API Use: pass rate by dial")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return dials


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path, help="api-use run folders")
    parser.add_argument(
        "--out", type=Path, default=None, help="folder for dials.md and dials.png; none: print only"
    )
    args = parser.parse_args(argv)
    runs = split_by_suite([Run(d) for d in args.runs])
    text = table(runs)
    from restgraph.evals.termtable import print_markdown, say, table_console

    console = table_console()
    if args.out is None:  # files only where --out says
        print_markdown(console, text)
        return
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "dials.md").write_text(text + "\n")
    plot(runs, args.out / "dials.png")
    print_markdown(console, text)
    say(console, f"wrote {args.out / 'dials.md'} and {args.out / 'dials.png'}")


if __name__ == "__main__":
    main()
