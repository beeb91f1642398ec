"""What one browsing step costs on the offline fixture: ``aria`` vs ``spa`` (and ``seeact``), one run.

Runs ``assistantbench-local`` once per agent, one after the other in this process (same machine,
same load), with scripted decision models (no model time): ``aria`` with
``scripted:browser-oracle``, ``spa`` / ``seeact`` with ``scripted:seeplanact-oracle``, SPA both
with the screenshot as an image and with its text rendering.
Per browser step it prints:

- latency: ``aria``: the action, the aria snapshot of the new page and the screenshot; ``spa``:
  the element extraction, the cropped screenshot (or the text rendering) and the operation
  (``observe`` is extraction + screenshot alone);
- observation size: ``aria``: characters of the observation text; ``spa``: characters of the
  multiple-choice element list plus the screenshot's JPEG bytes (or the text rendering's chars).

The numbers depend heavily on machine load (Chromium renders on the same cores).

    python bench/browser_fixture.py [--concurrency 1] [--limit N] [--no-screenshots-too]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from restgraph.evals.benchmark import RunOptions
from restgraph.evals.runner import run_sync
from restgraph.evals.trace import TraceStore

CONFIGS: list[tuple[str, str, str, dict[str, Any]]] = [
    ("aria", "aria", "scripted:browser-oracle", {}),
    ("spa (image)", "spa", "scripted:seeplanact-oracle", {"screenshot": "image"}),
    ("spa (text)", "spa", "scripted:seeplanact-oracle", {"screenshot": "text"}),
    ("seeact (image)", "seeact", "scripted:seeplanact-oracle", {"screenshot": "image"}),
]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def one_run(
    label: str,
    agent: str,
    model: str,
    agent_options: dict[str, Any],
    *,
    concurrency: int,
    limit: int | None,
    screenshots: bool,
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        options = RunOptions(
            benchmark="assistantbench-local",
            agent=agent,
            model=model,
            concurrency=concurrency,
            limit=limit,
            agent_options=agent_options,
            bench_options={"screenshots": "1" if screenshots else "0"},
        )
        started = time.perf_counter()
        summary = run_sync(options, Path(tmp) / "run", progress=False)
        wall = time.perf_counter() - started
        traces = TraceStore(Path(tmp) / "run").load().traces
    steps = [c for t in traces for c in t.tool_calls("browser") if c.name != "refused"]
    latency = [c.latency_s or 0.0 for c in steps]
    if agent == "aria":
        size = [float(c.extra.get("observation_chars", len(c.response or ""))) for c in steps]
        unit, observe = "chars", ""
    else:
        size = [
            float(c.extra["choices_chars"] + c.extra["image_bytes"] + c.extra["text_rendering_chars"])
            for c in steps
        ]
        unit = "choices chars + image bytes" if "image" in label else "choices chars + text chars"
        obs = [c.extra["observe_s"] for c in steps]
        observe = f"  observe (elements+screenshot or text) p50 {pct(obs, 0.5) * 1000:.0f} ms p95 {pct(obs, 0.95) * 1000:.0f} ms"
    print(
        f"{label:15s} screenshots={int(screenshots)} accuracy={summary['metrics']['accuracy']:.3f} run wall {wall:5.1f}s  "
        f"steps {len(steps):3d}: latency p50 {pct(latency, 0.5) * 1000:.0f} ms p95 {pct(latency, 0.95) * 1000:.0f} ms "
        f"mean {statistics.fmean(latency) * 1000 if latency else 0:.0f} ms{observe}  "
        f"observation ({unit}) p50 {pct(size, 0.5):.0f} max {max(size, default=0):.0f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--limit", type=int, default=None, help="first N fixture tasks (default: all)")
    parser.add_argument(
        "--no-screenshots-too", action="store_true", help="also run aria without saving screenshots"
    )
    args = parser.parse_args()
    for label, agent, model, agent_options in CONFIGS:
        one_run(
            label,
            agent,
            model,
            agent_options,
            concurrency=args.concurrency,
            limit=args.limit,
            screenshots=True,
        )
    if args.no_screenshots_too:
        one_run(
            "aria",
            "aria",
            "scripted:browser-oracle",
            {},
            concurrency=args.concurrency,
            limit=args.limit,
            screenshots=False,
        )


if __name__ == "__main__":
    main()
