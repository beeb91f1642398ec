"""RestGPT's Table 4 over RestBench runs, as the paper prints it: one row per method, TMDB and
Spotify side by side, the paper's rows beside ours (``restgraph.evals.reports.table4_paper``).

A row is a method (agent) run one way: its model, its options and budgets. The decoding each
scenario publishes (temperature 0, ``max_tokens`` 256 on TMDB and 700 on Spotify, as RestGPT's
run scripts set them; ``Benchmark.decoding``) is the protocol, not a row's identity, so a
method's TMDB and Spotify runs share a row and the protocol is said once per scenario. Rows of one
method split only when its runs really differ (another model, prompt pack, option or budget), and
say how. A cell is the benchmark's own aggregate with n, the episodes that ended in an error and a
95% interval (Wilson for Success and Correct Path, bootstrap for #API; ``restgraph.evals.stats``):
one run's cell is its ``summary.json`` as scored; several runs of one row and scenario are pooled
over all their episodes (``restgraph.evals.results`` frames; from their summaries when a run
folder has no ``traces.jsonl``).

The paper's rows are always there (text-davinci-003 for every method shown, its other models where
a run used one), labelled as the paper's and hand-judged: our Success is automatic, so the columns
compare in layout, not in method. Writes ``table4.md``, ``table4.csv`` (tidy: one line per method x
source x scenario x metric), ``table4.png`` (``table4_chart``) and ``index.html``
(``restgraph.evals.reports.html``) into ``--out``:

    python -m restgraph.evals.reports.table4 studies/table4-... --out report/
    python -m restgraph.evals.reports.table4 runs/* --out report/ --price-in 0.15 --price-out 0.60   # $ per 1M tokens
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from restgraph.evals.reports.table4_cells import (
    cell_from_episodes,
    cell_from_summaries,
    missing,
    paper_cell,
)
from restgraph.evals.reports.table4_chart import bar_chart, scenarios_of
from restgraph.evals.reports.table4_paper import (
    AGENT_ORDER,
    PAPER,
    PAPER_CITATION,
    PAPER_JUDGED,
    PAPER_N,
    SCENARIOS,
    method_name,
    paper_row,
    reference_models,
)
from restgraph.evals.role_record import describe as describe_roles

if TYPE_CHECKING:
    import pandas as pd

METRICS = ("success_rate", "correct_path_rate", "delta_solution_len", "mean_api_calls")
#: budgets that make two runs of one method different rows (from ``config.json`` options)
_BUDGETS = ("max_steps", "episode_timeout_s", "token_limit", "cost_limit")

__all__ = [
    "AGENT_ORDER",
    "Row",
    "bar_chart",
    "frame",
    "load_rows",
    "main",
    "markdown",
    "paper_row",
    "table",
    "with_paper",
]


@dataclass
class Row:
    """One line of Table 4: ours (a method run one way) or the paper's (a method on a paper model)."""

    agent: str
    model: str
    source: str = "ours"  # "ours" | "paper"
    #: what sets this row's runs apart: model, -A/-B/-M options beyond the protocol, budgets, prompt pack
    setup: dict[str, str] = field(default_factory=dict)
    cells: dict[str, dict[str, Any]] = field(default_factory=dict)  # scenario -> metrics + usage
    protocol: dict[str, str] = field(default_factory=dict)  # scenario -> published decoding used
    run_dirs: dict[str, list[Path]] = field(default_factory=dict)
    #: the Source column: "ours", "ours (model=...)" when a method has several rows, "paper"...
    label: str = ""

    @property
    def method(self) -> str:
        return method_name(self.agent)


def _published_decoding(benchmark: str) -> dict[str, Any]:
    """``Benchmark.decoding`` from the catalogue's card (loading the benchmark costs a second)."""
    from restgraph.evals.catalogue import benchmark_cards

    card = benchmark_cards().get(benchmark)
    return dict(card.decoding) if card else {}


