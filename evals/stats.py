"""Uncertainty for run metrics: n, standard error and a 95% interval; pass@k and pass^k over epochs.

Why: a success rate of 0.6 on 10 episodes and on 1,000 episodes are different claims, and agent
comparisons in the literature are routinely within noise. Every per-episode score that is a
yes/no (``success``, ``correct_path``) gets a Wilson score interval, which stays inside [0, 1]
and behaves at 0/n and n/n where the normal approximation does not; every numeric score (API
calls, a partial-credit score) gets a percentile bootstrap interval of its mean. The bootstrap
uses a fixed seed, so ``restgraph run`` and ``restgraph score`` write identical ``summary.json``.

A benchmark's headline metric (``success_rate``) is usually the mean of one per-episode score
over all episodes; ``metric_stats`` attaches that score's interval to the metric when the two
agree exactly, and leaves metrics with no such per-episode source (a ratio over successes only)
without an interval rather than inventing one.

``pass@k`` (Chen et al. 2021, unbiased estimator) is the chance that at least one of k tries of a
task succeeds; ``pass^k`` (tau-bench) the chance that all k succeed: the first rewards
exploration, the second reliability.
"""

from __future__ import annotations

import math
import os
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

Z95 = 1.959963984540054
BOOTSTRAP_SAMPLES = 2000
BOOTSTRAP_SEED = 20240601


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def bootstrap_mean(
    values: Sequence[float], samples: int = BOOTSTRAP_SAMPLES, seed: int = BOOTSTRAP_SEED
) -> tuple[float, float]:
    """Percentile bootstrap 95% interval of the mean (deterministic for a given seed)."""
    import numpy as np  # at scoring time only: a run's first episode does not wait for it

    data = np.asarray(values, dtype=float)
    if data.size == 0:
        return (math.nan, math.nan)
    if data.size == 1 or np.all(data == data[0]):
        return (float(data[0]), float(data[0]))
    rng = np.random.default_rng(seed)
    means = np.empty(samples)
    chunk = max(1, 2_000_000 // data.size)  # bound memory: at most ~2M draws at a time
    for start in range(0, samples, chunk):
        stop = min(samples, start + chunk)
        means[start:stop] = data[rng.integers(0, data.size, size=(stop - start, data.size))].mean(axis=1)
    return (float(np.percentile(means, 2.5)), float(np.percentile(means, 97.5)))


def describe(values: Iterable[Any]) -> dict[str, Any] | None:
    """n, mean, standard error and 95% interval of one per-episode score (None values left out)."""
    present = [v for v in values if v is not None and not (isinstance(v, float) and math.isnan(v))]
    if not present:
        return None
    n = len(present)
    if all(isinstance(v, bool) for v in present):
        k = sum(present)
        p = k / n
        lo, hi = wilson(k, n)
        return {
            "n": n,
            "mean": _r(p),
            "se": _r(math.sqrt(p * (1 - p) / n)),
            "ci95": [_r(lo), _r(hi)],
            "method": "wilson",
        }
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present):
        if n == 1:  # nothing to resample: what the code below gives, without importing numpy (0.1 s)
            only = float(present[0])
            return {"n": 1, "mean": _r(only), "se": 0.0, "ci95": [_r(only), _r(only)], "method": "bootstrap"}
        import numpy as np  # numeric scores only (0.4 s to import): a run of yes/no scores never needs it

        data = np.asarray(present, dtype=float)
        se = float(data.std(ddof=1) / math.sqrt(n)) if n > 1 else 0.0
        lo, hi = bootstrap_mean(data.tolist())
        return {
            "n": n,
            "mean": _r(float(data.mean())),
            "se": _r(se),
            "ci95": [_r(lo), _r(hi)],
            "method": "bootstrap",
        }
    return None


def _r(x: float) -> float:
    return round(float(x), 6)


