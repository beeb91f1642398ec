"""One statement made twice with different answers: "The lead actor is A. The lead actor is B.",
"Recommendations for X: A and B. Recommendations for X: C, D and E.", "Y stars in it. Y does not star in
it."

A careful judge reads a sentence that repeats another's opening words (the frame: "The lead actor is",
"Tim Robbins, lead actor of The Shawshank Redemption, was born on") with a different value after them as
a second answer to the same question, whichever of the two is right; and the same sentence said once
with and once without a negation as no answer at all. The frame must open both sentences (three words or
more, two of them outside names, ending in a colon, a copula or a preposition), so "A stars in X. B
stars in X." (two facts with a common ending) is no restatement, nor a list of titles that share words
("4. Fast & Furious 5. Fast Five"); a second sentence that adds ("The stars are also ...") is none either.
A sentence that opens with a pronoun for the other's subject says the same thing of it ("Nolan's latest
movie is A. His latest movie is B.", "Margot Robbie was born on d1. She was born on d2.", "The top film
was directed by A. It was directed by B."): the pronoun stands for the other's first words (up to five).
A value is also a URL or an e-mail address ("Your user name is A. Your user name is a@b.com").
"""

from __future__ import annotations

import re

from restgraph.evals.scorers.claims import Analysis, Clause, Token

#: a frame's minimum length in words, and its minimum share of the shorter sentence
FRAME_WORDS = 3
#: the frame's words outside names and numbers: a statement's words, not a repeated title
FRAME_FREE = 2
_ADDS = {"also", "too", "and", "plus", "as", "well"}


def _stated(a: Analysis) -> list[list[Clause]]:
    """Each sentence's stated clauses (no question, no hedge), sentences in order."""
    out: dict[int, list[Clause]] = {}
    for c in a.clauses:
        if not c.question and not c.hedged:
            out.setdefault(c.sentence, []).append(c)
    return list(out.values())


def _sentences(a: Analysis) -> list[tuple[list[Token], int]]:
    """Each stated sentence's words, and where it ends."""
    out = [([t for c in clauses for t in c.tokens], clauses[-1].end) for clauses in _stated(a)]
    return [(tokens, end) for tokens, end in out if tokens]


#: a sentence's first word that stands for the previous sentence's subject
_PRONOUNS = {"he", "she", "it", "they", "his", "her", "its", "their"}
#: how many words a pronoun may stand for ("The top-rated movie" -> "It")
_SUBJECT_WORDS = 5


def _alignments(x: list[Token], y: list[Token]) -> list[tuple[list[Token], list[Token]]]:
    """The two sentences as they are, and, when the later one opens with a pronoun (which points back, so
    "He was born on d1. The film's lead, B, was born on d2." speaks of two people), each pairing of the rest
    of it with the earlier sentence less its first one to five words (its subject)."""
    out = [(x, y)]
    if y[0].norm in _PRONOUNS and x[0].norm not in _PRONOUNS:
        out += [(x[k:], y[1:]) for k in range(1, min(_SUBJECT_WORDS, len(x) - 1) + 1)]
    return out


def _split(x: list[Token], y: list[Token]) -> tuple[int, int]:
    """The lengths of the common opening and the common ending of two sentences' words."""
    p = 0
    while p < min(len(x), len(y)) and x[p].norm == y[p].norm:
        p += 1
    q = 0
    while q < min(len(x), len(y)) - p and x[-1 - q].norm == y[-1 - q].norm:
        q += 1
    return p, q


def _values(a: Analysis, lo: int, hi: int) -> set[str]:
    """What a stretch of text names: known names (by their key), dates, numbers, capitalised words, URLs and
    e-mail addresses."""
    tokens = [t for c in a.clauses if c.end > lo and c.start < hi for t in c.tokens if lo <= t.start < hi]
    masked = {  # what ``claims`` masks out of its words (URLs, e-mail addresses, image paths)
        w.group().strip(".,;:!?)(").lower()
        for w in re.finditer(r"\S+", a.text[lo:hi])
        if a.masked[lo + w.start()].isspace()
    }
    named = [m for m in [*a.mentions, *a.dates] if lo <= m.start < hi]
    inside = [(m.start, m.end) for m in named]
    rest = {
        t.norm
        for t in tokens
        if not any(s <= t.start < e for s, e in inside) and (t.norm.isdigit() or a.text[t.start].isupper())
    }
    return {m.key for m in named} | rest | masked


