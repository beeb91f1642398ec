"""Answer keys for RestBench (TMDB, and the Spotify queries whose success reads the answer).

A key says what a careful judge checks, in data a reviewer can read at a glance
(``evals/scorers/keys/{tmdb,spotify}.yaml``, one entry per query id)::

    2:
      asks: the lead actor of The Dark Knight
      require:
      - one_of: [Christian Bale]      # a single answer: asserted, not offered among candidates
        kind: person                  # "Bale, Christian" and "BALE" count
        distractors: [Heath Ledger]   # wrong names a tempting answer gives

A key holds when every requirement holds (``judge``). The rule of each kind of requirement is in
``key_rules`` (one_of, some_of, number, dates/year, polarity, winner/loser); what an answer *commits to*
(not what it mentions) is ``commitment``'s one rule for every kind; the written forms a name may take
are ``name_forms``'; catalogue-wide distractors (``wrong_from``: a literal ``catalogue`` list of the key
file, or a pool of the sandbox's facts: keywords, genres, places, homepages) are ``key_pools``'. An
answer that says it could not find or check the answer passes no key.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import yaml

from restgraph.evals.scorers import commitment, restatement
from restgraph.evals.scorers.claims import Alias, Analysis, Vocabulary
from restgraph.evals.scorers.key_pools import pools
from restgraph.evals.scorers.key_rules import check
from restgraph.evals.scorers.key_schema import AnswerKey, Requirement  # noqa: F401  (Requirement: re-exported)
from restgraph.evals.scorers.name_forms import common_surnames, surnames
from restgraph.evals.scorers.tmdb_success import normalise

KEYS_DIR = Path(__file__).with_name("keys")


@cache
def load_keys(scenario: str) -> dict[int, AnswerKey]:
    """The keys of ``scenario`` (``tmdb``, ``spotify``), ``wrong_from`` resolved against the file's
    ``catalogue`` (a literal list: names added to a sandbox later are not distractors)."""
    # libyaml's safe loader when built in: the same data, ~10x faster than the pure-Python one (~0.5 s of
    # a TMDB run's start-up)
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    raw = yaml.load((KEYS_DIR / f"{scenario}.yaml").read_text(encoding="utf-8"), Loader=loader)  # noqa: S506
    names: dict[str, list[str]] = raw.pop("catalogue", {})
    catalogue = {**pools(), **names}
    keys = {}
    for k, v in raw.items():
        key = AnswerKey.model_validate(v)
        for r in key.require:
            if r.wrong_from is not None:
                if r.wrong_from not in catalogue:
                    raise ValueError(
                        f"{scenario} key {k}: wrong_from {r.wrong_from!r} is not a catalogue list ({sorted(catalogue)})"
                    )
                keep = {n.lower() for n in [*r.names(), *key.context]}
                if r.wrong_from not in names:  # a pooled value that is also a title or a name is that name
                    keep |= {normalise(n) for items in names.values() for n in items}
                added = [
                    n for n in catalogue[r.wrong_from] if n.lower() not in keep and normalise(n) not in keep
                ]
                r.distractors = [*r.distractors, *added]
                if r.wrong_from not in names:
                    r._pooled = set(added)
        key._neutral = [
            ("person" if pool == "people" else "title", n) for pool, items in names.items() for n in items
        ]
        keys[int(k)] = key
    return keys


#: answers remembered per key (about 0.5 KB each): enough for every distinct answer of a sweep's epochs
VERDICTS_PER_KEY = 512


def verdict(scenario: str, query_id: int, answer: str | None) -> tuple[bool, str]:
    """The rule checker's verdict on one answer to RestBench ``scenario`` query ``query_id``.

    An answer the key has judged before gets the same verdict without a second analysis (3-4 ms of
    CPU a TMDB answer; a 1,000-episode run scored each answer at its episode's end and again in its
    summary, and ten epochs of a deterministic model give each answer ten times)."""
    key = load_keys(scenario)[query_id]
    if answer is None:
        return judge(key, answer)
    known = key._verdicts.get(answer)
    if known is None:
        known = judge(key, answer)
        if len(key._verdicts) < VERDICTS_PER_KEY:
            key._verdicts[answer] = known
    return known


def _vocabulary(key: AnswerKey) -> Vocabulary:
    if key._vocabulary is None:
        key._vocabulary = _build_vocabulary(key)
    vocab: Vocabulary = key._vocabulary
    return vocab


def _build_vocabulary(key: AnswerKey) -> Vocabulary:
    vocab = Vocabulary()
    for name in key.context:
        vocab.add(name, "title")
    for r in key.require:
        if r.kind in ("path", "domain"):
            continue
        for name in r.names():
            vocab.add(name, r.kind, r.aliases.get(name, ()), with_surname=r.winner is not None)
        for label in r.labels:
            vocab.add(label, "title")
        for artists in r.by.values():
            for artist in artists:
                vocab.add(artist, "text")
    for kind, name in key._neutral:  # last: on an equal match the key's own names win
        vocab.add(name, kind)
    people = [n for r in key.require if r.kind == "person" for n in r.names()]
    accepted = [n for r in key.require if r.kind == "person" for n in [*(r.one_of or []), *(r.some_of or [])]]
    for last, person in surnames([*people, *(n for k, n in key._neutral if k == "person")], accepted).items():
        vocab.items.append(Alias(person, (last,), capital=True, alone=True))
    listed = [n for r in key.require if r.kind == "person" and r.some_of for n in r.some_of]
    for last, person in common_surnames(listed).items():  # "Hammond and May": May beside Hammond
        vocab.items.append(Alias(person, (last,), capital=True, alone=True, paired=True))
    return vocab


def judge(key: AnswerKey, answer: str | None) -> tuple[bool, str]:
    """``(success, reason)``: every requirement of ``key`` holds for ``answer``."""
    if answer is None or not answer.strip():
        return False, "no answer"
    analysis = Analysis(answer, _vocabulary(key).items)
    if commitment.unverified(analysis):
        return False, "says it could not find or check the answer"
    again = restatement.restated(analysis)
    if again:
        return False, f"gives two answers after the same words ({again})"
    if restatement.contradicted(analysis):
        return False, "says one thing and its negation"
    mentions = analysis.mentions
    for r in key.require:
        problem = check(r, analysis, mentions, key)
        if problem:
            return False, problem
    return True, "key met"
