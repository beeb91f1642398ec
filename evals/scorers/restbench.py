"""RestBench path metrics (spec §6), shared by the TMDB and Spotify scorers.

- Correct Path: the gold path is a subsequence (order kept, gaps allowed) of the executed path,
  i.e. every HTTP request actually sent, normalised to ``METHOD /template``; failed requests
  count as calls.
- ΔSolution Len: mean over *successful* episodes of (calls made - gold length).
- #API calls: mean calls per episode over all episodes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from restgraph.evals.trace import Trace


def final_answer(trace: Trace) -> str | None:
    """The episode's answer, or None when it ended without one. An episode stopped by a spent
    budget, a timeout or an error may carry the last executor output in ``final_answer``; that is
    not an answer, so answer-based success never reads it (state-based checks still see the state)."""
    return trace.final_answer if trace.status == "finished" else None


def executed_path(trace: Trace) -> list[str]:
    """The agent's HTTP calls as ``METHOD /template`` (``METHOD /literal`` when nothing matched).

    Requests the HTTP tool refused to send (a path still holding ``{person_id}``) stay in the
    trace but are no calls: they count for neither Correct Path nor #API calls."""
    path = []
    for call in trace.http_calls():
        if call.extra and call.extra.get("sent") is False:
            continue
        template = call.extra.get("template") if call.extra else None
        path.append(template or f"{call.method} {call.path}")
    return path


def is_subsequence(gold: Sequence[str], executed: Sequence[str]) -> bool:
    it = iter(executed)
    return all(any(step == done for done in it) for step in gold)


def path_scores(trace: Trace, gold_path: Sequence[str]) -> dict[str, Any]:
    executed = executed_path(trace)
    return {
        "correct_path": is_subsequence(gold_path, executed),
        "api_calls": len(executed),
        "gold_len": len(gold_path),
        "executed_path": executed,
    }


def aggregate_restbench(scores: list[dict[str, Any]]) -> dict[str, float]:
    n = len(scores)
    if n == 0:
        return {
            "success_rate": 0.0,
            "correct_path_rate": 0.0,
            "delta_solution_len": 0.0,
            "mean_api_calls": 0.0,
        }
    successes = [s for s in scores if s.get("success")]
    delta = sum(s["api_calls"] - s["gold_len"] for s in successes) / len(successes) if successes else 0.0
    return {
        "success_rate": len(successes) / n,
        "correct_path_rate": sum(bool(s.get("correct_path")) for s in scores) / n,
        "delta_solution_len": delta,
        "mean_api_calls": sum(s.get("api_calls", 0) for s in scores) / n,
    }


RESTBENCH_METRICS = ("success_rate", "correct_path_rate", "delta_solution_len", "mean_api_calls")
