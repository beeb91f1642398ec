"""What an answer *commits to*: the one rule, per kind of value, that decides which candidates it offers
as its answer (as opposed to naming them in passing).

A careful judge reads "The lead actor is A. The lead actor is B." or "A | B | C" as several answers
offered for one, and "A leads the cast, alongside B" as one answer (A) with a supporting fact. The rule,
written once and used for every kind of candidate (people, titles, places, genres, keywords, image
paths, URLs, numbers, dates):

- nothing counts once the answer says it could not check ("could not check", "no data", "the request
  returned an error", "I can't confirm"): a failure statement is not an answer (``unverified``);
- a candidate said before a retraction ("scratch that", "actually, no", "correction:") or a fresh look
  at the data ("Wait, counting again, ...") is withdrawn;
- a denied, hedged or asked candidate is not committed to (``claims.Clause.asserts``);
- a candidate alone in its clause (besides filler such as "it's" or "or") is committed to, whatever
  separates it from the next (sentences, new lines, ``|``, ``!``);
- in the sentences that speak most about the question's topic (most distinct words of the key's
  ``asks``), the candidate nearest a topic word is committed to: "The lead actor is A, with B as Batman"
  commits to A;
- every item of a list a committed candidate belongs to is committed to ("A, B or C");
- with none of the above, the answer's first asserted candidate is what it commits to.

For a single-answer key, ``focus`` first sets aside the names that are context (ranked below another,
another one, possessive) and picks the sentence that gives the answer (a conclusion; one candidate
over a list; the question's subject over something else).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from restgraph.evals.scorers import focus
from restgraph.evals.scorers.claims import Analysis, Mention, Token, topic_prefixes
from restgraph.evals.scorers.tmdb_success import normalise

#: a statement that the answer could not be found or checked: nothing in such an answer is asserted
UNVERIFIED = re.compile(
    r"\b(?:cant|cannot|can not|couldnt|could not|unable to|wasnt able to|werent able to|not able to|"
    r"was not able to|did not manage to|failed to)\s+(?:\w+\s+){0,2}?"
    r"(?:check|confirm|verify|access|retrieve|reach|fetch|get|find|look up|determine|load|read|count|see"
    r"|recommend|suggest|answer|say|tell|give|provide)\b"
    r"|\bno data\b|\bno results?\b|\breturned (?:an? )?(?:error|[45]\d\d)\b|\brequest (?:failed|errored)\b"
    r"|\b(?:api|call|request|lookup|search) (?:call )?(?:failed|errored|timed out)\b|\bnot verified\b|\bunverified\b"
    r"|\b(?:error|http|status) [45]\d\d\b|\b[45]\d\d (?:error|forbidden|not found|unauthorized|too many)\b"
)
#: a withdrawal: what came before it is no longer the answer
RETRACTION = re.compile(
    r"scratch that|\bcorrection\b|on second thought|\bno wait\b|\bmake that\b|\bi mean\b|\bi meant\b"
    r"|\b(?:actually|wait|oops|sorry)\s*[,:;.!\u2013\u2014-]*\s*(?:no\b|its\b|it['’]s\b|it is\b|it was\b|that should be\b)"
    # an apology for what was just said takes it back ("A. Sorry, my mistake: B", "A, apologies, it was B")
    r"|\b(?:my (?:mistake|bad|error)|apologies|i apologi[sz]e|whoops)\b|(?<=[.!?,;\u2013\u2014-])\s*sorry\b"
    # a dash and "no" that corrects ("https://a.com - no, the right one is https://b.com")
    r"|\s[\u2013\u2014-]+\s*no\b\s*[,:;.!]"
    # a fresh look at the data ("Wait, counting again, ...", "On a closer look, ...")
    r"|(?:^|[.!?]\s+)(?:wait|hold on|hmm+)\b|\b(?:counting|looking|checking) again\b|\brecount(?:ing)?\b"
    r"|\bon (?:a )?closer look\b|\bre-?checking\b",
    re.I,
)
#: words that leave a clause "bare": nothing but the candidate is said
FILLER = {
    *[
        "it",
        "its",
        "is",
        "was",
        "are",
        "were",
        "the",
        "a",
        "an",
        "and",
        "or",
        "also",
        "then",
        "so",
        "just",
        "only",
        "that",
        "this",
        "these",
        "here",
        "heres",
        "thats",
        "theres",
    ],
    *[
        "answer",
        "final",
        "result",
        "response",
        "he",
        "she",
        "they",
        "s",
        "definitely",
        "surely",
        "certainly",
        "ok",
        "okay",
        "yes",
        "well",
    ],
}
#: words that only link a candidate to the question's words ("X is currently the most popular")
LINKS = FILLER | {
    *["be", "been", "being", "currently", "now", "today", "right", "of", "on", "in", "at", "by", "as", "for"],
    *["tmdb", "his", "her", "their", "called", "named", "titled", "played", "plays", "directed"],
}


def unverified(a: Analysis) -> bool:
    return bool(UNVERIFIED.search(normalise(a.text)))


def retraction_end(a: Analysis) -> int:
    """Where the last retraction ends (0: none): candidates before it are withdrawn. A sentence that opens
    with "Actually," or "In fact," after another one retracts it when it names something itself ("A.
    Actually, B has the highest popularity"); without a name or a value it adds a remark ("A. Actually,
    he also produced it.")."""
    ends = [m.end() for m in RETRACTION.finditer(a.text)]
    for m in _SECOND_THOUGHT.finditer(a.text):
        stop = _SENTENCE_STOP.search(a.text, m.end())
        end = stop.start() if stop else len(a.text)
        rest = a.text[m.end() : end]
        if _REMARK.match(rest) or re.search(r"\b(?:also|too|as well)\b", rest, re.I):
            continue  # about the answer just given ("Actually, he also produced it")
        if any(m.end() <= n.start < end for n in a.mentions) or re.search(r"\d|\b[A-Z][a-z]+", rest):
            ends.append(m.end())
    return max(ends) if ends else 0


#: a later sentence that opens with a second thought
_SECOND_THOUGHT = re.compile(r"(?<=[.!?])\s+(?:actually|in fact|in reality|on reflection)\b\s*[,:]?", re.I)
_SENTENCE_STOP = re.compile(r"[.!?](?:\s|$)")
#: a second thought that goes on about what was just said
_REMARK = re.compile(r"\s*(?:he|she|they|that|this|these|those|his|her|their)\b", re.I)


#: the words an answer uses for a question's word (4-letter prefixes): "Bale stars", "the top-billed
#: actor", "his newest film", "born on", a small table of English, the same for every key
SYNONYMS = {
    "lead": {"star", "bill", "head", "main", "prot"},
    "late": {"newe", "rece", "last"},
    "high": {"top", "best"},
    "rate": {"rati", "scor"},
    "dire": {"helm", "made", "make"},
    "birt": {"born"},
}


def question_prefixes(asks: str) -> set[str]:
    """The question's content words, its parenthesised asides left out (``claims.topic_prefixes``), and
    their ``SYNONYMS``."""
    words = topic_prefixes(re.sub(r"\([^)]*\)", " ", asks)) - KIND_NOUNS
    return words | {w for word in words for w in SYNONYMS.get(word, ())}


#: the nouns that say what kind of thing is asked ("latest movie", "TV show"): every candidate's sentence
#: may say them ("X is the movie he is known for"), so they say nothing about which one is the answer
KIND_NOUNS = {"movi", "film", "show", "seri", "albu", "trac", "song"}


def standing(a: Analysis, mentions: Iterable[Mention]) -> list[Mention]:
    """The asserted mentions that survive the answer-level rules (failure statement, retraction), outside
    clauses that only report a name as present somewhere (``reported``)."""
    if unverified(a):
        return []
    cut = retraction_end(a)
    return [m for m in mentions if m.asserted and m.start >= cut and not reported(a, m)]


#: a clause that says a name is present somewhere, not that it answers: "(X also shows up in the results,
#: but further down)", "(Y is listed too)", "Z appears further down the list"
_PRESENCE = re.compile(
    r"\b(?:shows? up|turns? up|comes? up|appears?|(?:is|are) (?:also )?listed)\b[^.;]*?"
    r"\b(?:too|also|as well|further down|lower down|in the (?:results|list|response|search))\b"
    r"|\b(?:also|too)\b[^.;]*?\b(?:shows? up|turns? up|comes? up|appears? in the|listed)\b",
    re.I,
)


def reported(a: Analysis, m: Mention) -> bool:
    """Whether ``m``'s clause only reports it as present in the data ("X also shows up in the results")."""
    clause = a.clause(m)
    return bool(_PRESENCE.search(a.text[clause.start : clause.end]))


def committed(
    a: Analysis,
    candidates: list[Mention],
    topic: set[str],
    names: Iterable[Mention] = (),
    unlisted: Iterable[Mention] = (),
    single: bool = False,
    subject: Iterable[str] = (),
    fallback: bool = True,
    kinds: dict[str, str] | None = None,
) -> list[Mention]:
    """The candidates (already ``standing``) the answer commits to, by the rule in the module docstring.
    ``names``: every other known name in the answer (its words are neither filler nor topic);
    ``unlisted``: candidates never committed to just for sharing a list with a committed one;
    ``single``: the key asks for one answer, so ``focus`` decides which sentence gives it (a conclusion,
    not context, the question's ``subject`` names, one candidate rather than a list); ``fallback``: with
    nothing else committed to, the first candidate is (not for an optional list: a title named in
    passing is no item of it); ``kinds`` (name -> person/title): a candidate in a clause about another
    thing than the ``subject`` is set aside (``focus.about_other``)."""
    if not candidates:
        return []
    names = list(names)
    spans = [(m.start, m.end) for m in [*candidates, *names]]
    everything = candidates
    subject = set(subject)
    if kinds and subject and not single:  # a list's items: not in a clause about something else
        # (not for a single answer: a role named like a title, "Bale stars as Batman", is no other thing)
        keys = {m.key for m in candidates}
        others = [m for m in names if m.key not in keys]
        candidates = [m for m in candidates if not focus.about_other(a, m, others, subject, kinds)]
        if not candidates:
            return []
    if single:
        own = [m for m in candidates if not focus.possessive(a, m)]
        candidates = [m for m in own if not focus.context(a, m, [*everything, *names])] or own or candidates
        candidates = [m for m in candidates if focus.conclusion(a, a.clause(m).sentence)] or candidates
    subject_clauses = {m.clause for m in names if m.key in subject}
    subject_sentences = {a.clauses[c].sentence for c in subject_clauses}

    def free(clause_tokens: list[Token]) -> list[Token]:  # the clause's words outside any name
        return [t for t in clause_tokens if not any(s <= t.start < e for s, e in spans)]

    chosen = {
        m
        for m in candidates
        if bare(a, m, spans)
        and (m not in unlisted or all(o.clause != m.clause for o in candidates if o != m))
    }
    by_sentence: dict[int, list[Mention]] = {}
    for m in candidates:
        by_sentence.setdefault(a.clause(m).sentence, []).append(m)
    scores: dict[int, list] = {}
    for sentence, inside in by_sentence.items():
        tokens = [t for c in a.sentence_clauses(sentence) for t in free(c.tokens)]
        hits = [t for t in tokens if len(t.norm) >= 3 and t.norm[:4] in topic]
        if hits or sentence in subject_sentences:
            score = len({t.norm[:4] for t in hits}) + (sentence in subject_sentences)
            scores[sentence] = [score, hits, inside]
    ranked = list(scores.values())
    if single:  # one candidate stated beats a list of them (an API response) as the answer
        ranked = [s for s in ranked if len({m.key for m in s[2]}) == 1] or ranked
    best = max((s[0] for s in ranked), default=0)
    for _score, hits, inside in (s for s in ranked if s[0] == best):
        sentence_tokens = [
            t for c in a.sentence_clauses(a.clause(inside[0]).sentence) for t in free(c.tokens)
        ]

        def distance(m: Mention, hits=hits, sentence_tokens=sentence_tokens) -> tuple[int, int, int, int]:
            """The clause that says most of the question's words first ("A directed X; the top-rated
            movie, Y, was directed by B": B), then the topic word's own clause, then how many words that
            are more than a link ("is the", "of"; a conjunction is more) stand between ("X is currently
            the most popular" beats "..., ahead of Y"), then characters."""

            def words_between(t: Token) -> int:  # noqa: B023 - called before the loop moves on
                lo, hi = (m.end, t.start) if t.start >= m.end else (t.end, m.start)
                return sum(
                    1
                    for x in sentence_tokens
                    if lo <= x.start < hi and (x.norm not in LINKS or x.norm in _CONJUNCTIONS)
                )

            own = -len({t.norm[:4] for t in hits if a.clause_at(t.start) == a.clause(m)}) - int(
                m.clause in subject_clauses
            )
            return min(
                (
                    own,
                    int(a.clause_at(t.start) != a.clause(m)),
                    words_between(t),
                    t.start - m.end if t.start >= m.end else m.start - t.end,
                )
                for t in hits
            )

        if not hits:  # a sentence about the question's subject without its words: all of it
            chosen |= set(inside)
            continue
        nearest = min(distance(m) for m in inside)
        chosen |= {m for m in inside if distance(m) == nearest}
    if single:  # "A. Or B, if ...": a sentence that opens with "or" offers another answer
        chosen |= {
            m
            for m in candidates
            if chosen
            and (_ALTERNATIVE.match(a.text[a.clause(m).start : m.start]) or focus.aside_alternative(a, m))
        }
    if not chosen and single:  # nothing says which: each sentence's first candidate is offered
        firsts: dict[int, Mention] = {}
        for m in sorted(candidates, key=lambda m: m.start):
            firsts.setdefault(a.clause(m).sentence, m)
        chosen |= set(firsts.values())
    if single and any(focus.list_item(a, m) for m in chosen):  # the quoted list is data when a
        stated = {m for m in chosen if not focus.list_item(a, m)}  # statement elsewhere gives the answer
        chosen = stated or chosen
    if not chosen and fallback:
        chosen.add(min(candidates, key=lambda m: m.start))
    for m in list(chosen):  # past its clause, a list goes on through clauses of bare names only ("A; B")
        items = {o for o in a.enumeration(m, everything) if o.clause == m.clause or bare(a, o, spans)}
        chosen |= items - (set(unlisted) - chosen)
    return sorted(chosen, key=lambda m: m.start)


_CONJUNCTIONS = {"and", "or"}
#: a clause that opens as an alternative to what came before ("Or Tenet, if ...", "Alternatively, ...")
_ALTERNATIVE = re.compile(r"^[\s\W]*(?:or|alternatively|otherwise|else)\b", re.I)


def bare(a: Analysis, m: Mention, spans: list[tuple[int, int]]) -> bool:
    """Whether ``m``'s clause says nothing but names, numbers and filler ("It's A." "| A |" "Or A!"); a
    parenthesis is an aside ("A (Bruce Wayne). B (Joker).")."""
    clause = a.clause(m)
    asides = [  # the parentheses around ``m`` itself are no aside from it
        x.span()
        for x in re.finditer(r"\([^()]*\)", a.text[clause.start : clause.end])
        if not x.start() <= m.start - clause.start < x.end()
    ]
    return all(
        t.norm in FILLER or t.norm.isdigit()
        for t in clause.tokens
        if not any(s <= t.start < e for s, e in spans)
        and not any(s <= t.start - clause.start < e for s, e in asides)
    )


def disjunctive(a: Analysis, items: list[Mention]) -> bool:
    """Whether a list of two or more candidates is offered as alternatives ("A or B", "either A or B")."""
    ordered = sorted(items, key=lambda m: m.start)
    return len({m.key for m in ordered}) >= 2 and any(
        re.search(r"\bor\b", a.text[x.end : y.start], re.I)
        for x, y in zip(ordered, ordered[1:], strict=False)
    )
