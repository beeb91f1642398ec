"""RestGPT Table 4 layout over RestBench runs: rows = agents, columns = Success / Correct Path /
ΔSolution Len per scenario, plus mean API calls, tokens and cost per episode, with the paper's
numbers (arXiv 2306.06624, text-davinci-003; restbench.md §7) alongside for reference.

Built on ``restgraph.evals.results`` frames: the episodes of every run of an (agent, model, setup) are pooled
into one frame per scenario and each cell is computed from it (the benchmark's own aggregate, so a
single run's cell equals its ``summary.json``), with a 95% interval for every per-episode metric
(Wilson for Success and Correct Path, bootstrap for #API) and cost from the traces' price table.
A run folder without ``traces.jsonl`` (a summary copied on its own) is read from ``summary.json``.
The table itself is a typed DataFrame (``frame``): ``table4.csv`` holds its numbers, the terminal
and ``table4.md`` format it. Writes ``table4.md``, ``table4.csv`` and ``table4.png`` (grouped bars
of Success and Correct Path per scenario, the paper's values as hatched bars) into ``--out``:

    python -m restgraph.evals.reports.table4 runs/restgpt-tmdb runs/restgpt-spotify runs/react-tmdb ... --out report/
    python -m restgraph.evals.reports.table4 runs/* --out report/ --price-in 0.15 --price-out 0.60   # $ per 1M tokens

Our Success is automatic (fixture criteria / state predicates), the paper's was judged by hand;
the columns are comparable in layout, not in method. A run is set beside the paper's row for the
same agent *and* model (text-davinci-003, gpt-3.5-turbo-0301, Llama2-13B, Vicuna-13B, matched
from the model spec); other models get no paper numbers. Each cell says n and the episodes that
ended in an error, Success and Correct Path carry their 95% interval (``restgraph.evals.stats``), and the
setup column gives the run's prompt pack, protocol and decoding (from its ``config.json``).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from restgraph.evals.scorers.restbench import aggregate_restbench
from restgraph.evals.stats import describe, pool_summaries

SCENARIOS = {"restbench-tmdb": "TMDB", "restbench-spotify": "Spotify"}
DAVINCI = "text-davinci-003"
#: (agent, model) -> paper row (Succ, CP, Δ) per scenario; None where the paper reports "–"
PAPER: dict[tuple[str, str], dict[str, tuple[float, float, float | None]]] = {
    ("offline", DAVINCI): {"TMDB": (29.0, 33.0, 1.52), "Spotify": (14.5, 36.4, 1.10)},
    ("deps", DAVINCI): {"TMDB": (38.0, 43.0, 1.20), "Spotify": (19.3, 43.8, 1.74)},
    ("react", DAVINCI): {"TMDB": (44.0, 57.0, 0.76), "Spotify": (54.5, 49.1, 0.31)},
    ("reflexion", DAVINCI): {
        "TMDB": (52.0, 59.0, 1.37),
        "Spotify": (59.6, 61.4, 1.68),
    },  # Spotify Δ uncertain (§7)
    ("restgpt", DAVINCI): {"TMDB": (75.0, 79.0, 0.55), "Spotify": (72.7, 74.5, 0.25)},
    ("restgpt-no-planner", DAVINCI): {"TMDB": (44.0, 57.0, 0.76), "Spotify": (54.5, 49.1, 0.31)},
    ("restgpt-no-parser", DAVINCI): {"TMDB": (46.0, 53.0, 0.60), "Spotify": (47.3, 52.7, 0.24)},
    ("restgpt", "gpt-3.5-turbo-0301"): {"TMDB": (68.0, 65.0, 0.72), "Spotify": (69.1, 72.3, 0.28)},
    ("restgpt", "Llama2-13B"): {"TMDB": (0.0, 0.0, None), "Spotify": (0.0, 0.0, None)},
    ("restgpt", "Vicuna-13B"): {"TMDB": (9.0, 15.0, 1.21), "Spotify": (12.7, 20.6, 1.52)},
}
#: how a model spec names each of the paper's models (lower case, "-" and "_" dropped)
_PAPER_MODELS = {
    "textdavinci003": DAVINCI,
    "gpt3.5turbo0301": "gpt-3.5-turbo-0301",
    "llama213b": "Llama2-13B",
    "vicuna13b": "Vicuna-13B",
}


def paper_model(model: str) -> str | None:
    """The paper's model a run's model spec is (``openai:gpt-3.5-turbo-0301``, ``.../Llama-2-13b-chat``...), if any."""
    flat = model.lower().replace("-", "").replace("_", "")
    return next((name for key, name in _PAPER_MODELS.items() if key in flat), None)


def paper_row(agent: str, model: str) -> dict[str, tuple[float, float, float | None]] | None:
    """The paper's numbers for this agent *and* model; None when the paper has no such row."""
    name = paper_model(model)
    return PAPER.get((agent, name)) if name else None


