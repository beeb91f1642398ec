"""Scoring Synthetic API Use episodes: pass rate per case, pass@k, and per-dial breakdowns.

The score is recomputed from the trace: the samples in ``final_answer`` are re-run through the
sandboxed checker against the gold test (never trusting an agent's own check). A final answer
that is not the ``{"samples": [...]}`` object of ``api-use-coder`` is treated as one raw chat
answer and goes through the extraction adapter, so any agent's text can be scored.
"""

from __future__ import annotations

import json
from collections import defaultdict
from math import comb
from typing import Any

from restgraph.agents.api_use.extract import extract_body, uses_keyword_arguments
from restgraph.tools.pyexec import run_sync
from restgraph.tools.synthetic_api.checker import execute_batch_async, parse_test

#: dials reported per suite (spec section 7, "Aggregate per dial")
DIALS = (
    "distractors",
    "position",
    "chain_length",
    "n_args",
    "fixed_args",
    "shots",
    "n_shots",
    "noise",
    "style",
)


def samples_from_answer(final_answer: str | None, test: str) -> list[str | None]:
    """The bodies an episode produced; ``None`` entries are answers without code."""
    if final_answer is None:
        return []
    try:
        data = json.loads(final_answer)
    except json.JSONDecodeError:
        data = None
    if isinstance(data, dict) and isinstance(data.get("samples"), list):
        return [s if isinstance(s, str) and s.strip() else None for s in data["samples"]]
    parsed = parse_test(test)
    func_name = parsed.header.split("def ", 1)[1].split("(", 1)[0].strip()
    return [extract_body(final_answer, func_name, parsed.root, parsed.indent)]


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k (Chen et al. 2021): 1 - C(n-c, k) / C(n, k)."""
    if n - c < k:
        return 1.0
    return 1.0 - comb(n - c, k) / comb(n, k)


def score_samples(samples: list[str | None], gold: dict[str, Any]) -> dict[str, Any]:
    """Check the bodies against the gold test; empty bodies fail as ``no_code``."""
    present = [s for s in samples if s is not None]
    kwargs_aware = bool(gold.get("kwargs_aware"))
    checked = iter(
        run_sync(
            execute_batch_async(
                [(s, gold["test"]) for s in present],
                kwargs_aware=kwargs_aware,
                api_args=[gold.get("api_args") or {}] * len(present),
            )
        )
        if present
        else []
    )
    results = [next(checked) if s is not None else (False, "no_code") for s in samples]
    n, passed = len(results), sum(ok for ok, _ in results)
    indent = parse_test(gold["test"]).indent
    scores: dict[str, Any] = {
        "n": n,
        "passed": passed,
        "pass_rate": passed / n if n else 0.0,
        "success": n > 0 and passed == n,
        "no_code": sum(s is None for s in samples),
        "keyword_args": sum(uses_keyword_arguments(s, indent) for s in present),
        "first_error": next((e for ok, e in results if not ok), None),
    }
    for k in (1, 5, 10, 100):
        if k <= n:
            scores[f"pass@{k}"] = pass_at_k(n, passed, k)
    return scores


def aggregate_scores(scores: list[dict[str, Any]]) -> dict[str, float]:
    """Mean pass rate (and pass@k) over cases, rates of no-code and keyword-argument samples, and
    ``pass_rate/<dial>=<value>`` for every dial value present."""
    valid = [s for s in scores if "pass_rate" in s]
    total = max(len(scores), 1)
    metrics: dict[str, float] = {"pass_rate": sum(s["pass_rate"] for s in valid) / total}
    for key in ("pass@1", "pass@5", "pass@10", "pass@100"):
        having = [s[key] for s in valid if key in s]
        if having and len(having) == len(valid):
            metrics[key] = sum(having) / len(having)
    samples = sum(s["n"] for s in valid)
    metrics["no_code_rate"] = sum(s["no_code"] for s in valid) / samples if samples else 0.0
    metrics["keyword_args_rate"] = sum(s["keyword_args"] for s in valid) / samples if samples else 0.0
    groups: dict[str, list[float]] = defaultdict(list)
    for s in scores:
        for dial in DIALS:
            if dial in s:
                groups[f"pass_rate/{dial}={s[dial]}"].append(s.get("pass_rate", 0.0))
    for key in sorted(groups, key=_dial_sort_key):
        metrics[key] = sum(groups[key]) / len(groups[key])
    return metrics


def _dial_sort_key(key: str) -> tuple:
    dial, _, value = key.partition("=")
    return (dial, int(value) if value.lstrip("-").isdigit() else value)