def setup_of(run_dir: Path, benchmark: str) -> tuple[dict[str, str], str]:
    """``(identity, protocol)`` of a run from its ``config.json``: what makes it a row of its own,
    and the scenario's published decoding it used (``temperature=0.0 max_tokens=256``)."""
    try:
        config = json.loads((run_dir / "config.json").read_text())
    except (OSError, ValueError):
        return {}, ""
    options = config.get("options") or {}
    published = _published_decoding(benchmark)
    identity: dict[str, str] = {}
    protocol = []
    for key, value in sorted((options.get("model_options") or {}).items()):
        if key in published and published[key] == value:
            protocol.append(f"{key}={value}")
        else:
            identity[f"-M {key}"] = str(value)
    identity.update({f"-A {k}": str(v) for k, v in sorted((options.get("agent_options") or {}).items())})
    # a scenario's own options (Spotify's collateral policy...) exist for one scenario only: protocol
    protocol += [f"-B {k}={v}" for k, v in sorted((options.get("bench_options") or {}).items())]
    identity.update({k: str(options[k]) for k in _BUDGETS if options.get(k) is not None})
    pack = (config.get("provenance") or {}).get("prompt_pack")
    if pack:
        identity["prompt pack"] = str(pack)
    roles = describe_roles(config.get("agent_roles"), changed_only=True)  # a swapped role or template
    if roles:
        identity["roles"] = roles
    return identity, " ".join(protocol)


def load_rows(run_dirs: list[Path]) -> list[Row]:
    """Our rows: one per (agent, model, setup), each scenario's runs pooled, in the paper's order."""
    found = []
    for run_dir in map(Path, run_dirs):
        path = run_dir / "summary.json"
        if not path.is_file():
            raise FileNotFoundError(f"{path} not found; run `restgraph score {run_dir}` first")
        summary = json.loads(path.read_text())
        scenario = SCENARIOS.get(summary.get("benchmark", ""))
        if scenario is not None:  # else not a RestBench run
            identity, protocol = setup_of(run_dir, summary["benchmark"])
            found.append((run_dir, summary, scenario, {"model": str(summary["model"]), **identity}, protocol))
    # runs of one row and scenario under another protocol (-M max_tokens=..., -B ...) are not pooled
    protocols: dict[tuple[str, str, str], set[str]] = {}
    for _, summary, scenario, setup, protocol in found:
        protocols.setdefault((summary["agent"], json.dumps(setup), scenario), set()).add(protocol)
    groups: dict[tuple[str, str, str], Row] = {}
    for run_dir, summary, scenario, setup, protocol in found:
        if len(protocols[(summary["agent"], json.dumps(setup), scenario)]) > 1:
            setup = {**setup, f"{scenario} protocol": protocol}
        key = (summary["agent"], summary["model"], json.dumps(setup, sort_keys=True))
        row = groups.setdefault(key, Row(summary["agent"], str(summary["model"]), setup=setup))
        row.run_dirs.setdefault(scenario, []).append(run_dir)
        row.protocol[scenario] = protocol
        row.cells.setdefault(scenario, {"_summaries": []})["_summaries"].append(summary)
    for row in groups.values():
        for scenario, runs in row.run_dirs.items():
            summaries = row.cells[scenario].pop("_summaries")
            # one run: its summary.json is its cell (the benchmark's aggregate and intervals, as
            # scored); several: pool their episodes, so every interval is over all of them
            if len(runs) > 1 and all((d / "traces.jsonl").is_file() for d in runs):
                row.cells[scenario] = cell_from_episodes(runs)
            else:
                row.cells[scenario] = cell_from_summaries(summaries)
    rows = sorted(groups.values(), key=_order)
    _label(rows)
    return rows


def _order(row: Row) -> tuple[int, str, int, str]:
    order = {a: i for i, a in enumerate(AGENT_ORDER)}
    # the paper's rows keep their order (text-davinci-003 first): the sort is stable
    return (
        order.get(row.agent, len(order)),
        row.agent,
        row.source == "paper",
        "" if row.source == "paper" else row.model,
    )


def _label(rows: list[Row]) -> None:
    """Source column text: "ours", plus what sets a row apart where a method has several."""
    for row in rows:
        if row.source == "paper":
            continue
        siblings = [r for r in rows if r.agent == row.agent and r.source == "ours"]
        differ = [k for k in row.setup if len({r.setup.get(k) for r in siblings}) > 1]
        differ += [k for r in siblings for k in r.setup if k not in row.setup and k not in differ]
        parts = [
            row.setup.get(k, "default") if k == "model" else f"{k}={row.setup.get(k, '-')}" for k in differ
        ]
        row.label = "ours" + (f" ({', '.join(parts)})" if parts else "")


