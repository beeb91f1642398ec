"""AssistantBench in the paper's Table 1 layout: one row per system (type, system, accuracy,
answer rate, precision, exact match), each with n and a 95% interval, beside the paper's
GPT-4-Turbo figures (``restgraph.evals.reports.assistantbench_paper``, cited).

Built on the run frames (``restgraph.evals.results``): every episode is re-scored from its trace with the
options it was run with, so ``normalize_answers`` runs are scored as such and are set apart by
their setup column (``answers=normalized``), never pooled with raw-answer runs. Runs of the same
(benchmark, split, agent, model, setup) are pooled. Intervals: accuracy and precision are means
of partial-credit scores (percentile bootstrap, ``restgraph.evals.stats``); answer rate and exact match are
proportions (Wilson). A split without gold answers (the hidden test split) reports
"gold unavailable" for accuracy, precision and EM, and its answer rate.

    restgraph report runs/spa runs/spa-cb runs/cb-1s          # --layout auto picks this
    python -m restgraph.evals.reports.assistantbench runs/* --out report/
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from restgraph.evals.reports.assistantbench_paper import CITATION, SYSTEMS, TABLES, system_of, table_for
from restgraph.evals.reports.md import markdown_table
from restgraph.evals.results import load_run, run_config
from restgraph.evals.stats import bootstrap_mean, wilson

BENCHMARKS = ("assistantbench", "assistantbench-local")
METRICS = ("accuracy", "answer_rate", "precision", "exact_match")
HEADERS = {"accuracy": "Acc.", "answer_rate": "Ans. %", "precision": "Prec.", "exact_match": "EM"}
NO_GOLD = "gold unavailable"


@dataclass
class Cell:
    """One metric of one row: value and 95% interval as fractions, over ``n`` episodes."""

    value: float
    low: float
    high: float
    n: int

    def text(self) -> str:
        return f"{100 * self.value:.1f} [{100 * self.low:.1f}, {100 * self.high:.1f}]"


@dataclass
class Row:
    benchmark: str
    split: str
    agent: str
    model: str
    setup: str
    n: int
    n_gold: int
    errors: int
    cells: dict[str, Cell]
    runs: int

    @property
    def system(self) -> str | None:
        return system_of(self.agent)


def setup_of(options: dict[str, Any]) -> str:
    """How the answers were scored: raw (published) or normalised, and the scorer's mode."""
    bench = options.get("bench_options") or {}
    parts = [
        "answers=normalized"
        if str(bench.get("normalize_answers", "")).lower() in ("1", "true")
        else "answers=raw"
    ]
    if bench.get("scorer") == "fixed":
        parts.append("scorer=fixed")
    if str(bench.get("hal_compat", "")).lower() in ("1", "true"):
        parts.append("hal_compat")
    return " ".join(parts)


def _metrics(frame: pd.DataFrame) -> tuple[dict[str, Cell], int]:
    """The four metrics over the episodes that have a gold answer (all of them but a hidden split)."""
    has_ans = _column(frame, "score_has_ans")
    graded = frame[_column(frame, "score_gold_available", True).astype(bool)]
    n = len(graded)
    cells: dict[str, Cell] = {}
    if n == 0:  # no gold: only the answer rate means something
        k = int(has_ans.sum())
        cells["answer_rate"] = Cell(k / max(len(frame), 1), *wilson(k, len(frame)), len(frame))
        return cells, 0
    score = _column(graded, "score_score")
    answered = _column(graded, "score_has_ans")
    exact = _column(graded, "score_exact_match").astype(bool)
    k_ans, k_em = int(answered.sum()), int(exact.sum())
    cells["accuracy"] = Cell(float(score.mean()), *bootstrap_mean(score.tolist()), n)
    cells["answer_rate"] = Cell(k_ans / n, *wilson(k_ans, n), n)
    scored = score[answered > 0]
    if len(scored):
        cells["precision"] = Cell(float(scored.sum() / k_ans), *bootstrap_mean(scored.tolist()), k_ans)
    cells["exact_match"] = Cell(k_em / n, *wilson(k_em, n), n)
    return cells, n


def _column(frame: pd.DataFrame, name: str, default: Any = 0.0) -> pd.Series:
    if name not in frame.columns:
        return pd.Series(
            [default] * len(frame), index=frame.index, dtype=object if isinstance(default, bool) else float
        )
    values = frame[name]
    return values.fillna(default).astype(bool if isinstance(default, bool) else float)


