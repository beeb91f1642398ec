"""Scoring Synthetic API Use episodes: pass rate per case, pass@k, and per-dial breakdowns.

The samples in ``final_answer`` are run through the sandboxed checker against the gold test (never
trusting an agent's own check) once, when the episode ends, and the verdicts are recorded in the
trace (``env_state["verdicts"]``, with a digest of the samples and the test they judged). Scoring
reads them, so ``restgraph score`` reproduces the run's verdicts and nothing left on the machine
since (issue 29: a kernel key stored by a later episode flipped an earlier run's re-score from fail
to pass) can change them. A trace without a matching record (an older run) is checked again, each
sample in its own world, and its row says so (``verdicts_recorded`` false). A final answer
that is not the ``{"samples": [...]}`` object of ``api-use-coder`` is treated as one raw chat
answer and goes through the extraction adapter, so any agent's text can be scored.
"""

from __future__ import annotations

import hashlib
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


def samples_digest(samples: list[str | None], gold: dict[str, Any]) -> str:
    """What a recorded verdict list judged: the samples, the test and the checker's mode."""
    judged = [samples, gold["test"], bool(gold.get("kwargs_aware")), gold.get("api_args") or {}]
    return hashlib.sha256(json.dumps(judged, sort_keys=True).encode()).hexdigest()


async def check_samples(samples: list[str | None], gold: dict[str, Any]) -> dict[str, Any]:
    """Check the bodies against the gold test (empty bodies fail as ``no_code``); the record a
    trace keeps in ``env_state``: ``{"verdicts": [[passed, error], ...], "digest": ...}``."""
    present = [s for s in samples if s is not None]
    checked = iter(
        await execute_batch_async(
            [(s, gold["test"]) for s in present],
            kwargs_aware=bool(gold.get("kwargs_aware")),
            api_args=[gold.get("api_args") or {}] * len(present),
        )
        if present
        else []
    )
    verdicts = [list(next(checked)) if s is not None else [False, "no_code"] for s in samples]
    return {"verdicts": verdicts, "digest": samples_digest(samples, gold)}


def recorded_verdicts(
    samples: list[str | None], gold: dict[str, Any], record: dict[str, Any] | None
) -> list[tuple[bool, str | None]] | None:
    """The verdicts a trace recorded for exactly these samples and this test, else ``None``."""
    if not isinstance(record, dict) or record.get("digest") != samples_digest(samples, gold):
        return None
    verdicts = record.get("verdicts")
    if not isinstance(verdicts, list) or len(verdicts) != len(samples):
        return None
    try:
        return [(bool(ok), None if error is None else str(error)) for ok, error in verdicts]
    except (TypeError, ValueError):
        return None


def score_samples(
    samples: list[str | None], gold: dict[str, Any], record: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Scores from the verdicts ``record`` holds for these samples (``check_samples``), or from
    checking them now when it holds none."""
    results = recorded_verdicts(samples, gold, record)
    recorded = results is not None
    if results is None:
        fresh = run_sync(check_samples(samples, gold))
        results = [(bool(ok), error) for ok, error in fresh["verdicts"]]
    present = [s for s in samples if s is not None]
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
        "verdicts_recorded": recorded,
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
