"""Comparison tables and plots over run summaries (``restgraph report``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from restgraph.evals.stats import fmt_interval


def load_summaries(run_dirs: list[Path]) -> list[dict[str, Any]]:
    summaries = []
    for run_dir in run_dirs:
        path = Path(run_dir) / "summary.json"
        if not path.is_file():
            raise FileNotFoundError(f"{path} not found; run `restgraph score {run_dir}` first")
        summary = json.loads(path.read_text())
        summary["run_dir"] = str(run_dir)
        summaries.append(summary)
    return summaries


def metric_names(summaries: list[dict[str, Any]]) -> list[str]:
    """The headline metrics; per-dial breakdowns (``pass_rate/k=3``) stay in summary.json and the
    benchmark's own report, or a comparison table would grow a column per dial value."""
    names: list[str] = []
    for summary in summaries:
        for key in summary.get("metrics", {}):
            if key not in names and "/" not in key:
                names.append(key)
    return names


LAYOUTS = ("auto", "generic", "table4", "table1", "shortcuts", "api-use")
#: AssistantBench's runs get the paper's Table 1 layout (``restgraph.evals.reports.assistantbench``)
_TABLE1 = ("assistantbench", "assistantbench-local")


def pick_layout(summaries: list[dict[str, Any]], layout: str) -> str:
    """``auto``: the benchmark's own report when every run is of that family, else the generic table."""
    if layout != "auto":
        return layout
    benches = {str(s.get("benchmark", "")) for s in summaries}
    if benches and all(b.startswith("restbench-") for b in benches):
        return "table4"
    if benches and all(b in _TABLE1 for b in benches):
        return "table1"
    if benches == {"shortcuts"}:
        return "shortcuts"
    if benches == {"api-use"}:
        return "api-use"
    return "generic"


def family(benchmark: str) -> str:
    """The report layout a benchmark's runs get under ``--layout auto``."""
    if benchmark.startswith("restbench-"):
        return "table4"
    return {"shortcuts": "shortcuts", "api-use": "api-use", **dict.fromkeys(_TABLE1, "table1")}.get(
        benchmark, "generic"
    )


def report_groups(summaries: list[dict[str, Any]]) -> list[tuple[str, str, list[dict[str, Any]]]]:
    """``(name, layout, summaries)``: one report per benchmark (RestBench's two scenarios share
    Table 4), so mixed runs never make one table with a column for every benchmark's metrics."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for summary in summaries:
        bench = str(summary.get("benchmark", ""))
        layout = family(bench)
        groups.setdefault(("restbench" if layout == "table4" else bench, layout), []).append(summary)
    return [(name, layout, group) for (name, layout), group in groups.items()]


def render_layout(layout: str, run_dirs: list[Path], out: Path | None) -> None:
    """Hand the runs to a benchmark family's report module (each writes its files into ``out``)."""
    argv = [str(d) for d in run_dirs] + (["--out", str(out)] if out is not None else [])
    if layout == "table4":
        from restgraph.evals.reports.table4 import main
    elif layout == "table1":
        from restgraph.evals.reports.assistantbench import main
    elif layout == "shortcuts":
        from restgraph.evals.reports.shortcuts import main
    elif layout == "api-use":
        from restgraph.evals.reports.api_use import main
    else:
        raise ValueError(f"unknown report layout {layout!r}; one of {', '.join(LAYOUTS)}")
    main(argv)


#: the comparison's typed columns (``frame``); each metric adds ``<m>``, ``<m>_ci95_low``, ``<m>_ci95_high`` (Float64)
RUN_TYPES: dict[str, str] = {
    "benchmark": "string",
    "agent": "string",
    "model": "string",
    "n": "Int64",
    "n_tasks": "Int64",
    "errors": "Int64",
    "input_tokens": "Int64",
    "output_tokens": "Int64",
    "model_calls": "Int64",
    "cost_usd": "Float64",
    "run_dir": "string",
}