def with_paper(rows: list[Row]) -> list[Row]:
    """``rows`` with the paper's reference rows: text-davinci-003 for every method shown, and each
    other paper model one of the method's runs used (gpt-3.5-turbo-0301, Llama2-13B, Vicuna-13B)."""
    scenarios = [s for s in SCENARIOS.values() if any(s in r.cells for r in rows)]
    out = [r for r in rows if r.source == "ours"]
    for agent in dict.fromkeys(r.agent for r in out):
        for name in reference_models(agent, [r.model for r in out if r.agent == agent]):
            paper = PAPER[(agent, name)]
            row = Row(
                agent, name, source="paper", label="paper" if name == "text-davinci-003" else f"paper, {name}"
            )
            row.cells = {s: paper_cell(*paper[s], n=PAPER_N[s]) for s in scenarios}
            out.append(row)
    return sorted(out, key=_order)


#: the tidy table's columns and their pandas types
TYPES = {
    **dict.fromkeys(("method", "agent", "source", "model", "judged", "scenario", "metric"), "string"),
    **dict.fromkeys(("value", "ci95_low", "ci95_high"), "Float64"),
    **dict.fromkeys(("n", "errors", "runs"), "Int64"),
    **dict.fromkeys(("protocol", "setup"), "string"),
}


def records(
    rows: list[Row], price_in: float | None = None, price_out: float | None = None
) -> list[dict[str, Any]]:
    """Table 4 as tidy records: one per method x source x scenario x metric, with the value (rates
    as fractions, the paper's too), its 95% interval, n, errors and the row's setup.
    ``--price-in/--price-out`` ($ per 1M tokens) override the traces' own cost."""
    records = []
    for row in rows:
        for scenario, m in row.cells.items():
            cost = m.get("cost")
            if row.source == "ours" and price_in is not None and price_out is not None:
                cost = (m["tokens_in"] * price_in + m["tokens_out"] * price_out) / 1e6
            values = {k: m.get(k) for k in METRICS}
            if row.source == "ours":
                values.update(
                    tokens_in_per_episode=m.get("tokens_in"),
                    tokens_out_per_episode=m.get("tokens_out"),
                    cost_per_episode=cost,
                )
            for metric, value in values.items():
                ci = ((m.get("stats") or {}).get(metric) or {}).get("ci95") or [None, None]
                records.append(
                    {
                        "method": row.method,
                        "agent": row.agent,
                        "source": row.label or row.source,
                        "model": row.model,
                        "judged": "automatic" if row.source == "ours" else PAPER_JUDGED,
                        "scenario": scenario,
                        "metric": metric,
                        "value": value,
                        "ci95_low": ci[0],
                        "ci95_high": ci[1],
                        "n": m.get("n"),
                        "errors": m.get("errors"),
                        "runs": m.get("runs"),
                        "protocol": row.protocol.get(scenario, ""),
                        "setup": " ".join(f"{k}={v}" for k, v in row.setup.items()),
                    }
                )
    return records


def frame(rows: list[Row], price_in: float | None = None, price_out: float | None = None) -> pd.DataFrame:
    """``records`` as a typed pandas DataFrame (for analysis; the CSV is written without pandas)."""
    import pandas as pd

    df = pd.DataFrame.from_records(records(rows, price_in, price_out), columns=list(TYPES))
    for column in ("value", "ci95_low", "ci95_high"):  # None -> NaN before the nullable cast
        df[column] = pd.to_numeric(df[column], errors="coerce")
    return df.astype(TYPES)


def csv_text(data: pd.DataFrame | list[dict[str, Any]]) -> str:
    """Numbers, not formatted cells: the tidy table as CSV (empty where a value is missing)."""
    if not isinstance(data, list):
        return str(data.to_csv(index=False))
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(TYPES), lineterminator="\n")
    writer.writeheader()
    writer.writerows({k: "" if missing(v) else v for k, v in r.items()} for r in data)
    return buffer.getvalue()


