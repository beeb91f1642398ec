"""The words ``claims`` reads an answer by: abbreviations that do not end a sentence, stop words,
negation, hedge, failure and take-back cues, and the words that may stand before a surname.

Apart from ``claims`` (which splits and reads) so the word lists, the part a reviewer adjusts, are in
one place; each list says why it holds what it holds.
"""

from __future__ import annotations

import re

#: words whose final dot ends no sentence ("Dr.", "vs.", "Dec. 18")
ABBREVIATIONS = {
    "no",
    "mr",
    "mrs",
    "ms",
    "dr",
    "st",
    "jr",
    "sr",
    "vs",
    "vol",
    "ltd",
    "inc",
    "co",
    "bros",
    "corp",
    "feat",
    "ft",
    "approx",
    "ca",
    "ep",
    "pt",
    "etc",
    "e.g",
    "i.e",
    "b",
    "d",
    *["jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"],  # "Dec. 18, 2001"
}
#: function words: never a question's topic word nor another person's first name
STOP = {
    "the",
    "and",
    "whether",
    "which",
    "what",
    "who",
    "whom",
    "with",
    "from",
    "that",
    "this",
    "are",
    "is",
    "was",
    "were",
    "has",
    "have",
    "for",
    "its",
    "their",
}
#: words that make their clause deny what it names (failure words too: "error", "sorry")
NEGATION = {
    "not",
    "no",
    "never",
    "none",
    "neither",
    "nor",
    "nothing",
    "nobody",
    "cannot",
    "cant",
    "couldnt",
    "isnt",
    "arent",
    "wasnt",
    "werent",
    "didnt",
    "doesnt",
    "dont",
    "hasnt",
    "havent",
    "hadnt",
    "wont",
    "wouldnt",
    "aint",
    "outside",
    "unable",
    "failed",
    "fails",
    "error",
    "sorry",
    "unfortunately",
}
#: uncertainty cues: a sentence with one offers, it does not assert
_HEDGES = [
    r"\bmaybe\b",
    r"\bperhaps\b",
    r"\bpossibly\b",
    r"\bpossible\b",
    r"\bprobably\b",
    r"\bpresumably\b",
    r"(?<!\byou )\b(?:might|could|may) (?:be|include|have)\b",
    r"\b(?:may|might|could) or (?:may|might|could) not\b",  # "it may or may not be in the list"
    r"\bone of (?:these|them|those|the following)\b",
    r"\b(?:is|was|be|are|its|thats) one of\b",
    r"\bany of\b",
    r"\beither\b",
    r"\bwhichever\b",
    r"\bnot sure\b",
    r"\bunsure\b",
    r"\bi (?:think|believe|guess)\b",
    r"\bnot certain\b",
    r"\b(?:cant|cannot|can not) (?:tell|confirm|say)\b",
    r"\bhard to say\b",
    r"\b(?:somewhere|sometime) between\b",
    r"\bsomewhere (?:in|among)\b",
    r"\bdepending on\b",
    r"\bor so\b",
    r"\baround the same time\b",
    r"\bnot clear\b",
    r"\bunclear\b",
    r"\blikely\b",
    r"\bseems?\b",
    r"\bappears? to be\b",
    r"\bshould be\b",
    r"\b(?:usually|typically|generally)\b",
    r"\bnot (?:\w+ ){0,2}sure\b",
    r"\bif im not mistaken\b",
    r"\b(?:as far as i know|to my knowledge|i suspect|my guess|best guess)\b",
    r"\b(?:id|i would|im) (?:guess|guessing)\b|\bif i (?:had|have) to (?:pick|choose|guess)\b",
]
HEDGE = re.compile("|".join(_HEDGES))
#: a statement that the lookup failed: no yes/no is read from it
FAILURE = re.compile(
    r"\b(?:error|failed|fails|unable|sorry|couldnt|could not|cannot|cant|timed out|timeout|unavailable|returned [45]\d\d|forbidden)\b"
)
#: capitalised words that may stand before a surname without being another first name
TITLE_WORDS = {
    "its",
    "it",
    "yes",
    "no",
    "director",
    "actor",
    "actress",
    "mr",
    "mrs",
    "ms",
    "dr",
    "sir",
    "dame",
}


#: a short sentence that doubts the claim before it ("That's my best guess.", "Not 100% sure.")
TAKE_BACK = re.compile(
    r"\b(?:guess|unsure|not (?:\w+ ){0,2}(?:sure|certain|confident)|i (?:think|believe)|if im not mistaken"
    r"|dont quote me|(?:could|might|may) be wrong)\b"
)
#: "no" and "without" in phrases of certainty ("no doubt", "there's no question"), which deny nothing
_CERTAINTY = {"doubt", "question", "questions", "doubts"}


_NOT_OUTSIDE = {"not", "isnt", "wasnt", "arent", "werent", "never"}


def denies(words: list[str]) -> bool:
    """Whether words (normalised) deny: a negation cue, but not "no 2" (a number), "no doubt", "not only"
    (which adds: "not only A but also B") or "not outside" (a double negation)."""
    return any(
        w in NEGATION
        and not (w == "no" and i + 1 < len(words) and (words[i + 1].isdigit() or words[i + 1] in _CERTAINTY))
        and not (w == "not" and i + 1 < len(words) and words[i + 1] in ("only", "just"))
        # "not outside the top 10": a double negation affirms
        and not (w in _NOT_OUTSIDE and i + 1 < len(words) and words[i + 1] == "outside")
        and not (w == "outside" and i > 0 and words[i - 1] in _NOT_OUTSIDE)
        for i, w in enumerate(words)
    )
