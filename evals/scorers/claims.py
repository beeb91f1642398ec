"""Sentence-level claim analysis of a free-text answer: what it *asserts*, not what it mentions.

A judge reading "Christian Bale is not the lead actor", "it could be any of A, B or C" or "Is it
Mulholland Drive?" sees no claim that the answer is Christian Bale, A or Mulholland Drive. So an
answer is split into sentences and clauses (``;``, "but", "however", bullets, new lines), and
- a clause with a negation or failure cue ("not", "n't", "no", "never", "error", "sorry") *denies*;
- a sentence with an uncertainty cue ("maybe", "one of these", "either", "could be", "I think")
  *hedges*, and a sentence ending in "?" asks;
- a mention is *asserted* when its clause neither denies nor hedges nor asks.
Mentions of known names are found on normalised tokens, longest match first, so "Godfather"
inside "The Godfather Part II" is not a mention of The Godfather. Numbers exclude the digits of
dates, decimals (ratings), URLs, e-mail addresses and known names; dates are read in any common written
form. Mentions separated only by list separators (commas, "and", "or", bullets) form an
*enumeration*: offering several candidates where one is asked for is not answering.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

from restgraph.evals.scorers.claims_lexicon import (
    ABBREVIATIONS,
    HEDGE,
    STOP,
    TAKE_BACK,
    TITLE_WORDS,
    denies,
)
from restgraph.evals.scorers.claims_values import DATE_PATTERNS, SHORT_YEAR, full_year, number_words, readings
from restgraph.evals.scorers.claims_vocabulary import Alias, Vocabulary, aliases, surname  # noqa: F401  (re-exported)
from restgraph.evals.scorers.tmdb_success import normalise

_SENTENCE_END = re.compile(r"([.!?]+)[\"'”’)\]]*(?:\s+|$)")
#: a suggestion phrased as a question ("How about X?") still puts X forward
_SUGGESTION = re.compile(
    r"(?:how|what) about\b|why not\b|have you (?:tried|heard)\b|(?:may|might|can|could) i suggest\b", re.I
)
_CLAUSE_SPLIT = re.compile(
    # "|" splits, except inside a table row ("| Lead | Cillian Murphy |": one clause)
    r";|•|·|\|(?![^\n]*\|[ \t]*(?:\n|$))|\n+|\s\u2013\s|,(?=\s*not\b)"
    r"|\bbut\b|\bhowever\b|\bwhereas\b|\balthough\b|\bthough\b|\bwhile\b|\bexcept\b|\binstead\b"
    # a relative clause after a comma is a statement of its own ("X is the lead, which also stars Y")
    r"|,(?=\s*(?:which|who|whose)\b)",
    re.I,
)
_MASK = re.compile(
    r"https?://\S+|www\.\S+|[\w.+-]+@[\w-]+\.[\w.]+|(?<![\w/])/[\w\-./]+\.(?:jpe?g|png|svg|webp|gif)\b", re.I
)
_DECIMAL = re.compile(r"\b\d+[.,]\d+\b")
#: what may stand between two items of an enumeration: separators, a parenthetical, list numbering
_LIST_GAP = re.compile(
    r"^(?:\s*\([^()]*\))?[\s,;/&•·|\-–—]*(?:(?:and|or|nor|plus)\b)?[\s,;/&•·|\-–—]*(?:\d{1,2}[.)]\s*)?$", re.I
)

#: an item of a list the vocabulary does not know ("Twin Peaks, True Detective, The Sopranos"): a
#: capitalised phrase between two list separators is still a list item
_UNKNOWN_ITEM = re.compile(
    r"(?<=[,;/&])\s*(?:[A-Z0-9][\w'’.:-]*\s+){0,4}[A-Z0-9][\w'’.:-]*\s*(?=[,;/&]|\s(?:and|or)\b)"
)

_SUBTITLE = re.compile(r"^:\s*(?:[A-Z0-9][\w'’.-]*\s*){1,4}(?=[,;/&]|\s(?:and|or)\b)")


#: a capitalised word's possessive ("Nolan's", "DiCaprio’s"): the name without it, so a possessive name
#: is still that name; contractions of function words ("It's", "That's") stay whole
_POSSESSIVE = re.compile(r"^(.+)['’]s$")
_NOT_POSSESSIVE = {"it", "that", "there", "here", "what", "who", "where", "let", "he", "she", "how", "when"}


#: where a correction follows a denial in the same clause ("not A: B", "not A - B")
_CORRECTION = re.compile(r":\s|\s[-\u2013\u2014]\s|\u2014")


@dataclass(frozen=True)
class Token:
    norm: str
    start: int
    end: int
    capital: bool


@dataclass
class Clause:
    index: int
    sentence: int
    start: int
    end: int
    tokens: list[Token]
    denies: bool
    hedged: bool
    question: bool

    @property
    def asserts(self) -> bool:
        return not (self.denies or self.hedged or self.question)


@dataclass(frozen=True)
class Mention:
    key: str  # canonical name, str(int) for numbers, ISO date for dates
    clause: int
    start: int
    end: int
    asserted: bool
    values: frozenset = frozenset()  # dates: every reading of an ambiguous numeric date


class Analysis:
    """An answer split into clauses, with cached mention finders."""

    def __init__(self, text: str, vocabulary: Iterable[Alias] = ()):
        self.text = text or ""
        self.masked = _MASK.sub(lambda m: " " * len(m.group()), self.text)
        self.clauses: list[Clause] = []
        for s_index, (s_start, s_end, question) in enumerate(self._sentences()):
            sentence_norm = normalise(self.text[s_start:s_end])
            hedged = bool(HEDGE.search(sentence_norm))
            start = s_start
            for m in [*_CLAUSE_SPLIT.finditer(self.text, s_start, s_end), None]:
                for lo, hi in self._denial_scope(start, m.start() if m else s_end):
                    tokens = self._tokens(lo, hi)
                    if tokens or self.text[lo:hi].strip():  # a bare URL is a clause without words
                        self.clauses.append(
                            Clause(
                                len(self.clauses),
                                s_index,
                                lo,
                                hi,
                                tokens,
                                self._denies(tokens),
                                hedged,
                                question,
                            )
                        )
                start = m.end() if m else s_end
        self.mentions = self._names(list(vocabulary))

    def _denial_scope(self, start: int, end: int) -> list[tuple[int, int]]:
        """A clause, split where a denial's correction begins: "It's not A, as many assume: B is ..." denies
        A, not B (a colon or a dash after the negation)."""
        tokens = self._tokens(start, end)
        negation = next((t for t in tokens if self._denies([t])), None)
        if negation is None or self.text[negation.start : negation.end].isupper():  # "NO: 2021-10-24": Norway
            return [(start, end)]
        cut = _CORRECTION.search(self.text, negation.end, end)
        if cut is None:
            return [(start, end)]
        return [(start, cut.start()), (cut.end(), end)]

    def _sentences(self) -> list[tuple[int, int, bool]]:
        out, start = [], 0
        for m in _SENTENCE_END.finditer(self.text):
            word = re.search(r"(\S+)$", self.text[start : m.start()])
            before = re.sub(r"^\W+", "", (word.group(1) if word else "").lower().rstrip("."))
            after = self.text[m.end() : m.end() + 1]
            abbreviation = m.group(1) == "." and (before in ABBREVIATIONS or re.fullmatch(r"[a-z]", before))
            if abbreviation or (after and not re.match(r"[A-Z0-9(\"'“‘#*\-•\W]", after)):
                continue
            out.append(
                (
                    start,
                    m.end(),
                    "?" in m.group(1) and not _SUGGESTION.match(self.text[start : m.end()].strip()),
                )
            )
            start = m.end()
        if self.text[start:].strip():
            out.append(
                (
                    start,
                    len(self.text),
                    self.text.rstrip().endswith("?") and not _SUGGESTION.match(self.text[start:].strip()),
                )
            )
        return out

    def _tokens(self, start: int, end: int) -> list[Token]:
        out = []
        for m in re.finditer(r"[^\W_]+(?:['’][^\W_]+)*|&", self.masked[start:end]):
            word, end_ = m.group(), start + m.end()
            possessive = _POSSESSIVE.match(word)
            if possessive and word[:1].isupper() and possessive.group(1).lower() not in _NOT_POSSESSIVE:
                word, end_ = possessive.group(1), end_ - 2  # "Nolan's" is Nolan: names match
            for norm in normalise(word).split() or ([] if word != "&" else ["and"]):
                out.append(Token(norm, start + m.start(), end_, word[:1].isupper()))
        return out

    # ------------------------------------------------------------------ finders
    def _names(self, vocabulary: list[Alias]) -> list[Mention]:
        """Mentions of known names, longest match first, never overlapping. A cue word inside a
        name ("Don't Look Up") neither denies nor hedges its clause."""
        found: list[tuple[int, Clause, int, int, str, bool]] = []
        by_first: dict[str, list[Alias]] = {}
        for alias in vocabulary:
            by_first.setdefault(alias.tokens[0], []).append(alias)
        for clause in self.clauses:
            norms = [t.norm for t in clause.tokens]
            for i, word in enumerate(norms):
                for alias in by_first.get(word, ()):
                    n = len(alias.tokens)
                    if (
                        tuple(norms[i : i + n]) == alias.tokens
                        and (not alias.capital or clause.tokens[i].capital)
                        and not (
                            alias.alone
                            and i > 0
                            and _first_name(clause.tokens[i - 1])
                            and not self.text[clause.tokens[i - 1].end : clause.tokens[i].start].strip(" .")
                        )
                    ):
                        found.append((n, clause, i, i + n, alias.key, alias.paired))
        taken: set[tuple[int, int]] = set()
        spans = []
        for _n, clause, i, j, key, paired in sorted(found, key=lambda f: (-f[0], f[1].index, f[2])):
            span = {(clause.index, k) for k in range(i, j)}
            if span & taken or (paired and not self._beside_name(clause, i, j, found)):
                continue
            taken |= span
            spans.append((clause, i, j, key))
        for clause in self.clauses:
            free = [t for k, t in enumerate(clause.tokens) if (clause.index, k) not in taken]
            clause.denies = self._denies(free)
            if clause.hedged and len(free) < len(clause.tokens):
                sentence = self.sentence_clauses(clause.sentence)
                clause.hedged = bool(
                    HEDGE.search(
                        " ".join(
                            t.norm
                            for c in sentence
                            for k, t in enumerate(c.tokens)
                            if (c.index, k) not in taken
                        )
                    )
                )
        named = {clause.sentence for clause, *_ in spans}
        for (
            c
        ) in self.clauses:  # "Christian Bale. That's my best guess.": a short hedge takes back the last claim
            said = " ".join(t.norm for t in c.tokens)
            if c.sentence not in named and c.sentence > 0 and len(c.tokens) <= 10 and TAKE_BACK.search(said):
                for before in self.sentence_clauses(c.sentence - 1):
                    before.hedged = True
        out = [
            Mention(key, clause.index, clause.tokens[i].start, clause.tokens[j - 1].end, clause.asserts)
            for clause, i, j, key in spans
        ]
        return sorted(out, key=lambda m: m.start)

    def _beside_name(self, clause: Clause, i: int, j: int, found: list) -> bool:
        """Whether tokens ``i:j`` of ``clause`` are joined to another found name by list separators only."""
        tokens = clause.tokens
        for _n, other, oi, oj, _key, paired in found:
            if other is not clause or paired or (oi, oj) == (i, j):
                continue
            lo, hi = (
                (tokens[oj - 1].end, tokens[i].start) if oj <= i else (tokens[j - 1].end, tokens[oi].start)
            )
            if (oj <= i or j <= oi) and re.fullmatch(r"\s*(?:,|&|and|,\s*and)\s*", self.text[lo:hi]):
                return True
        return False

    def raw(self, needle: str) -> list[Mention]:
        """Case-insensitive occurrences in the raw text (image paths, domains): their clause decides."""
        out = []
        for m in re.finditer(re.escape(needle), self.text, re.I):
            clause = self.clause_at(m.start())
            if clause is not None:
                out.append(Mention(needle, clause.index, m.start(), m.end(), clause.asserts))
        return out

    def clause_at(self, pos: int) -> Clause | None:
        return next((c for c in self.clauses if c.start <= pos < max(c.end, c.start + 1)), None) or (
            self.clauses[-1] if self.clauses and pos >= self.clauses[-1].start else None
        )

    @cached_property
    def dates(self) -> list[Mention]:
        out: list[Mention] = []
        for clause in self.clauses:
            segment = self.masked[clause.start : clause.end]
            for pattern, order in DATE_PATTERNS:
                for m in pattern.finditer(segment):
                    values = readings(m.groups(), order)
                    if values:
                        s, e = clause.start + m.start(), clause.start + m.end()
                        if not any(d.start <= s < d.end for d in out):
                            out.append(
                                Mention(
                                    min(values).isoformat(),
                                    clause.index,
                                    s,
                                    e,
                                    clause.asserts,
                                    frozenset(values),
                                )
                            )
        return sorted(out, key=lambda m: m.start)

    @cached_property
    def short_years(self) -> list[Mention]:
        """Years written as an apostrophe and two digits, outside full dates (key: the full year)."""
        out = []
        for m in SHORT_YEAR.finditer(self.masked):
            clause = self.clause_at(m.start())
            if clause is not None and not any(d.start <= m.start() < d.end for d in self.dates):
                year = str(full_year(m.group(1)))
                out.append(Mention(year, clause.index, m.start(), m.end(), clause.asserts))
        return out

    def numbers(self, exclude: Iterable[Mention] = ()) -> list[Mention]:
        """Numbers in digits or words, outside dates and the ``exclude`` spans (known names)."""
        spans = [(m.start, m.end) for m in [*self.dates, *exclude]] + [
            m.span() for m in _DECIMAL.finditer(self.masked)
        ]
        out = []
        for clause in self.clauses:
            toks = [t for t in clause.tokens if not any(s <= t.start < e for s, e in spans)]
            i = 0
            while i < len(toks):
                t, value, width = toks[i], None, 1
                if t.norm.isdigit():
                    value = int(t.norm)
                else:
                    value, width = number_words([x.norm for x in toks[i:]])
                if value is not None:
                    out.append(
                        Mention(str(value), clause.index, t.start, toks[i + width - 1].end, clause.asserts)
                    )
                i += max(width, 1)
        return out

    # ------------------------------------------------------------------ structure
    def clause(self, mention: Mention) -> Clause:
        return self.clauses[mention.clause]

    def enumerated(self, a: Mention, b: Mention) -> bool:
        """Whether two mentions are neighbouring items of one list ("A, B or C")."""
        first, second = sorted((a, b), key=lambda m: m.start)
        gap = _SUBTITLE.sub("", self.text[first.end : second.start])  # "Twin Peaks: The Return, B"
        return bool(_LIST_GAP.match(gap) or _LIST_GAP.match(_UNKNOWN_ITEM.sub(" ", gap)))

    def enumeration(self, mention: Mention, mentions: list[Mention]) -> list[Mention]:
        """The list ``mention`` is an item of: neighbours joined by list separators, transitively."""
        ordered = sorted(mentions, key=lambda m: m.start)
        i = ordered.index(mention)
        lo = hi = i
        while lo > 0 and self.enumerated(ordered[lo - 1], ordered[lo]):
            lo -= 1
        while hi + 1 < len(ordered) and self.enumerated(ordered[hi], ordered[hi + 1]):
            hi += 1
        return ordered[lo : hi + 1]

    def followed_by(self, mention: Mention, words: Iterable[str], within: int = 3) -> bool:
        """Whether one of ``words`` comes within ``within`` tokens after the mention (a unit)."""
        toks = self.clause(mention).tokens
        after = [t.norm for t in toks if t.start >= mention.end][:within]
        return any(w in after for w in words)

    def ends_clause(self, mention: Mention) -> bool:
        return not [t for t in self.clause(mention).tokens if t.start >= mention.end]

    def sentence_clauses(self, index: int) -> list[Clause]:
        return [c for c in self.clauses if c.sentence == index]

    def _denies(self, tokens: list[Token]) -> bool:
        """A negation cue among ``tokens``; a reply's opening "No," answers what came before (a yes/no
        word, ``claims_polarity``), it does not deny the statement that follows it ("No, the lead is A")."""
        words = [t.norm for t in tokens]
        if (
            words
            and words[0] in ("no", "nope")
            and re.match(r"\s*[,:;\u2013\u2014-]", self.text[tokens[0].end :])
        ):
            words = words[1:]
        return denies(words)


def _first_name(t: Token) -> bool:
    """Whether a token before a surname reads as another person's first name or initial."""
    return t.capital and t.norm not in TITLE_WORDS and t.norm not in STOP


def topic_prefixes(text: str) -> set[str]:
    """A question's content words as 4-letter prefixes (so "directed" meets "director")."""
    return {w[:4] for w in normalise(text).split() if len(w) >= 3 and w not in STOP}
