"""What ``restgraph review`` shows: per episode the query, the final answer, the answer key, the
checker's verdict with whatever its score row records, the standing human verdict, and the cues that
make the checker's verdict doubtful, least sure first.

Why the order: a person reviews a run top down and stops when tired; the episodes most worth a
human look are those whose answer the checker may have misread: hedges ("A or B", "one of"),
negations ("is not", "can't"), several candidates offered for one answer. The cues are read from the
answer text alone (cheap, and independent of how the checker works); the checker's score row is
shown as it is, field by field, so fields a newer checker adds (the claim it matched, candidates)
appear without a change here.
"""

from __future__ import annotations

import re
from typing import Any

from restgraph.evals.reviews import checker_verdict, load_reviews
from restgraph.evals.trace import Trace
from restgraph.evals.viewer.data import RunIndex, _benchmark, _score, _stored_scores, read_trace

#: (cue label, pattern, weight): a hedge or a denial weighs more than a long list
CUES: tuple[tuple[str, re.Pattern[str], int], ...] = (
    ("hedge: or", re.compile(r"\bor\b|\beither\b", re.I), 3),
    ("hedge: one of", re.compile(r"\bone of\b|\bsome of\b|\bsomewhere in\b|\bamong\b", re.I), 3),
    (
        "hedge: maybe",
        re.compile(r"\b(maybe|perhaps|possibly|probably|likely|might|may be|not sure|unclear)\b", re.I),
        2,
    ),
    ("negation", re.compile(r"\b(not|never|no|none|neither|nor)\b|n't\b|n’t\b", re.I), 2),
    (
        "could not check",
        re.compile(r"\b(cannot|unable|could not|couldn't|can't|failed|error|no data|unknown)\b", re.I),
        3,
    ),
)
#: separators between candidates: commas, semicolons, pipes, bullets, line breaks, "and"
_ITEMS = re.compile(r"\s*(?:[,;|!]|\n\s*(?:[-*•]|\d+[.)])?|\band\b)\s*", re.I)
_SENTENCES = re.compile(r"(?<=[.!?])\s+")
#: score-row fields that are bookkeeping, not the checker's judgement
_FIRST = re.compile(r"reason|claim|match|candidate|verdict|note", re.I)
_CANDIDATES = re.compile(r"candidate", re.I)
_FLAGS = re.compile(r"hedge|negat|uncertain|ambiguous|retract", re.I)
_HIDDEN = {"task_id", "epoch", "status", "executed_path", "human_review"}


def answer_cues(answer: str | None) -> list[str]:
    """Why the checker's verdict on this answer may be wrong, as short labels (empty: no doubt)."""
    text = (answer or "").strip()
    if not text:
        return ["no answer"]
    cues = [label for label, pattern, _ in CUES if pattern.search(text)]
    items = [p for p in _ITEMS.split(text) if p and len(p.strip()) > 1]
    if len(items) >= 3:
        cues.append(f"candidates: {len(items)}")
    sentences = [s for s in _SENTENCES.split(text) if s.strip()]
    openings = [" ".join(s.split()[:3]).lower() for s in sentences]
    if len(openings) - len(set(openings)) >= 1:
        cues.append("repeated sentences")
    return cues


def checker_cues(row: dict[str, Any]) -> list[str]:
    """Doubt the checker records itself, read generically from its score row: several candidates
    (a list field named like ``candidates``), or a true flag named like ``hedge``/``negat``/``uncertain``."""
    cues = []
    for name, value in row.items():
        if _CANDIDATES.search(name) and isinstance(value, list) and len(value) > 1:
            cues.append(f"checker: {len(value)} {name}")
        elif _FLAGS.search(name) and value is True:
            cues.append(f"checker: {name}")
    return cues


def doubt(cues: list[str]) -> int:
    """How unsure the checker may be: the cues' weights summed (candidates and repeats weigh 2)."""
    weights = {label: weight for label, _, weight in CUES}
    return sum(weights.get(c, 1 if c == "no answer" else 2) for c in cues)


def _key_text(bench: Any, trace: Trace) -> str:
    """The answer key in words: the benchmark's judge rubric when it has one, else the task's gold."""
    rubric = getattr(bench, "judge_rubric", None)
    if rubric is not None:
        try:
            parts = rubric(trace)
        except Exception:  # a key that cannot be described is shown from the gold below
            parts = None
        if parts is not None:
            return str(parts[1])
    gold = dict(trace.task.gold or {})
    for name in ("reference_answer", "answer", "criterion"):
        if gold.get(name) not in (None, "", []):
            return gold[name] if isinstance(gold[name], str) else repr(gold[name])
    return ""


def _checker_fields(row: dict[str, Any], success_key: str) -> dict[str, Any]:
    """The score row minus bookkeeping and the verdicts shown on their own (checker, human, judge)."""
    hidden = _HIDDEN | {success_key, "checker_success"}
    fields = [(k, v) for k, v in row.items() if k not in hidden and not k.startswith("judge")]
    first = [kv for kv in fields if _FIRST.search(kv[0])]  # what the checker matched, before path metrics
    return dict(first + [kv for kv in fields if kv not in first])


def review_doc(run: int, index: RunIndex, who: str) -> dict[str, Any]:
    """Every episode of run ``run`` as a review card, least sure first (ties in task order)."""
    success_key = str(index.summary.get("success_key") or "success")
    stored = _stored_scores(index.run_dir)
    reviews = load_reviews(index.run_dir)
    bench = None
    items: list[dict[str, Any]] = []
    for i, row in enumerate(index.rows):
        data = read_trace(index, i)
        key = (str(row[1]), int(row[2] or 0))
        scores = stored.get(key)
        bench = bench or _benchmark(data)
        if scores is None:
            scores = _score(bench, data)
        trace = Trace.model_validate({**data, "steps": []})
        answer = trace.final_answer if trace.status == "finished" else None
        cues = answer_cues(answer) + checker_cues(scores)
        review = reviews.get(key)
        items.append(
            {
                "i": i,
                "task_id": key[0],
                "epoch": key[1],
                "query": trace.task.instruction,
                "answer": answer,
                "status": trace.status,
                "key": _key_text(bench, trace),
                "checker": checker_verdict(scores, success_key),
                "checker_fields": _checker_fields(scores, success_key),
                "cues": cues,
                "doubt": doubt(cues),
                "review": None if review is None else review.model_dump(mode="json"),
            }
        )
    items.sort(key=lambda item: -item["doubt"])  # stable: task order within a level of doubt
    return {"run": run, "label": index.label, "who": who, "success_key": success_key, "items": items}
