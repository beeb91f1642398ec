"""Redaction of RestGPT traces before they are written: CPU per trace, and what the line memo saves.

Makes one real RestGPT run on RestBench TMDB (scripted oracle decisions, EPISODES queries), loads
its traces back with their prompts, and times (best of REPEAT, per trace) what ``TraceStore``
does to each one before writing it:

- ``redact_document``: the check that returns a clean trace as is (the line memo warm, as it is
  after a run's first episodes);
- the same as it was before the line memo (reproduced here): a scan of the trace's JSON text for
  gate words, which always finds one in a RestGPT trace ("keywords" in the TMDB docs, "token" in
  the agent's config), then the walk, every string folded and scanned whole for the gates and the
  pattern triggers, and a copy of the whole trace.

It also checks that both give the same document. Printed beside ``os.getloadavg()``.

    python bench/trace_redaction.py [--episodes 20] [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

from restgraph.evals.benchmark import RunOptions
from restgraph.evals.runner import run_sync
from restgraph.evals.trace import PLAIN_KEYS, TraceStore
from restgraph.tools import redact as redaction


def _best_ms(fn: Callable[[], Any], repeat: int, per: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        fn()
        best = min(best, time.process_time() - started)
    return 1000 * best / per


def _redact_text_before(text: str) -> str:
    """``redact_text`` as it was before the line memo: every string folded and scanned whole."""
    for secret in redaction._known_longest_first:
        if secret in text:
            text = text.replace(secret, redaction.REDACTED)
    lower = text.casefold()
    if not any(g in lower for g in redaction._GATES):
        return text
    for pattern, triggers in redaction._PATTERNS:
        if any(t in lower for t in triggers):
            text = (
                pattern.sub(lambda m: m.group(1) + redaction.REDACTED, text)
                if pattern.groups
                else pattern.sub(redaction.REDACTED, text)
            )
    return text


def _before(doc: dict[str, Any]) -> Any:
    """``redact_document`` as it was: a scan of the JSON text for gate words, then (always, for a
    RestGPT trace) the walk with ``_redact_text_before``."""
    text = orjson.dumps(doc).decode()
    for key in PLAIN_KEYS:
        text = text.replace(f'"{key}":', ":")
    folded = text.lower() if text.isascii() else text.casefold()
    if not any(g in folded for g in redaction._DOCUMENT_GATES):
        return doc
    return redaction.redact(doc)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    if args.episodes < 1 or args.repeat < 1:
        parser.error("--episodes and --repeat must be >= 1")
    with tempfile.TemporaryDirectory(prefix="rg-redaction-") as tmp:
        out = Path(tmp) / "run"
        options = RunOptions(
            benchmark="restbench-tmdb",
            agent="restgpt",
            model="scripted:restgpt-oracle",
            limit=args.episodes,
            concurrency=4,
        )
        run_sync(options, out, progress=False)
        docs = [t.model_dump(mode="json") for t in TraceStore(out).load().traces]
    n = len(docs)
    same = all(redaction.redact_document(d, plain_keys=PLAIN_KEYS) == redaction.redact(d) for d in docs)
    check = _best_ms(
        lambda: [redaction.redact_document(d, plain_keys=PLAIN_KEYS) for d in docs], args.repeat, n
    )
    now = redaction.redact_text
    redaction.redact_text = _redact_text_before  # (the walk calls it through the module)
    try:
        same = same and all(_before(d) == redaction.redact_document(d, plain_keys=PLAIN_KEYS) for d in docs)
        walk = _best_ms(lambda: [_before(d) for d in docs], args.repeat, n)
    finally:
        redaction.redact_text = now
    size = sum(len(orjson.dumps(d)) for d in docs) / n
    print(f"trace redaction: {n} RestGPT TMDB traces, {size / 1000:.0f} kB of JSON each")
    print(f"{'redact_document ms/trace':>25} {'before ms/trace':>17} {'same result':>11} {'load':>5}")
    print(f"{check:>25.2f} {walk:>17.2f} {'yes' if same else 'NO':>11} {os.getloadavg()[0]:>5.1f}")


if __name__ == "__main__":
    main()
