"""What the browsing agents decide about an answer before it leaves them: only whether it is an
abstention (the ensembles fall back to the closed-book answerer on one).

The answer itself leaves the agent raw, as the model wrote it: the official AssistantBench scorer
receives it unchanged (faithful by default). Rewriting answers into the scorer's preferred shapes
("1,010,000" -> 1010000, bullet lists -> JSON arrays, "unknown" -> abstain) is a scoring option,
``-B normalize_answers=1`` (``restgraph.evals.scorers.assistantbench_normalize``), reported as such.
"""

from __future__ import annotations

from restgraph.agents.parsing import strip_fences

#: replies that mean "no answer" (SPA's protocol asks for an empty string; models also say these)
ABSTAIN_WORDS = frozenset(
    {
        "",
        "none",
        "null",
        "n/a",
        "na",
        "unknown",
        "i don't know",
        "i do not know",
        "no answer",
        "not found",
        "cannot determine",
        "[]",
        "{}",
        '""',
    }
)


def is_abstention(raw: str | None) -> bool:
    """True for no answer: empty, whitespace, or one of ``ABSTAIN_WORDS`` (case, fences and a final
    period ignored)."""
    if raw is None:
        return True
    text = strip_fences(str(raw)).strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'`":
        text = text[1:-1].strip()
    return text.lower().rstrip(".") in ABSTAIN_WORDS