AGENT_ORDER = ["offline", "deps", "react", "reflexion", "restgpt", "restgpt-no-planner", "restgpt-no-parser"]


@dataclass
class Row:
    agent: str
    model: str
    cells: dict[str, dict[str, Any]] = field(default_factory=dict)  # scenario -> metrics + usage
    setup: dict[str, str] = field(default_factory=dict)  # scenario -> prompt pack, protocol, decoding

    @property
    def label(self) -> str:
        return f"{self.agent} ({self.model})"


def load_rows(run_dirs: list[Path]) -> list[Row]:
    """One row per (agent, model, prompt pack); several runs of one scenario are pooled, not dropped."""
    groups: dict[tuple[str, str, str], dict[str, list[tuple[Path, dict[str, Any]]]]] = {}
    for run_dir in run_dirs:
        path = Path(run_dir) / "summary.json"
        if not path.is_file():
            raise FileNotFoundError(f"{path} not found; run `restgraph score {run_dir}` first")
        summary = json.loads(path.read_text())
        scenario = SCENARIOS.get(summary.get("benchmark", ""))
        if scenario is None:
            continue  # not a RestBench run
        key = (summary["agent"], summary["model"], setup_of(Path(run_dir)))
        groups.setdefault(key, {}).setdefault(scenario, []).append((Path(run_dir), summary))
    rows: list[Row] = []
    for (agent, model, setup), scenarios in groups.items():
        row = Row(agent, model)
        for scenario, runs in scenarios.items():
            row.setup[scenario] = setup
            if all((d / "traces.jsonl").is_file() for d, _ in runs):
                row.cells[scenario] = cell_from_episodes([d for d, _ in runs])
            else:
                row.cells[scenario] = cell_from_summaries([s for _, s in runs])
        rows.append(row)
    order = {a: i for i, a in enumerate(AGENT_ORDER)}
    return sorted(rows, key=lambda r: (order.get(r.agent, len(order)), r.agent, r.model))


def cell_from_episodes(run_dirs: list[Path]) -> dict[str, Any]:
    """A scenario's cell from the pooled episodes frame of its runs (``restgraph.evals.results``)."""
    from restgraph.evals import results

    ep = results.load(run_dirs).episodes
    n = len(ep)
    cols = ep.reindex(
        columns=["score_success", "score_correct_path", "score_api_calls", "score_gold_len"]
    )  # unscored: NA
    scores = [
        {
            "success": _yes(r.score_success),
            "correct_path": _yes(r.score_correct_path),
            "api_calls": _count(r.score_api_calls),
            "gold_len": _count(r.score_gold_len),
        }
        for r in cols.itertuples()
    ]
    stats = {
        "success_rate": describe(s["success"] for s in scores),
        "correct_path_rate": describe(s["correct_path"] for s in scores),
        "mean_api_calls": describe(s["api_calls"] for s in scores),
    }
    per = max(1, n)
    cost = None if n == 0 or ep.cost_usd.isna().any() else float(ep.cost_usd.sum()) / per
    return {
        **aggregate_restbench(scores),
        "n": n,
        "errors": int(ep.status.str.startswith("error").sum()),
        "runs": len(run_dirs),
        "stats": {k: v for k, v in stats.items() if v is not None},
        "tokens_in": int(ep.input_tokens.sum()) / per,
        "tokens_out": int(ep.output_tokens.sum()) / per,
        "model_calls": int(ep.model_calls.sum()) / per,
        "cost": cost,
    }


def _yes(value: Any) -> bool:
    return False if pd.isna(value) else bool(value)  # an episode the scorer could not score did not succeed


def _count(value: Any) -> float:
    return 0.0 if pd.isna(value) else float(value)


def cell_from_summaries(summaries: list[dict[str, Any]]) -> dict[str, Any]:
    """A scenario's cell from ``summary.json`` alone (no traces at hand): pooled by ``restgraph.evals.stats``."""
    summary = pool_summaries(summaries)
    n = max(1, int(summary.get("n", 0)))
    usage = summary.get("usage", {})
    cost = summary.get("cost_usd")
    return {
        **summary.get("metrics", {}),
        "n": summary.get("n", 0),
        "errors": summary.get("errors", 0),
        "runs": len(summaries),
        "stats": summary.get("metric_stats", {}),
        "tokens_in": usage.get("input_tokens", 0) / n,
        "tokens_out": usage.get("output_tokens", 0) / n,
        "model_calls": usage.get("model_calls", 0) / n,
        "cost": None if cost is None else cost / n,
    }