# -- formatted cells (terminal, Markdown, HTML) ------------------------------------------------


def _pct(value: Any) -> str:
    return "" if missing(value) else f"{100 * value:.1f}"


def rate_cell(cell: dict[str, Any], metric: str, sep: str = " ") -> str:
    """``75.0 [65.7, 82.5]``: the rate in % and its 95% interval (``sep`` "\\n" puts it below)."""
    value = cell.get(metric)
    if value is None:
        return ""
    ci = ((cell.get("stats") or {}).get(metric) or {}).get("ci95")
    return _pct(value) if not ci else f"{_pct(value)}{sep}[{_pct(ci[0])}, {_pct(ci[1])}]"


def scenario_cells(row: Row, scenario: str, sep: str = " ") -> dict[str, str]:
    """One scenario's cells of a row, by column name (empty strings where the row has no cell)."""
    m = row.cells.get(scenario)
    if not m:
        return dict.fromkeys(COLUMNS, "")
    delta, cost = m.get("delta_solution_len"), m.get("cost")
    errors = m.get("errors")
    return {
        "n (err)": f"{m['n']}" if errors is None else f"{m['n']} ({errors})",
        "Success %": rate_cell(m, "success_rate", sep),
        "Correct Path %": rate_cell(m, "correct_path_rate", sep),
        "ΔSol.Len": "–" if delta is None or not m.get("success_rate") else f"{delta:+.2f}",
        "#API": "" if m.get("mean_api_calls") is None else f"{m['mean_api_calls']:.2f}",
        "tok/ep": "" if m.get("tokens_in") is None else f"{m['tokens_in'] + m['tokens_out']:.0f}",
        "$/ep": "" if cost is None else f"{cost:.4f}",
    }


#: a scenario's columns in Table 4; CORE are the paper's (the terminal keeps these when narrow)
COLUMNS = ("n (err)", "Success %", "Correct Path %", "ΔSol.Len", "#API", "tok/ep", "$/ep")
CORE = ("n (err)", "Success %", "Correct Path %", "ΔSol.Len")


def table(
    rows: list[Row], price_in: float | None = None, price_out: float | None = None
) -> tuple[list[str], list[list[str]]]:
    """Header and text cells of the whole table: Method, Source, then each scenario's columns."""
    scenarios = scenarios_of(rows)
    header = ["Method", "Source"] + [f"{s} {c}" for s in scenarios for c in COLUMNS]
    body = []
    for row in _priced(rows, price_in, price_out):
        cells = [row.method, row.label or row.source]
        for s in scenarios:
            cells += list(scenario_cells(row, s).values())
        body.append(cells)
    return header, body


def _priced(rows: list[Row], price_in: float | None, price_out: float | None) -> list[Row]:
    if price_in is None or price_out is None:
        return rows
    for row in rows:
        for m in row.cells.values():
            if row.source == "ours":
                m["cost"] = (m["tokens_in"] * price_in + m["tokens_out"] * price_out) / 1e6
    return rows


def notes(rows: list[Row]) -> list[str]:
    """What the table's rows are and how each number was computed (under every rendering)."""
    ours = [r for r in rows if r.source == "ours"]
    shared = {
        k: v for k, v in (ours[0].setup.items() if ours else []) if all(r.setup.get(k) == v for r in ours)
    }
    lines = []
    for s in scenarios_of(rows):
        used = sorted({r.protocol.get(s, "") for r in ours if s in r.cells} - {""})
        lines.append(
            f"{s} protocol (published decoding, scenario options): {'; '.join(used) or 'none recorded'}"
        )
    if shared:
        lines.append(
            "ours: " + ", ".join(f"{k} {v}" if k == "model" else f"{k}={v}" for k, v in shared.items())
        )
    lines += [
        "ours: scored automatically (TMDB answer keys, Spotify state predicates); "
        "n (err) = episodes (ending in an error); several runs of a row are pooled",
        f"paper: {PAPER_CITATION}, text-davinci-003 unless named; Success and Correct Path {PAPER_JUDGED}; "
        f"n = every query ({', '.join(f'{k} {v}' for k, v in PAPER_N.items())}), "
        "interval = Wilson's from the printed % and n",
        "Success %, Correct Path %: share of episodes, 95% Wilson interval in brackets; ΔSol.Len: mean "
        "(calls made - gold length) over successful episodes, '–' without any; #API: mean HTTP calls "
        "per episode (95% bootstrap interval in table4.csv); tok/ep, $/ep: tokens and dollars per episode",
    ]
    return lines


