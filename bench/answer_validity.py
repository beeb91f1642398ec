"""How well the RestBench answer checker agrees with hand labels.

    python bench/answer_validity.py [SUITE.jsonl ...] [--checker keys|containment] [--judge MODEL]
        [--show-errors]

Without a SUITE it measures the labelled suites side by side: ``dev`` (the training suite,
``$RESTGRAPH_DATA_DIR/restbench/answer_suite_dev.jsonl``), ``dev2`` (``bench/dev2/answers.jsonl``, a
second hand-labelled suite written to measure the checker on answers it was not built from, then tuned
on), ``dev3`` (``bench/dev3/answers.jsonl``, the first blind suite: measured blind for two rounds, then
its misses were read and tuned on), ``dev4`` (``bench/dev4/answers.jsonl``, written for the dev3 round by
someone who never read the checker, measured before it was tuned on), ``dev5`` (``bench/dev5/answers.jsonl``,
the second blind suite: measured blind before and after the dev3 round, then tuned on) and ``blind``
(``bench/blind/answer_suite_blind.jsonl``, written after that by someone who never read the checker;
measured, never tuned on). Each SUITE (a
path, or NAME=PATH to name it; by default its file name) is measured on its own: its table, then one
line per suite with its false-positive and false-negative rates, so a dev suite and a blind suite are
read side by side (the goal: FPR <= 0.02 and FNR <= 0.03 on both). SUITE.jsonl: one labelled answer per
line, ``{"scenario": "tmdb"|"spotify", "query_id": "tmdb/7", "answer": ..., "correct": bool, "trap":
...}`` (the dev suite is ``$RESTGRAPH_DATA_DIR/restbench/answer_suite_dev.jsonl``). Prints agreement,
the false-positive rate (incorrect answers passed) and the false-negative rate (correct answers failed),
overall and per trap. ``--checker containment`` measures the previous checker (TMDB fixture criteria by
normalised containment; TMDB rows only) for comparison. ``--judge MODEL`` also measures an LLM judge
(the rubric of ``restgraph score --judge``) against the labels: its accuracy, and its agreement with the
rule checker.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from restgraph.evals.scorers.answer_keys import verdict

BENCH = Path(__file__).resolve().parent


def default_suites() -> list[tuple[str, Path]]:
    """dev, dev2, dev3, dev4, dev5 and blind, in that order (dev needs ``RESTGRAPH_DATA_DIR``; see the docstring)."""
    import os

    data = Path(os.environ.get("RESTGRAPH_DATA_DIR", "data"))
    return [
        ("dev", data / "restbench" / "answer_suite_dev.jsonl"),
        ("dev2", BENCH / "dev2" / "answers.jsonl"),
        ("dev3", BENCH / "dev3" / "answers.jsonl"),
        ("dev4", BENCH / "dev4" / "answers.jsonl"),
        ("dev5", BENCH / "dev5" / "answers.jsonl"),
        ("blind", BENCH / "blind" / "answer_suite_blind.jsonl"),
    ]


def load_suite(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def containment_verdict(row: dict[str, Any]) -> bool | None:
    """The previous TMDB checker (fixture criterion, normalised containment); None for Spotify rows."""
    if row["scenario"] != "tmdb":
        return None
    from restgraph.evals.scorers.tmdb_success import check
    from restgraph.tools.sandbox.tmdb.solutions import reference_gold

    return check(reference_gold(int(row["query_id"].split("/")[1]))["criterion"], row["answer"])


def judge_verdicts(rows: list[dict[str, Any]], model_spec: str, model: Any = None) -> list[bool | None]:
    """An LLM judge's verdict on each row, with the rubric ``restgraph score --judge`` uses."""
    import asyncio

    from langchain_core.messages import HumanMessage, SystemMessage

    from restgraph.evals.judge import SYSTEM, build_prompt, parse_verdict
    from restgraph.evals.scorers.answer_keys import load_keys

    if model is None:
        from restgraph.agents.models import make_chat_model

        model = make_chat_model(model_spec, temperature=0)

    async def one(row: dict[str, Any]) -> bool | None:
        key = load_keys(row["scenario"])[int(row["query_id"].split("/")[1])]
        reply = await model.ainvoke(
            [SystemMessage(SYSTEM), HumanMessage(build_prompt(row["query"], key.describe(), row["answer"]))]
        )
        return parse_verdict(str(reply.content))

    async def all_rows() -> list[bool | None]:
        return [await one(r) for r in rows]

    return asyncio.run(all_rows())