def run_records(summaries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One record per run from its ``summary.json`` (the benchmark's own aggregates): counts,
    usage, cost, and each headline metric beside its 95% interval bounds (None where absent)."""
    metrics = metric_names(summaries)
    records = []
    for s in summaries:
        usage = s.get("usage") or {}
        rec: dict[str, Any] = {
            "benchmark": s.get("benchmark"),
            "agent": s.get("agent"),
            "model": s.get("model"),
            "n": s.get("n"),
            "n_tasks": s.get("n_tasks"),
            "errors": s.get("errors", _errors(s)),
            "input_tokens": usage.get("input_tokens", 0),
            "output_tokens": usage.get("output_tokens", 0),
            "model_calls": usage.get("model_calls", 0),
            "cost_usd": s.get("cost_usd"),
            "run_dir": s.get("run_dir"),
        }
        for m in metrics:
            ci = ((s.get("metric_stats") or {}).get(m) or {}).get("ci95") or [None, None]
            rec.update({m: (s.get("metrics") or {}).get(m), f"{m}_ci95_low": ci[0], f"{m}_ci95_high": ci[1]})
        records.append(rec)
    return records


def frame(summaries: list[dict[str, Any]]) -> Any:
    """The comparison as a typed pandas DataFrame (numbers, not formatted cells): ``--format csv``
    and ``restgraph.evals.results`` users read this; the terminal and Markdown tables format the same records
    (without importing pandas, which ``restgraph run``/``score`` would pay for on every summary)."""
    import pandas as pd

    metrics = metric_names(summaries)
    types = {
        **RUN_TYPES,
        **{f"{m}{suffix}": "Float64" for m in metrics for suffix in ("", "_ci95_low", "_ci95_high")},
    }
    return pd.DataFrame(run_records(summaries), columns=list(types)).astype(types)


def _cell(value: Any, fmt: str = "{}") -> str:
    return "" if value is None else fmt.format(value)


def rows(summaries: list[dict[str, Any]]) -> tuple[list[str], list[list[str]]]:
    """Headline metrics with their 95% interval, beside n, error count and cost: an all-error run
    must never read like a real zero."""
    metrics = metric_names(summaries)
    header = ["benchmark", "agent", "model", "n", "errors", *metrics, "tokens in/out", "cost $"]
    body = []
    for r in run_records(summaries):
        cells = [
            _cell(r["benchmark"]),
            _cell(r["agent"]),
            _cell(r["model"]),
            _cell(r["n"]),
            _cell(r["errors"]),
        ]
        missing = (
            "gold unavailable" if r.get("gold_unavailable") is not None else ""
        )  # e.g. a hidden test split: never a 0.0
        for m in metrics:
            stat = None if r[f"{m}_ci95_low"] is None else {"ci95": [r[f"{m}_ci95_low"], r[f"{m}_ci95_high"]]}
            cells.append(missing if r[m] is None else fmt_interval(stat, r[m]))
        cells += [f"{r['input_tokens']}/{r['output_tokens']}", _cell(r["cost_usd"], "{:.4f}")]
        body.append(cells)
    return header, body


def csv_text(summaries: list[dict[str, Any]]) -> str:
    """Numbers, not formatted cells: the typed frame, each metric's interval bounds in their own columns."""
    metrics = metric_names(summaries)
    columns = [
        "benchmark",
        "agent",
        "model",
        "n",
        "errors",
        *(f"{m}{s}" for m in metrics for s in ("", "_ci95_low", "_ci95_high")),
        "input_tokens",
        "output_tokens",
        "cost_usd",
        "run_dir",
    ]
    return frame(summaries)[columns].to_csv(index=False)


def _errors(summary: dict[str, Any]) -> int:
    """Summaries written before ``errors`` existed: count error statuses."""
    return sum(v for k, v in summary.get("status_counts", {}).items() if k.startswith("error"))


def table_console() -> Console:
    """The console tables print on (``restgraph.evals.termtable``): the terminal's width, or
    ``COLUMNS`` when set, or a wide page when piped."""
    from restgraph.evals.termtable import table_console as console

    return console()


#: columns the generic table drops first when the terminal is narrow (they stay in csv/json)
_SECONDARY = ("n_tasks", "tokens in/out", "cost $")


def metrics_layouts(summaries: list[dict[str, Any]], title: str | None = None) -> list[list[Any]]:
    """The generic table's layouts, richest first: every column; without tokens and cost (in
    ``--format csv/json``); then, per metric, a table of its own beside the run's names."""
    from restgraph.evals.termtable import View

    header, body = rows(summaries)
    numbers = set(range(3, len(header)))
    full = View(title, header, body, right=numbers)
    keep = [i for i, h in enumerate(header) if h not in _SECONDARY]
    slim = View(
        title,
        [header[i] for i in keep],
        [[cells[i] for i in keep] for cells in body],
        notes=["tokens in/out, cost $: restgraph report --format csv (or json)"],
        right=set(range(3, len(keep))),
    )
    names = [0, 1, 2, 3, 4]  # benchmark, agent, model, n, errors
    metrics = [i for i in range(5, len(header)) if header[i] not in _SECONDARY]

    def chunked(size: int) -> list[View]:
        """The metrics ``size`` to a table, each beside the run's names."""
        return [
            View(
                title if start == 0 else None,
                [header[j] for j in names + part],
                [[cells[j] for j in names + part] for cells in body],
                notes=slim.notes if start + size >= len(metrics) else [],
                right=set(range(3, 5 + len(part))),
            )
            for start in range(0, len(metrics), size)
            for part in [metrics[start : start + size]]
        ]

    return [[full], [slim], *(chunked(k) for k in range(len(metrics) - 1, 0, -1))]


def print_metrics(
    summaries: list[dict[str, Any]], title: str | None = None, console: Console | None = None
) -> None:
    """The generic table, in the first layout that fits the console (never a cut name)."""
    from restgraph.evals.termtable import print_fitted

    layouts = metrics_layouts(summaries, title)
    print_fitted(console or table_console(), layouts, records=layouts[0])


def metrics_table(summaries: list[dict[str, Any]], title: str | None = None) -> Table:
    """The generic table as one rich table at its natural width (for callers that lay it out)."""
    view = metrics_layouts(summaries, title)[0][0]
    return view.table()


def render(summaries: list[dict[str, Any]], fmt: str, plot: Path | None = None) -> str:
    header, body = rows(summaries)
    if fmt == "table":
        for name, _, group in report_groups(summaries):  # one table per benchmark
            print_metrics(group, title=name)
        text = ""
    elif fmt == "markdown":
        text = "| " + " | ".join(header) + " |\n|" + "---|" * len(header) + "\n"
        text += "".join("| " + " | ".join(r) + " |\n" for r in body)
    elif fmt == "csv":
        text = csv_text(summaries)
    else:
        text = json.dumps(summaries, indent=2)
    if text:
        print(text, end="" if text.endswith("\n") else "\n")
    if plot is not None:
        bar_chart(summaries, plot)
    return text


def bar_chart(summaries: list[dict[str, Any]], path: Path) -> Path:
    """One group of bars per metric, one bar per run."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    metrics = [
        m for m in metric_names(summaries) if all(0.0 <= s["metrics"].get(m, 0) <= 1.0 for s in summaries)
    ]
    fig, ax = plt.subplots(figsize=(max(6, 1.6 * len(metrics) * max(1, len(summaries)) / 2), 4))
    width = 0.8 / max(1, len(summaries))
    for i, s in enumerate(summaries):
        xs = [j + i * width for j in range(len(metrics))]
        values = [s["metrics"].get(m, 0.0) for m in metrics]
        # 95% interval as error bars where the metric has one (evals.stats)
        lo = [
            v - s.get("metric_stats", {}).get(m, {"ci95": [v, v]})["ci95"][0]
            for m, v in zip(metrics, values, strict=True)
        ]
        hi = [
            s.get("metric_stats", {}).get(m, {"ci95": [v, v]})["ci95"][1] - v
            for m, v in zip(metrics, values, strict=True)
        ]
        label = f"{s['agent']} / {s['model']} (n={s['n']}, errors={s.get('errors', _errors(s))})"
        ax.bar(xs, values, width=width, label=label, yerr=[lo, hi], capsize=3)
    ax.set_xticks([j + width * (len(summaries) - 1) / 2 for j in range(len(metrics))], metrics, rotation=15)
    ax.set_ylim(0, 1)
    ax.legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def write_generic(
    summaries: list[dict[str, Any]], out: Path | None, name: str, plot: Path | None = None
) -> None:
    """The generic table on the terminal and, with ``--out``, as ``<name>.md`` plus a chart."""
    render(summaries, "table", plot=plot)
    if out is None:
        return
    out.mkdir(parents=True, exist_ok=True)
    header, body = rows(summaries)
    text = (
        "| "
        + " | ".join(header)
        + " |\n|"
        + "---|" * len(header)
        + "\n"
        + "".join("| " + " | ".join(r) + " |\n" for r in body)
    )
    (out / f"{name}.md").write_text(text)
    bar_chart(summaries, out / f"{name}.png")
    print(f"wrote {out / f'{name}.md'} and {out / f'{name}.png'}")


def human_review_lines(summaries: list[dict[str, Any]]) -> list[str]:
    """How many episodes people reviewed (``restgraph review``) and how far the checker agrees with
    them, per run and pooled: short lines rather than a table, so nothing folds at 80 columns.
    Empty when no run has a ``reviews.jsonl``."""
    from restgraph.evals.reviews import agreement, review_agreement

    per_run = [(str(s["run_dir"]), review_agreement(s["run_dir"])) for s in summaries]
    found = [(name, stats) for name, stats in per_run if stats is not None]
    if not found:
        return []
    if len(found) > 1:
        pooled: list[tuple[bool, bool]] = []
        for _, stats in found:
            pooled += [(True, True)] * stats["both_pass"] + [(False, False)] * stats["both_fail"]
            pooled += [(True, False)] * stats["checker_pass_human_fail"]
            pooled += [(False, True)] * stats["checker_fail_human_pass"]
        found.append(("all runs", agreement(pooled)))
    lines = ["Human review (reviews.jsonl): the checker against people"]
    for name, stats in found:
        kappa = "n/a" if stats["kappa"] is None else f"{stats['kappa']:.3f}"
        rate = "n/a" if stats["agreement"] is None else f"{stats['agreement']:.3f}"
        lines += [
            f"  {name}: {stats['reviewed']} reviewed, {stats['agree']} agree, {stats['overrides']} overridden",
            f"    checker pass, people fail: {stats['checker_pass_human_fail']};"
            f" checker fail, people pass: {stats['checker_fail_human_pass']}",
            f"    agreement {rate}, Cohen's kappa {kappa}",
        ]
    return lines


def print_human_review(summaries: list[dict[str, Any]], out: Path | None = None) -> None:
    """``human_review_lines`` on the terminal and, with ``--out``, in ``human_review.md``."""
    lines = human_review_lines(summaries)
    if not lines:
        return
    print("\n" + "\n".join(lines))
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "human_review.md").write_text("\n".join(lines) + "\n")