#: words a frame ends with: a copula, a naming or starring verb, a preposition before the value
_FRAME_END = {
    *["is", "are", "was", "were", "be", "called", "named", "titled", "stars", "star", "starring"],
    *["include", "includes", "on", "in", "by", "for", "of", "as", "to", "from", "at", "with"],
}


def _frame(a: Analysis, x: list[Token], p: int) -> int:
    """The common opening backed off (by two words at most) to where a value starts: after a colon or a
    ``_FRAME_END`` word; 0 when there is no such place."""
    for k in range(p, max(p - 3, 0), -1):
        if k < len(x) and (x[k - 1].norm in _FRAME_END or ":" in a.text[x[k - 1].end : x[k].start]):
            return k
    return 0


def _free(a: Analysis, tokens: list[Token]) -> list[Token]:
    spans = [(m.start, m.end) for m in [*a.mentions, *a.dates]]
    return [t for t in tokens if not t.norm.isdigit() and not any(s <= t.start < e for s, e in spans)]


def restated(a: Analysis) -> str | None:
    """The first two different values an answer gives after the same frame, as "A / B"; None if none."""
    sentences = _sentences(a)
    for i, (whole_x, end_x) in enumerate(sentences):
        for whole_y, end_y in sentences[i + 1 :]:
            for x, y in _alignments(whole_x, whole_y):
                p = _frame(a, x, _split(x, y)[0])
                if p < FRAME_WORDS:
                    continue
                if y[p:] and y[p].norm in _ADDS:
                    continue
                if (
                    len(_free(a, x[:p])) < FRAME_FREE
                ):  # a title's words repeated ("Fast & Furious 6") are no frame
                    continue
                one = _values(a, x[p - 1].end, end_x)
                two = _values(a, y[p - 1].end, end_y)
                if one and two and not one & two:  # nothing in common: another value, not more of the same
                    return f"{' '.join(sorted(one))[:40]} / {' '.join(sorted(two))[:40]}"
    return None


_NEGATION = {"not", "never", "no", "doesnt", "dont", "didnt", "isnt", "wasnt", "arent", "does", "do", "did"}


def contradicted(a: Analysis) -> bool:
    """Whether two sentences say the same thing once with and once without a negation ("Y stars in it. Y
    does not star in it."): the same words but for negation words and a verb's ending."""

    def core(tokens: list[Token]) -> list[str]:
        return [re.sub(r"(?:s|ed)$", "", t.norm) for t in tokens if t.norm not in _NEGATION]

    sentences = [
        ([t for c in clauses for t in c.tokens], any(c.denies for c in clauses)) for clauses in _stated(a)
    ]
    return any(
        denies_x != denies_y and len(x) >= FRAME_WORDS and core(x) == core(y)
        for n, (x, denies_x) in enumerate(sentences)
        for y, denies_y in sentences[n + 1 :]
    )


#: what splits an answer into groups offered side by side: a slash between spaces, a new line
_GROUP_SPLIT = re.compile(r"\s/\s|\n+")
#: a group's items: split at commas, "and", "&"
_ITEM_SPLIT = re.compile(r"\s*(?:,\s*(?:and\s+)?|\s&\s|\sand\s)\s*")


def alternative_lists(a: Analysis) -> bool:
    """Whether the answer is two or more lists offered side by side ("A, B and C / D and E", one list a
    line): every group nothing but names (known ones, or capitalised words) joined by commas or "and", and
    two of them lists of two items or more. A list is one answer; several with nothing choosing between
    them are a dump (one item a line is one list)."""
    spans = [(m.start, m.end) for m in a.mentions]
    groups = 0
    start = 0
    for cut in [*_GROUP_SPLIT.finditer(a.text), None]:
        end = cut.start() if cut else len(a.text)
        text = list(a.text[start:end])
        for s, e in spans:  # a known name is one opaque item
            if start <= s and e <= end:
                text[s - start : e - start] = ["N"] + [""] * (e - s - 1)
        group = "".join(text).strip(" .;-*•")
        items = [i for i in _ITEM_SPLIT.split(group) if i]
        if group and not all(re.fullmatch(r"(?:[A-Z0-9][\w'’:.+-]*\s*)+", i) for i in items):
            return False  # a group that says something else: no side-by-side lists
        groups += len(items) >= 2
        start = cut.end() if cut else end
    return groups >= 2