def markdown(rows: list[Row], price_in: float | None = None, price_out: float | None = None) -> str:
    from restgraph.evals.reports.md import markdown_table

    return markdown_table(*table(rows, price_in, price_out)) + "\n" + "".join(f"- {n}\n" for n in notes(rows))


def views(rows: list[Row]) -> list[list[Any]]:
    """The terminal layouts, richest first (``restgraph.evals.termtable``): both scenarios side by
    side; one table per scenario; one per scenario with the paper's columns only (the rest are in
    the written files); the same with each interval under its rate."""
    from restgraph.evals.termtable import View

    header, body = table(rows)
    scenarios = scenarios_of(rows)
    foot = notes(rows)
    left = [c[:2] for c in body]

    def per_scenario(columns: tuple[str, ...], sep: str, extra: list[str]) -> list[View]:
        out = []
        for i, s in enumerate(scenarios):
            cells = [
                [*lead, *(scenario_cells(r, s, sep)[c] for c in columns)]
                for lead, r in zip(left, rows, strict=True)
            ]
            last = i == len(scenarios) - 1
            out.append(
                View(
                    f"RestBench {s} (Table 4 layout; paper rows {PAPER_JUDGED})",
                    ["Method", "Source", *columns],
                    cells,
                    notes=(foot + extra) if last else [],
                    right=set(range(2, 2 + len(columns))),
                )
            )
        return out

    dropped = [f"{', '.join(c for c in COLUMNS if c not in CORE)}: in table4.md and table4.csv (--out)"]
    return [
        [
            View(
                "RestBench (Table 4 layout; paper rows hand-judged)",
                header,
                body,
                notes=foot,
                right=set(range(2, len(header))),
            )
        ],
        per_scenario(COLUMNS, " ", []),
        per_scenario(CORE, " ", dropped),
        per_scenario(CORE, "\n", dropped),
    ]


def write_files(
    rows: list[Row], out: Path, price_in: float | None = None, price_out: float | None = None
) -> list[Path]:
    """``table4.md``, ``table4.csv``, ``table4.png`` and the self-contained ``index.html``."""
    from restgraph.evals.reports.html import write_html

    out.mkdir(parents=True, exist_ok=True)
    md = markdown(rows, price_in, price_out)
    (out / "table4.md").write_text(md)
    (out / "table4.csv").write_text(csv_text(records(rows, price_in, price_out)))
    png = bar_chart(rows, out / "table4.png")
    header, body = table(rows, price_in, price_out)
    html = write_html(
        out / "index.html",
        title="RestBench: RestGPT's Table 4",
        header=header,
        body=body,
        notes=notes(rows),
        chart=png,
        runs=[d for r in rows for ds in r.run_dirs.values() for d in ds],
    )
    return [out / "table4.md", out / "table4.csv", png, html]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run_dirs", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, default=None, help="folder for table4.md/.csv/.png, index.html")
    parser.add_argument("--price-in", type=float, default=None, help="$ per 1M input tokens")
    parser.add_argument("--price-out", type=float, default=None, help="$ per 1M output tokens")
    args = parser.parse_args(argv)
    from restgraph.evals.run_discovery import ensure_summaries, find_runs

    ours = load_rows(ensure_summaries(find_runs(args.run_dirs)))  # a study folder, runs, globs
    if not ours:
        raise SystemExit("no RestBench runs among the given folders")
    rows = with_paper(_priced(ours, args.price_in, args.price_out))
    from restgraph.evals.termtable import print_fitted, say, table_console

    console = table_console()
    print_fitted(console, views(rows))
    if args.out:
        written = write_files(rows, args.out, args.price_in, args.price_out)
        say(console, f"wrote {', '.join(p.name for p in written)} in {args.out}")


if __name__ == "__main__":
    main()
