"""Prompt and completion tokens per episode, per agent and role, with the scripted decision model.

Runs each RestGPT-family agent on the first N queries of each RestBench scenario (in-process
sandboxes) with ``scripted:restgpt-oracle``, which makes the same decisions for every agent, so
differences are the prompts' cost. Token counts come from ``usage_metadata``; the scripted model
counts whitespace-separated words (an approximation: BPE tokenizers give roughly 1.3x more).

    python bench/tokens_per_episode.py [--episodes 10] [--agents restgpt react ...] [--scenarios tmdb spotify]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from restgraph.evals.benchmark import RunOptions  # noqa: E402
from restgraph.evals.runner import run_sync  # noqa: E402
from restgraph.evals.trace import TraceStore  # noqa: E402

AGENTS = ["restgpt", "restgpt-no-planner", "restgpt-no-parser", "react", "reflexion", "deps", "offline"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=10)
    parser.add_argument("--agents", nargs="+", default=AGENTS)
    parser.add_argument("--scenarios", nargs="+", default=["tmdb", "spotify"])
    parser.add_argument("--model", default="scripted:restgpt-oracle")
    args = parser.parse_args()
    print(
        f"tokens per episode, {args.model}, first {args.episodes} queries per scenario (whitespace tokens for scripted models)"
    )
    print(
        f"{'agent':<20} {'scenario':<8} {'calls/ep':>8} {'prompt/ep':>10} {'completion/ep':>13}  prompt tokens/ep by role"
    )
    with tempfile.TemporaryDirectory(prefix="rg-tokens-") as tmp:
        for scenario in args.scenarios:
            for agent in args.agents:
                out = Path(tmp) / f"{agent}-{scenario}"
                run_sync(
                    RunOptions(
                        benchmark=f"restbench-{scenario}",
                        agent=agent,
                        model=args.model,
                        limit=args.episodes,
                        concurrency=4,
                        max_steps=300,
                    ),
                    out,
                    progress=False,
                )
                traces = TraceStore(out).load().traces
                n = max(1, len(traces))
                by_role: dict[str, int] = defaultdict(int)
                for trace in traces:
                    for call in trace.model_calls():
                        by_role[call.role] += call.input_tokens
                calls = sum(t.usage.model_calls for t in traces) / n
                prompt = sum(t.usage.input_tokens for t in traces) / n
                completion = sum(t.usage.output_tokens for t in traces) / n
                roles = ", ".join(
                    f"{r} {v / n:.0f}" for r, v in sorted(by_role.items(), key=lambda kv: -kv[1])
                )
                print(
                    f"{agent:<20} {scenario:<8} {calls:>8.1f} {prompt:>10.0f} {completion:>13.0f}  {roles}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
