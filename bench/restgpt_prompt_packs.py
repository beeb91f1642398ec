"""The scripted decision model's score with each RestGPT prompt pack, on every RestBench query.

``scripted:restgpt-oracle`` plays every role the way a perfect model would (it knows the reference
calls), reading the values later steps need only from the prompts the graph builds; reaching the
oracle agent's 100/100 (TMDB) and 57/57 (Spotify) proves the wiring, the executor and the parser
path with that pack's prompts. Prints success and Correct Path per (agent, pack, scenario).

    python bench/restgpt_prompt_packs.py [--agents restgpt react ...] [--packs upstream restgraph] [--limit N]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from restgraph.evals.benchmark import RunOptions  # noqa: E402
from restgraph.evals.runner import run_sync  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agents", nargs="+", default=["restgpt"])
    parser.add_argument("--packs", nargs="+", default=["upstream", "restgraph"])
    parser.add_argument("--scenarios", nargs="+", default=["tmdb", "spotify"])
    parser.add_argument("--limit", type=int, default=None, help="first N queries (default: all)")
    parser.add_argument("--model", default="scripted:restgpt-oracle")
    args = parser.parse_args()
    print(
        f"{'agent':<20} {'pack':<10} {'scenario':<8} {'n':>4} {'success':>8} {'correct path':>13} {'errors':>7} {'wall s':>7}"
    )
    with tempfile.TemporaryDirectory(prefix="rg-packs-") as tmp:
        for agent in args.agents:
            for pack in args.packs:
                for scenario in args.scenarios:
                    out = Path(tmp) / f"{agent}-{pack}-{scenario}"
                    started = time.perf_counter()
                    summary = run_sync(
                        RunOptions(
                            benchmark=f"restbench-{scenario}",
                            agent=agent,
                            model=args.model,
                            limit=args.limit,
                            concurrency=4,
                            agent_options={"prompts": pack},
                        ),
                        out,
                        progress=False,
                    )
                    metrics, n = summary["metrics"], summary["n"]
                    errors = sum(
                        v for k, v in summary.get("status_counts", {}).items() if k.startswith("error")
                    )
                    print(
                        f"{agent:<20} {pack:<10} {scenario:<8} {n:>4} {round(metrics['success_rate'] * n):>4}/{n:<3} "
                        f"{round(metrics['correct_path_rate'] * n):>8}/{n:<4} {errors:>7} {time.perf_counter() - started:>7.1f}",
                        flush=True,
                    )


if __name__ == "__main__":
    main()
