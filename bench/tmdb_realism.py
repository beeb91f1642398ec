"""How close the TMDB sandbox's responses come to the real API's: sizes on the oracle's path.

For every endpoint on RestBench's TMDB gold paths this prints
- the sandbox's median response size (JSON characters) over the oracle run (the reference calls of
  the 100 queries, served by the handlers),
- the size of the spec's example response (``tmdb_oas.json`` embeds captured real responses, some
  trimmed, so the example is a floor rather than a target),
- the real API's page size for list endpoints (20) or ``-``,
- over all oracle-path responses, the share longer than 1,000 and 2,500 tokens (chars/4): the
  reading cut of RestGPT's w/o-parser ablation is 1,000 tokens;
- per search endpoint, how many oracle-path searches return a full first page of 20 results, and
  how many the real API would fill by the stated rule of ``tools/sandbox/tmdb/realtotals.py``; then per
  distinct search its sandbox ``total_results`` beside that estimate of the real total, and for every
  search that is not full (or is fuller than the estimate) the reason.

Usage: ``python bench/tmdb_realism.py``. Needs ``$RESTGRAPH_DATA_DIR``. Prints numbers; asserts nothing.
"""

from __future__ import annotations

import json
import re
import statistics
from collections import defaultdict

from restgraph.evals.datasets.restbench import load_queries, load_spec
from restgraph.tools.openapi import operations
from restgraph.tools.sandbox.tmdb.db import get_db, get_facts_db
from restgraph.tools.sandbox.tmdb.derive import normalise
from restgraph.tools.sandbox.tmdb.finders import _index
from restgraph.tools.sandbox.tmdb.handlers import ROUTES
from restgraph.tools.sandbox.tmdb.realtotals import PAGE, estimate
from restgraph.tools.sandbox.tmdb.reference import replay
from restgraph.tools.sandbox.tmdb.solutions import SOLUTIONS

PAGED = {"results", "page", "total_pages"}
_ROUTES = [(re.compile("^" + re.sub(r"\{(\w+)\}", "[^/]+", t) + "$"), t) for t, _ in ROUTES]


def _template(path: str) -> str:
    """The sandbox route a concrete path took (exact, unlike RestGPT's end-anchored matcher)."""
    return next(t for pattern, t in _ROUTES if pattern.match(path))


def _size(body: object) -> int:
    return len(json.dumps(body, ensure_ascii=False))


def _example(op) -> object | None:  # noqa: ANN001 - tools.openapi Operation
    content = (op.operation.get("responses", {}).get("200", {}).get("content") or {}).get(
        "application/json", {}
    )
    if "example" in content:
        return content["example"]
    return next((e.get("value") for e in (content.get("examples") or {}).values()), None)


def _name(item: object) -> str:
    return normalise(getattr(item, "title", None) or getattr(item, "name", ""))


def _print_searches(searches: list[tuple[str, str, int, int]]) -> None:
    """Full first pages per search endpoint, against the real API's estimated totals (``realtotals``)."""
    facts = get_facts_db()
    rows = []
    for template, query, n, total in searches:
        kind = template.rsplit("/", 1)[1]
        rows.append(
            (
                template,
                query,
                n,
                total,
                estimate(kind, query, [_name(x) for x in _index(facts, kind).search(query)]),
            )
        )
    print(
        f"\n{'search endpoint':20} {'calls':>5} {'full':>5} {'real fills':>10} {'full where real fills':>22}"
    )
    for template in sorted({r[0] for r in rows}):
        mine = [r for r in rows if r[0] == template]
        fills = [r for r in mine if r[4].fills_page]
        print(
            f"{template:20} {len(mine):5d} {sum(r[2] == PAGE for r in mine):5d} {len(fills):10d} {sum(r[2] == PAGE for r in fills):22d}"
        )
    full = sum(r[2] == PAGE for r in rows)
    fills = [r for r in rows if r[4].fills_page]
    print(
        f"search calls on the oracle path with a full first page ({PAGE} results): {full} of {len(rows)}; "
        f"the real API would fill {len(fills)} (estimate), of which {sum(r[2] == PAGE for r in fills)} are full"
    )
    print(f"\n{'search':20} {'query':32} {'page 1':>6} {'total':>6} {'real~':>6}  verdict")
    for template, query, n, total, est in sorted(set(rows)):
        if n == PAGE:
            verdict = "full" + (
                f"; over twice the real API's estimate ({est.reason})" if total > 2 * est.total else ""
            )
        else:
            verdict = (
                "NOT FULL although the real API would fill it: " if est.fills_page else "not full: "
            ) + est.reason
        print(f"{template:20} {query[:32]:32} {n:6d} {total:6d} {est.total:6d}  {verdict}")


def main() -> None:
    spec = load_spec("tmdb")
    ops = {op.template: op for op in operations(spec)}
    gold = sorted({item.split(" ", 1)[1] for q in load_queries("tmdb") for item in q.solution})
    db = get_db()
    sizes: dict[str, list[int]] = defaultdict(list)
    paged: dict[str, bool] = {}
    searches: list[tuple[str, str, int, int]] = []
    for index in sorted(SOLUTIONS):
        calls = SOLUTIONS[index].calls
        for c, body in zip(calls, replay(db, calls), strict=True):
            template = _template(c["path"])
            sizes[template].append(_size(body))
            paged[template] = isinstance(body, dict) and set(body) >= PAGED
            if template.startswith("/search/"):
                searches.append((template, c["params"]["query"], len(body["results"]), body["total_results"]))
    every = [s for v in sizes.values() for s in v]
    print(f"{'endpoint':58} {'median':>8} {'example':>8} {'ratio':>6} {'page':>5}  calls")
    at_half = 0
    for template in gold:
        example = _example(ops[template]) if template in ops else None
        ex = _size(example) if example is not None else 0
        med = int(statistics.median(sizes[template])) if sizes[template] else 0
        ratio = med / ex if ex else float("nan")
        at_half += ratio >= 0.5
        print(
            f"{template:58} {med:8d} {ex:8d} {ratio:6.2f} {'20' if paged.get(template) else '-':>5}  {len(sizes[template])}"
        )
    print(
        f"\nendpoints on the gold paths: {len(gold)}; median oracle response >= half the spec example: {at_half}"
    )
    print(f"oracle-path responses: {len(every)}; median {int(statistics.median(every))} chars")
    _print_searches(searches)
    for tokens in (1000, 2500):
        share = sum(s > tokens * 4 for s in every) / len(every)
        print(f"share longer than {tokens:,} tokens (chars/4): {share:.1%}")


if __name__ == "__main__":
    main()