def setup_of(run_dir: Path) -> str:
    """The run's prompt pack, protocol and decoding (from ``config.json``), so runs set up
    differently stay separate rows and every cell says how it was produced."""
    try:
        options = json.loads((run_dir / "config.json").read_text()).get("options", {})
    except (OSError, ValueError):
        return ""
    agent, model = options.get("agent_options") or {}, options.get("model_options") or {}
    prompts = agent.get("prompts", "upstream")
    parts = [
        f"prompts={prompts if isinstance(prompts, str) else 'overrides'}",
        "structured" if str(agent.get("structured", "0")).lower() in ("1", "true") else "text",
    ]
    return " ".join(parts + [f"{k}={model[k]}" for k in ("temperature", "max_tokens") if k in model])


def frame(rows: list[Row], price_in: float | None = None, price_out: float | None = None) -> pd.DataFrame:
    """Table 4 as typed numbers: one row per (agent, model, setup), per scenario its n, errors,
    runs, each metric with its 95% interval, tokens and $ per episode, setup and the paper's row.
    ``--price-in/--price-out`` ($ per 1M tokens) override the traces' own cost."""
    records = []
    for row in rows:
        rec: dict[str, Any] = {"method": row.label, "agent": row.agent, "model": row.model}
        for s in ("TMDB", "Spotify"):
            m = row.cells.get(s) or {}
            paper = (paper_row(row.agent, row.model) or {}).get(s)
            rec.update({f"{s}_n": m.get("n"), f"{s}_errors": m.get("errors"), f"{s}_runs": m.get("runs")})
            for metric in ("success_rate", "correct_path_rate", "delta_solution_len", "mean_api_calls"):
                stat = (m.get("stats") or {}).get(metric) or {}
                ci = stat.get("ci95") or [None, None]
                rec.update(
                    {
                        f"{s}_{metric}": m.get(metric),
                        f"{s}_{metric}_ci95_low": ci[0],
                        f"{s}_{metric}_ci95_high": ci[1],
                    }
                )
            cost = m.get("cost")
            if m and price_in is not None and price_out is not None:
                cost = (m["tokens_in"] * price_in + m["tokens_out"] * price_out) / 1e6
            rec.update(
                {
                    f"{s}_tokens_in_per_episode": m.get("tokens_in"),
                    f"{s}_tokens_out_per_episode": m.get("tokens_out"),
                    f"{s}_cost_per_episode": cost,
                    f"{s}_setup": row.setup.get(s),
                    f"{s}_paper_success": None if paper is None else paper[0],
                    f"{s}_paper_correct_path": None if paper is None else paper[1],
                    f"{s}_paper_delta": None if paper is None else paper[2],
                }
            )
        records.append(rec)
    df = pd.DataFrame.from_records(records)
    for column in df.columns:
        kind = (
            "string"
            if column in ("method", "agent", "model") or column.endswith("_setup")
            else "Int64"
            if column.endswith(("_n", "_errors", "_runs"))
            else "Float64"
        )
        df[column] = df[column].astype(kind)
    return df


def _num(value: Any) -> Any:
    return None if value is None or pd.isna(value) else value


def _pct(value: Any) -> str:
    return "" if _num(value) is None else f"{100 * value:.1f}"


def _succ(rec: dict[str, Any], key: str) -> str:
    value, lo, hi = rec[key], rec[f"{key}_ci95_low"], rec[f"{key}_ci95_high"]
    if _num(value) is None:
        return ""
    return _pct(value) if _num(lo) is None else f"{_pct(value)} [{_pct(lo)}, {_pct(hi)}]"