def measure(
    rows: list[dict[str, Any]], checker: str = "keys", verdicts: list[bool | None] | None = None
) -> dict[str, Any]:
    """Counts overall and per trap; ``errors`` lists the disagreements. ``verdicts``: measure
    these (an LLM judge's; None counts as a fail) instead of a rule checker."""
    table: dict[str, dict[str, int]] = defaultdict(
        lambda: {"n": 0, "agree": 0, "incorrect": 0, "fp": 0, "correct": 0, "fn": 0}
    )
    errors = []
    for i, row in enumerate(rows):
        if verdicts is not None:
            passed = bool(verdicts[i])
        else:
            passed = (
                verdict(row["scenario"], int(row["query_id"].split("/")[1]), row["answer"])[0]
                if checker == "keys"
                else containment_verdict(row)
            )
        if passed is None:
            continue
        for name in ("all", f"trap:{row['trap']}"):
            t = table[name]
            t["n"] += 1
            t["agree"] += passed == row["correct"]
            if row["correct"]:
                t["correct"] += 1
                t["fn"] += not passed
            else:
                t["incorrect"] += 1
                t["fp"] += passed
        if passed != row["correct"]:
            errors.append(
                {
                    "query_id": row["query_id"],
                    "trap": row["trap"],
                    "correct": row["correct"],
                    "answer": row["answer"],
                }
            )
    return {"table": dict(table), "errors": errors}


def _rate(a: int, b: int) -> str:
    return f"{a}/{b} ({100 * a / b:.1f}%)" if b else "-"


def report(result: dict[str, Any]) -> str:
    lines = [f"{'':16} {'agreement':>18} {'false positives':>18} {'false negatives':>18}"]
    table = result["table"]
    for name in ["all", *sorted(k for k in table if k != "all")]:
        t = table[name]
        lines.append(
            f"{name:16} {_rate(t['agree'], t['n']):>18} {_rate(t['fp'], t['incorrect']):>18} {_rate(t['fn'], t['correct']):>18}"
        )
    return "\n".join(lines)


def _suite_arg(text: str) -> tuple[str, Path]:
    name, sep, path = text.partition("=")
    return (name, Path(path)) if sep and name and path else (Path(text).stem, Path(text))


def rates(result: dict[str, Any]) -> str:
    t = result["table"]["all"]
    fpr = t["fp"] / t["incorrect"] if t["incorrect"] else 0.0
    fnr = t["fn"] / t["correct"] if t["correct"] else 0.0
    return f"FPR {fpr:.3f} ({t['fp']}/{t['incorrect']})   FNR {fnr:.3f} ({t['fn']}/{t['correct']})"


def answer_read(rows: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    """The rows whose query success reads the answer (every TMDB query; Spotify's nine with a key)."""
    from restgraph.evals.scorers.answer_keys import load_keys

    keyed = [r for r in rows if int(r["query_id"].split("/")[1]) in load_keys(r["scenario"])]
    return keyed, len(rows) - len(keyed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "suite",
        nargs="*",
        type=_suite_arg,
        metavar="SUITE",
        help="PATH or NAME=PATH (default: dev, dev2, dev3, dev4, dev5, blind)",
    )
    parser.add_argument("--checker", choices=["keys", "containment"], default="keys")
    parser.add_argument(
        "--judge", metavar="MODEL", help="also measure an LLM judge (any model spec) against the labels"
    )
    parser.add_argument("--show-errors", action="store_true")
    args = parser.parse_args(argv)
    args.suite = args.suite or default_suites()
    for _name, path in args.suite:
        if not path.is_file():
            print(f"no such suite file: {path}", file=sys.stderr)
            return 2
    import os

    summary = []
    for name, path in args.suite:
        rows, unkeyed = answer_read(load_suite(path))
        result = measure(rows, args.checker)
        print(f"suite: {name}   checker: {args.checker}   answers: {result['table']['all']['n']}")
        if unkeyed:
            print(
                f"  ({unkeyed} rows left out: their Spotify queries are judged on the sandbox state, not on"
                " the answer, so the answer checker has nothing to say about them)"
            )
        print(report(result))
        summary.append(f"{name:12} {rates(result)}")
        if args.judge:
            verdicts = judge_verdicts(rows, args.judge)
            judged = measure(rows, verdicts=verdicts)
            rules = [verdict(r["scenario"], int(r["query_id"].split("/")[1]), r["answer"])[0] for r in rows]
            agree = sum(bool(v) == r for v, r in zip(verdicts, rules, strict=True))
            print(
                f"\njudge: {args.judge}   unparsed replies (errors, counted as fails): {sum(v is None for v in verdicts)}"
                f"   agreement with the rule checker: {_rate(agree, len(rows))}"
            )
            print(report(judged))
            summary.append(f"{name + ' judge':12} {rates(judged)}")
        if args.show_errors:
            for e in result["errors"]:
                print(f"{'FN' if e['correct'] else 'FP'} {e['query_id']} [{e['trap']}] {e['answer'][:200]}")
        print()
    print(f"per suite (load average {os.getloadavg()[0]:.1f}):")
    print("\n".join(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
