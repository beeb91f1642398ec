"""The answer-key schema (``Requirement``, ``AnswerKey``): what a key file under ``keys/`` may say.

Apart from ``answer_keys`` (loading and judging) so the rules (``key_rules``, which
``answer_keys`` calls) can name these types without importing it back.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator

Kind = Literal["person", "title", "text", "path", "domain", "track"]
_MAIN = ("one_of", "some_of", "number", "dates", "year", "polarity", "winner")


class Requirement(BaseModel):
    model_config = ConfigDict(extra="forbid")

    one_of: list[str] | None = None
    some_of: list[str] | None = None
    number: int | None = None
    dates: list[str] | None = None
    year: int | None = None
    polarity: Literal["yes", "no"] | None = None
    winner: str | None = None
    loser: str | None = None
    first_wins: list[str] = Field(default_factory=list)
    second_wins: list[str] = Field(default_factory=list)
    need: int | Literal["all"] = 1
    kind: Kind = "text"
    distractors: list[str] = Field(default_factory=list)
    aliases: dict[str, list[str]] = Field(default_factory=dict)
    cue: list[str] = Field(default_factory=list)
    by: dict[str, list[str]] = Field(default_factory=dict)
    unit: list[str] = Field(default_factory=list)
    #: every other name of this catalogue list (``movies``, ``shows``, ``people``) is a distractor,
    #: except the accepted ones and the key's context
    wrong_from: str | None = None
    #: a comparison stated by its numbers alone ("A 7.6 vs B 7.5"): the ``higher`` or ``lower`` wins
    by_value: Literal["higher", "lower"] | None = None
    #: ``dates`` of several things: the name each date belongs to, in the same order; a date stated
    #: beside another of these names (the nearest one) is assigned to the wrong item
    labels: list[str] = Field(default_factory=list)
    #: ``dates`` a month and its year state ("Dec '19" for a first air date): a release or air date, not a
    #: birthday
    precision: Literal["day", "month"] = "day"
    #: a ``number`` or ``year`` the question does not require but the answer may state (an album's track
    #: count and release year for "the album information"): holds when the answer states none, and fails
    #: when it states another
    optional: bool = False
    #: distractors that came from a catalogue-wide pool of common words (keywords, genres, places,
    #: homepages): they fail an answer only when it commits to them (``commitment.committed``)
    _pooled: set[str] = PrivateAttr(default_factory=set)

    @model_validator(mode="after")
    def _one_main_field(self) -> Requirement:
        set_ = [f for f in _MAIN if getattr(self, f) is not None]
        if len(set_) != 1:
            raise ValueError(f"a requirement states exactly one of {_MAIN}, got {set_}")
        if self.winner is not None and self.loser is None:
            raise ValueError("a comparison names its loser too")
        return self

    def names(self) -> list[str]:
        return [
            *(self.one_of or []),
            *(self.some_of or []),
            *self.distractors,
            *([self.winner, self.loser or ""] if self.winner else []),
        ]


class AnswerKey(BaseModel):
    model_config = ConfigDict(extra="forbid")

    asks: str
    #: names the question or its chain mentions that are neither right nor wrong answers (matched
    #: only so their digits or words are not read as something else: "2 Broke Girls")
    context: list[str] = Field(default_factory=list)
    require: list[Requirement] = Field(min_length=1)
    #: every catalogue name (kind, name): matched as a whole so the words inside a title ("House of
    #: the Dragon") are never read as an answer ("dragon") or as a cue ("Don't Look Up")
    #: (a default, copied for each key, rather than ``default_factory=list``: pydantic inspects a private
    #: attribute's factory on every instance, and inspect.signature(list) takes 80 us: 20 of the 45 ms
    #: of loading the TMDB keys, bench/startup_time.py)
    _neutral: list[tuple[str, str]] = PrivateAttr(default=[])
    #: the key's ``answer_keys._vocabulary``, built on its first judgement: it depends on the key alone
    #: and was ~70 ms of the ~90 ms of scoring a TMDB episode (bench/restgpt_episode_cost.py)
    _vocabulary: Any = PrivateAttr(default=None)
    #: verdicts already given on this key, by answer text (``answer_keys.verdict``): a judgement depends on
    #: the key and the answer alone, and runs repeat answers (every epoch of a temperature-0 model, the
    #: end-of-run summary scoring again what each episode's end scored); bounded per key
    _verdicts: dict[str, Any] = PrivateAttr(default={})

    def describe(self) -> str:
        parts = []
        for r in self.require:
            main = next(f for f in _MAIN if getattr(r, f) is not None)
            value = getattr(r, main)
            text = f"{main}: {value if not isinstance(value, list) or len(value) <= 8 else [*value[:8], f'... {len(value) - 8} more']}"
            if r.distractors:
                text += f" (wrong: {r.distractors[:6]}{' ...' if len(r.distractors) > 6 else ''})"
            if main == "some_of":
                text += f" need {r.need}"
            parts.append(text)
        return f"{self.asks} -> " + "; ".join(parts)