def table(
    rows: list[Row], price_in: float | None = None, price_out: float | None = None
) -> tuple[list[str], list[list[str]]]:
    """The Table 4 layout as text cells, formatted from ``frame``."""
    header = ["Method"]
    for s in ("TMDB", "Spotify"):
        header += [
            f"{s} n (err)",
            f"{s} Succ",
            f"{s} CP",
            f"{s} Δ",
            f"{s} #API",
            f"{s} tok/ep",
            f"{s} $/ep",
            f"{s} setup",
            f"{s} paper Succ/CP/Δ",
        ]
    body = []
    for rec in frame(rows, price_in, price_out).to_dict("records"):
        cells = [rec["method"]]
        for s in ("TMDB", "Spotify"):
            paper_delta = _num(rec[f"{s}_paper_delta"])
            paper_text = (
                ""
                if _num(rec[f"{s}_paper_success"]) is None
                else (
                    f"{rec[f'{s}_paper_success']:.1f} / {rec[f'{s}_paper_correct_path']:.1f} / "
                    + ("–" if paper_delta is None else f"{paper_delta:+.2f}")
                )
            )
            if _num(rec[f"{s}_n"]) is None:
                cells += ["", "", "", "", "", "", "", "", paper_text]
                continue
            succ, delta, cost = (
                _num(rec[f"{s}_success_rate"]),
                _num(rec[f"{s}_delta_solution_len"]),
                _num(rec[f"{s}_cost_per_episode"]),
            )
            tokens = (_num(rec[f"{s}_tokens_in_per_episode"]) or 0) + (
                _num(rec[f"{s}_tokens_out_per_episode"]) or 0
            )
            cells += [
                f"{rec[f'{s}_n']} ({rec[f'{s}_errors']})",
                _succ(rec, f"{s}_success_rate"),
                _succ(rec, f"{s}_correct_path_rate"),
                f"{delta:+.2f}" if succ and delta is not None else "–",
                f"{_num(rec[f'{s}_mean_api_calls']) or 0:.2f}",
                f"{tokens:.0f}",
                "" if cost is None else f"{cost:.4f}",
                rec[f"{s}_setup"] or "",
                paper_text,
            ]
        body.append(cells)
    return header, body


def markdown(header: list[str], body: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(c or " " for c in cells) + " |" for cells in body]
    return "\n".join(lines) + "\n"


def csv_text(df: pd.DataFrame) -> str:
    """Numbers, not formatted cells: the typed frame as CSV (empty where a value is missing)."""
    return df.to_csv(index=False)


def bar_chart(rows: list[Row], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(max(8, 1.6 * len(rows) + 4), 4.5), sharey=True)
    width = 0.2
    for ax, scenario in zip(axes, ("TMDB", "Spotify"), strict=True):
        xs = range(len(rows))
        for offset, (key, idx, name) in enumerate(
            (("success_rate", 0, "Succ"), ("correct_path_rate", 1, "CP"))
        ):
            ours = [100 * (r.cells.get(scenario, {}).get(key) or 0) for r in rows]
            paper = [(paper_row(r.agent, r.model) or {}).get(scenario, (0, 0, 0))[idx] for r in rows]
            ax.bar([x + (2 * offset - 1.5) * width for x in xs], ours, width, label=f"{name} (ours)")
            ax.bar(
                [x + (2 * offset - 0.5) * width for x in xs],
                paper,
                width,
                label=f"{name} (paper)",
                hatch="//",
                alpha=0.5,
            )
        ax.set_title(scenario)
        ax.set_xticks(list(range(len(rows))), [r.label for r in rows], rotation=30, ha="right", fontsize=8)
        ax.set_ylim(0, 100)
    axes[0].set_ylabel("%")
    axes[1].legend(fontsize=8)
    fig.suptitle("RestBench, Table 4 layout (paper: text-davinci-003, hand-judged)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run_dirs", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, default=None, help="folder for table4.md / .csv / .png")
    parser.add_argument("--price-in", type=float, default=None, help="$ per 1M input tokens")
    parser.add_argument("--price-out", type=float, default=None, help="$ per 1M output tokens")
    args = parser.parse_args(argv)
    rows = load_rows(args.run_dirs)
    if not rows:
        raise SystemExit("no RestBench runs among the given folders")
    header, body = table(rows, args.price_in, args.price_out)
    from rich.console import Console
    from rich.table import Table

    console = Console() if sys.stdout.isatty() else Console(width=240)  # piped: never cut names
    for i, scenario in enumerate(("TMDB", "Spotify")):  # one table per scenario fits a terminal
        width = (len(header) - 1) // 2
        cols = [0, *range(1 + width * i, 1 + width * (i + 1))]
        view = Table(title=f"RestBench {scenario} (Table 4 layout)")
        for c in cols:
            view.add_column(header[c].removeprefix(f"{scenario} "), overflow="fold")
        for cells in body:
            view.add_row(*(cells[c] for c in cols))
        console.print(view)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "table4.md").write_text(markdown(header, body))
        (args.out / "table4.csv").write_text(csv_text(frame(rows, args.price_in, args.price_out)))
        bar_chart(rows, args.out / "table4.png")
        print(f"wrote {args.out}/table4.md, table4.csv, table4.png")


if __name__ == "__main__":
    main()
