"""Table 4's cells: one scenario of one row as numbers (n, errors, runs, each metric and its 95%
interval, tokens and $ per episode), from a run's ``summary.json``, from several runs' pooled
episodes, or from the paper's printed numbers.

Why apart from the layout (``restgraph.evals.reports.table4``): how a number is computed is the
part a reader checks, and it is the same whichever way the table is printed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from restgraph.evals.stats import describe, pool_summaries, wilson


def paper_cell(success: float, correct_path: float, delta: float | None, n: int) -> dict[str, Any]:
    """A paper number as a cell: its n is the scenario's size, its interval Wilson's from % and n."""

    def stat(pct: float) -> dict[str, Any]:
        return {"ci95": list(wilson(round(pct * n / 100), n)), "method": "wilson (from the paper's % and n)"}

    return {
        "success_rate": success / 100,
        "correct_path_rate": correct_path / 100,
        "delta_solution_len": delta,
        "n": n,
        "stats": {"success_rate": stat(success), "correct_path_rate": stat(correct_path)},
    }


def cell_from_episodes(run_dirs: list[Path]) -> dict[str, Any]:
    """A scenario's cell from the pooled episodes frame of its runs (``restgraph.evals.results``)."""
    from restgraph.evals import results
    from restgraph.evals.scorers.restbench import aggregate_restbench

    ep = results.load(run_dirs).episodes
    n = len(ep)
    cols = ep.reindex(columns=["score_success", "score_correct_path", "score_api_calls", "score_gold_len"])
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


def missing(value: Any) -> bool:
    """None, NaN or pandas' NA (pandas is imported only where episode frames are pooled)."""
    return value is None or value != value or type(value).__name__ == "NAType"


def _yes(value: Any) -> bool:
    return False if missing(value) else bool(value)  # an episode the scorer could not score did not succeed


def _count(value: Any) -> float:
    return 0.0 if missing(value) else float(value)


def cell_from_summaries(summaries: list[dict[str, Any]]) -> dict[str, Any]:
    """A scenario's cell from ``summary.json`` alone (no traces at hand): pooled by ``restgraph.evals.stats``."""
    summary = pool_summaries(summaries)
    n = max(1, int(summary.get("n", 0)))
    usage = summary.get("usage", {})
    cost = summary.get("cost_usd")
    return {
        **summary.get("metrics", {}),
        "n": summary.get("n", 0),
        "errors": sum(
            s.get("errors", sum(v for k, v in s.get("status_counts", {}).items() if k.startswith("error")))
            for s in summaries
        ),
        "runs": len(summaries),
        "stats": summary.get("metric_stats", {}),
        "tokens_in": usage.get("input_tokens", 0) / n,
        "tokens_out": usage.get("output_tokens", 0) / n,
        "model_calls": usage.get("model_calls", 0) / n,
        "cost": None if cost is None else cost / n,
    }