def load_rows(run_dirs: list[Path]) -> list[Row]:
    """One row per (benchmark, split, agent, model, setup); several runs of one are pooled."""
    groups: dict[tuple[str, str, str, str, str], list[tuple[pd.DataFrame, Path]]] = {}
    for run_dir in run_dirs:
        options = run_config(run_dir).get("options") or {}
        episodes = load_run(run_dir).episodes
        if episodes.empty or str(episodes["benchmark"].iloc[0]) not in BENCHMARKS:
            continue
        bench = str(episodes["benchmark"].iloc[0])
        split = str(
            (options.get("bench_options") or {}).get(
                "split", "validation" if bench == "assistantbench" else "fixture"
            )
        )
        key = (
            bench,
            split,
            str(episodes["agent"].iloc[0]),
            str(episodes["model"].iloc[0]),
            setup_of(options),
        )
        groups.setdefault(key, []).append((episodes, Path(run_dir)))
    rows = []
    for (bench, split, agent, model, setup), parts in groups.items():
        frame = pd.concat([p for p, _ in parts], ignore_index=True)
        cells, n_gold = _metrics(frame)
        errors = int(frame["status"].astype(str).str.startswith("error").sum())
        rows.append(Row(bench, split, agent, model, setup, len(frame), n_gold, errors, cells, len(parts)))
    order = {name: i for i, (_, name) in enumerate(SYSTEMS)}
    return sorted(
        rows,
        key=lambda r: (
            r.benchmark,
            r.split,
            order.get(r.system or "", len(order)),
            r.agent,
            r.model,
            r.setup,
        ),
    )


def table(rows: list[Row]) -> tuple[list[str], list[list[str]]]:
    """The paper's layout: Type, Model (system), our four metrics with n, the paper's four."""
    header = [
        "Type",
        "System",
        "agent (model)",
        "setup",
        "n (err)",
        *(HEADERS[m] for m in METRICS),
        "paper",
        *(f"paper {HEADERS[m]}" for m in METRICS),
    ]
    body = []
    types = dict((name, kind) for kind, name in SYSTEMS)
    seen: set[str] = set()
    for row in rows:
        system = row.system
        which = table_for(row.benchmark, row.split)
        paper = TABLES[which].get(system) if system else None
        seen.add(system or "")
        cells = [
            types.get(system or "", "Other (not in the paper)"),
            system or row.agent,
            f"{row.agent} ({row.model})",
            f"{row.benchmark}/{row.split} {row.setup}",
            f"{row.n} ({row.errors})" + ("" if row.n_gold else f", {NO_GOLD}"),
        ]
        for metric in METRICS:
            cell = row.cells.get(metric)
            cells.append(cell.text() if cell else (NO_GOLD if row.n_gold == 0 else "–"))
        cells.append(which if paper else "")
        cells += [f"{getattr(paper, m):.1f}" if paper else "" for m in METRICS]
        body.append(cells)
    for kind, name in SYSTEMS:  # the paper's systems no run implements yet: its numbers alone
        if name not in seen:
            paper = TABLES["Table 1"][name]
            body.append(
                [
                    kind,
                    name,
                    "(not run)",
                    "",
                    "",
                    "",
                    "",
                    "",
                    "",
                    "Table 1",
                    *(f"{getattr(paper, m):.1f}" for m in METRICS),
                ]
            )
    return header, body


def markdown(header: list[str], body: list[list[str]]) -> str:
    return markdown_table(header, body) + "\n" + footnote() + "\n"


def frame(rows: list[Row]) -> pd.DataFrame:
    """The rows as numbers (fractions and interval bounds, the paper's percentages), for CSV and notebooks."""
    records = []
    for row in rows:
        which = table_for(row.benchmark, row.split)
        paper = TABLES[which].get(row.system or "")
        rec: dict[str, Any] = {
            "benchmark": row.benchmark,
            "split": row.split,
            "agent": row.agent,
            "model": row.model,
            "setup": row.setup,
            "system": row.system,
            "n": row.n,
            "n_gold": row.n_gold,
            "errors": row.errors,
            "runs": row.runs,
        }
        for m in METRICS:
            cell = row.cells.get(m)
            rec |= {
                m: cell.value if cell else None,
                f"{m}_ci95_low": cell.low if cell else None,
                f"{m}_ci95_high": cell.high if cell else None,
                f"{m}_n": cell.n if cell else None,
                f"paper_{m}": getattr(paper, m) if paper else None,
            }
        rec["paper_table"] = which if paper else None
        records.append(rec)
    return pd.DataFrame.from_records(records).convert_dtypes()


def footnote() -> str:
    return (
        f"Paper: {CITATION}; Table 1 = test set (181 tasks), Table 8 = dev set (33 tasks), GPT-4-Turbo, percentages. "
        "Ours: percentages with 95% intervals (accuracy, precision: bootstrap; answer rate, EM: Wilson) over n episodes "
        "(precision over the answered ones). assistantbench-local is the offline fixture, not the paper's tasks: "
        "compare systems with each other, and the paper's numbers for their order only."
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run_dirs", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, default=None, help="folder for assistantbench_table1.md / .csv")
    args = parser.parse_args(argv)
    rows = load_rows(args.run_dirs)
    if not rows:
        raise SystemExit("no AssistantBench runs among the given folders")
    header, body = table(rows)
    from restgraph.evals.termtable import View, print_fitted, table_console

    title = "AssistantBench (the paper's Table 1 layout)"
    print_fitted(
        table_console(), [[View(title, header, body, notes=[footnote()], right=set(range(2, len(header))))]]
    )
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "assistantbench_table1.md").write_text(markdown(header, body))
        (args.out / "assistantbench_table1.csv").write_text(frame(rows).to_csv(index=False))
        print(f"wrote {args.out}/assistantbench_table1.md and assistantbench_table1.csv")


if __name__ == "__main__":
    main()
