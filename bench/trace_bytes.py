"""Trace bytes: a RestGPT run stored with prompts inline (schema 1) and once per run (schema 2).

Makes one real RestGPT run on RestBench TMDB (scripted oracle decisions, EPISODES queries), which
writes schema 2 (``traces.jsonl`` with hash refs + ``prompts.jsonl.gz``). The same traces, loaded
back, are then written the way schema 1 did (``json.dumps`` of the redacted dump, messages inline)
into a second folder. It prints both sizes per episode and their ratio, the share of schema-1
bytes that were prompts, and checks that nothing was lost: the loaded messages equal a plain
re-read of the schema-1 file, and ``restgraph score`` gives byte-identical ``summary.json`` and
``scores.jsonl`` on both folders.

    python bench/trace_bytes.py [--episodes 20]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from restgraph.evals.benchmark import RunOptions
from restgraph.evals.prompt_store import FILENAME as PROMPTS
from restgraph.evals.runner import run_sync
from restgraph.evals.trace import TraceStore
from restgraph.tools.redact import redact


def schema1_line(trace) -> str:
    data = redact(
        trace.model_dump(
            mode="json", exclude={"steps": {"__all__": {"model_calls": {"__all__": {"message_refs"}}}}}
        )
    )
    data["schema_version"] = 1
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def score(run: Path) -> tuple[str, str]:
    subprocess.run(
        [sys.executable, "-m", "restgraph.evals.cli", "score", str(run)], check=True, capture_output=True
    )
    return (run / "summary.json").read_text(), (run / "scores.jsonl").read_text()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--episodes", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        new, old = Path(tmp) / "schema2", Path(tmp) / "schema1"
        options = RunOptions(
            benchmark="restbench-tmdb",
            agent="restgpt",
            model="scripted:restgpt-oracle",
            limit=args.episodes,
            concurrency=4,
        )
        run_sync(options, new, progress=False)
        traces = TraceStore(new).load().traces
        old.mkdir()
        shutil.copy(new / "config.json", old / "config.json")
        lines = [schema1_line(t) for t in traces]
        (old / "traces.jsonl").write_text("".join(line + "\n" for line in lines), encoding="utf-8")

        before = (old / "traces.jsonl").stat().st_size
        after_lines = (new / "traces.jsonl").stat().st_size
        after_prompts = (new / PROMPTS).stat().st_size
        prompt_bytes = sum(
            len(json.dumps(c["messages"], ensure_ascii=False, separators=(",", ":")).encode())
            for line in lines
            for s in json.loads(line)["steps"]
            for c in s["model_calls"]
            if c.get("messages")
        )
        n = len(traces)
        print(
            f"RestGPT on restbench-tmdb, scripted oracle, {n} episodes, {sum(t.usage.model_calls for t in traces)} model calls"
        )
        print(
            f"schema 1 (prompts inline):      {before:>10,} bytes  {before / n:>9,.0f} per episode  (prompts {prompt_bytes / before:.0%} of it)"
        )
        print(
            f"schema 2 traces.jsonl:          {after_lines:>10,} bytes  {after_lines / n:>9,.0f} per episode"
        )
        print(f"schema 2 {PROMPTS}:       {after_prompts:>10,} bytes  {after_prompts / n:>9,.0f} per episode")
        print(f"schema 2 / schema 1 (both files): {(after_lines + after_prompts) / before:.3f}")

        plain = [
            [c.get("messages") for s in json.loads(line)["steps"] for c in s["model_calls"]] for line in lines
        ]
        resolved = [[c.messages for c in t.model_calls()] for t in TraceStore(new).load().traces]
        print(f"messages after a round trip equal schema 1's: {plain == resolved}")
        print(f"restgraph score: identical summary.json and scores.jsonl: {score(new) == score(old)}")


if __name__ == "__main__":
    main()