def episode_stats(scores: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """``describe`` for every per-episode score key that is boolean or numeric."""
    keys: list[str] = []
    for row in scores:
        keys += [k for k in row if k not in keys]
    out = {}
    for key in keys:
        stat = describe(row.get(key) for row in scores)
        if stat is not None:
            out[key] = stat
    return out


def metric_stats(
    metrics: dict[str, float],
    stats: dict[str, dict[str, Any]],
    n: int,
    sources: dict[str, str] | None = None,
    scores: Sequence[dict[str, Any]] | None = None,
) -> dict[str, dict[str, Any]]:
    """Attach an interval to each metric that is the mean of a per-episode score over all episodes.

    The source is the benchmark's declared one (``Benchmark.metric_sources``), else a score whose
    name the metric's name contains or shares a 3-letter prefix with (``success_rate`` <- ``success``,
    ``mean_api_calls`` <- ``api_calls``); and its mean must equal the metric over the same n, so a
    metric that merely happens to equal some unrelated score's mean (a 0.0 delta and a 0/3 rate)
    gets no interval.

    A slice metric, ``<score>/<field>=<value>`` (API Use's ``pass_rate/distractors=0``), is the mean
    of ``<score>`` over the episodes whose ``<field>`` is ``<value>``: its interval and n come from
    those episodes (``scores``), never from the whole run's (which reported n=20 for a slice of one).
    """
    out: dict[str, dict[str, Any]] = {}
    for metric, value in metrics.items():
        if "/" in metric and "=" in metric.rpartition("/")[2]:
            sliced = _slice_stat(metric, value, scores or [])
            if sliced is not None:
                out[metric] = sliced
            continue
        declared = (sources or {}).get(metric)
        names = (
            [declared] if declared else [k for k in stats if k in metric or _common_prefix(k, metric) >= 3]
        )
        for key in names:
            stat = stats.get(key)
            if stat is not None and stat["n"] == n and abs(stat["mean"] - float(value)) <= 1e-6:
                out[metric] = {**stat, "source": key}
                break
    return out


def _slice_stat(metric: str, value: float, scores: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    source, _, where = metric.rpartition("/")
    field, _, wanted = where.partition("=")
    rows = [row for row in scores if field in row and str(row[field]) == wanted]
    stat = describe(row.get(source, 0.0) for row in rows)
    if stat is None or abs(stat["mean"] - float(value)) > 1e-6:
        return None
    return {**stat, "source": source, "slice": {field: wanted}}


def _common_prefix(a: str, b: str) -> int:
    return len(os.path.commonprefix([a, b]))


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k for one task with ``c`` successes in ``n`` tries."""
    if n < k:
        raise ValueError(f"pass@{k} needs at least {k} tries, got {n}")
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """pass^k for one task: the chance that k tries drawn from the n all succeed."""
    if n < k:
        raise ValueError(f"pass^{k} needs at least {k} tries, got {n}")
    return math.comb(c, k) / math.comb(n, k)


def epoch_metrics(outcomes: Iterable[tuple[str, bool]], epochs: int) -> dict[str, float]:
    """pass@k and pass^k for k = 1..epochs over tasks, from (task id, success) pairs.

    Tasks with fewer tries than k (an interrupted run) are left out of that k's mean.
    """
    per_task: dict[str, list[bool]] = defaultdict(list)
    for task_id, ok in outcomes:
        per_task[task_id].append(bool(ok))
    out: dict[str, float] = {}
    for k in range(1, epochs + 1):
        eligible = [(len(v), sum(v)) for v in per_task.values() if len(v) >= k]
        if not eligible:
            continue
        out[f"pass@{k}"] = _r(sum(pass_at_k(n, c, k) for n, c in eligible) / len(eligible))
        out[f"pass^{k}"] = _r(sum(pass_hat_k(n, c, k) for n, c in eligible) / len(eligible))
    return out


def fmt_interval(stat: dict[str, Any] | None, value: float | None = None, digits: int = 3) -> str:
    """``0.600 [0.313, 0.832]`` for tables; just the value when there is no interval."""
    if stat is None:
        return "" if value is None else f"{value:.{digits}f}"
    shown = stat["mean"] if value is None else value
    lo, hi = stat["ci95"]
    return f"{shown:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def pool_summaries(summaries: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """One summary for several runs of the same (agent, model, prompt pack): every episode counts.

    Counts and usage add up; a metric whose per-episode source is a yes/no score is pooled exactly
    (successes over all episodes, Wilson interval recomputed); any other metric is the n-weighted
    mean of the runs' values, and keeps no interval (the runs' episodes are not at hand here).
    """
    if len(summaries) == 1:
        return dict(summaries[0])
    total = sum(int(s.get("n", 0)) for s in summaries)
    pooled: dict[str, Any] = {**summaries[0], "n": total, "runs": len(summaries)}
    pooled["errors"] = sum(int(s.get("errors", 0)) for s in summaries)
    pooled["usage"] = {
        k: sum(s.get("usage", {}).get(k, 0) for s in summaries) for k in summaries[0].get("usage", {})
    }
    costs = [s.get("cost_usd") for s in summaries]
    pooled["cost_usd"] = None if any(c is None for c in costs) else round(sum(costs), 6)  # type: ignore[arg-type]
    metrics: dict[str, float] = {}
    stats: dict[str, dict[str, Any]] = {}
    for metric in summaries[0].get("metrics", {}):
        parts = [
            (int(s.get("n", 0)), s.get("metrics", {}).get(metric), s.get("metric_stats", {}).get(metric))
            for s in summaries
        ]
        if any(v is None for _, v, _ in parts) or total == 0:
            continue
        metrics[metric] = _r(sum(n * v for n, v, _ in parts) / total)
        if all(st is not None and st.get("method") == "wilson" and st["n"] == n for n, _, st in parts):
            k = sum(round(st["mean"] * st["n"]) for _, _, st in parts)
            lo, hi = wilson(k, total)
            p = k / total
            stats[metric] = {
                "n": total,
                "mean": _r(p),
                "se": _r(math.sqrt(p * (1 - p) / total)),
                "ci95": [_r(lo), _r(hi)],
                "method": "wilson",
                "source": parts[0][2]["source"],
            }
    pooled["metrics"], pooled["metric_stats"] = metrics, stats
    return pooled
