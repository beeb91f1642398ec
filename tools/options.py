"""Typed option sets: what ``-A`` (agent), ``-B`` (benchmark) and ``-M`` (model) accept.

Every agent, benchmark and model kind declares its options as a subclass of :class:`Options`
(pydantic, ``extra="forbid"``): names, types, defaults and help (``Field(description=...)``).
The harness validates the command line's ``key=value`` pairs against it before any episode runs,
so a typo (``planer_steps``) or a bad value (``planner_steps=abc``) is a usage error, not an
option silently ignored or an error in every episode.

It lives at the lowest layer (beside ``restgraph.tools.datafiles``) because every layer declares options:
model kinds in ``agents``, agents in ``graphs``, benchmarks in ``evals``.
"""

from __future__ import annotations

import contextlib
import json
import types
from collections.abc import Mapping
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationError, model_validator
from pydantic_core import PydanticUndefined

from restgraph.tools.suggest import did_you_mean

_NONE_WORDS = ("", "none", "null")


class OptionError(ValueError):
    """An option that does not exist or does not validate; the message is one line for the user."""


def _parts(annotation: Any) -> tuple[Any, ...]:
    """The members of a union (``int | None`` -> ``(int, NoneType)``), unwrapping ``Annotated``."""
    if get_origin(annotation) is Annotated:
        return _parts(get_args(annotation)[0])
    if get_origin(annotation) in (Union, types.UnionType):
        return tuple(p for arg in get_args(annotation) for p in _parts(arg))
    return (annotation,)


def _takes_text(annotation: Any) -> bool:
    def text(p: Any) -> bool:
        return (
            p is str
            or p is Any
            or (get_origin(p) is Literal and any(isinstance(a, str) for a in get_args(p)))
        )

    return any(text(p) for p in _parts(annotation))


def _text_only(annotation: Any) -> bool:
    """Takes text but no number or bool (``str``, ``str | None``, a ``Literal`` of strings)."""

    def scalar(p: Any) -> bool:
        return p in (int, float, bool) or (
            get_origin(p) is Literal and any(not isinstance(a, str) for a in get_args(p))
        )

    return _takes_text(annotation) and not any(scalar(p) for p in _parts(annotation))


def _takes_json(annotation: Any) -> bool:
    def structured(p: Any) -> bool:
        return (
            get_origin(p) in (dict, list, tuple, set)
            or p in (dict, list)
            or (isinstance(p, type) and issubclass(p, BaseModel))
        )

    return any(structured(p) for p in _parts(annotation))


class Options(BaseModel):
    """Base of every option set. Values may arrive as command-line text: pydantic's lax mode turns
    ``"3"`` into 3 and ``"off"`` into False; here JSON text is decoded for list/dict/model fields
    and ``none``/``null`` (or an empty value) means None for optional non-text fields."""

    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _decode_text(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        out = dict(data)
        for key, value in data.items():
            field = cls.model_fields.get(key)
            if field is None:
                continue
            if isinstance(value, bool | int | float) and _text_only(field.annotation):
                out[key] = json.dumps(value)  # `-B only=1234` was decoded as JSON: keep its text
                continue
            if not isinstance(value, str):
                continue
            parts = _parts(field.annotation)
            if (
                value.strip().lower() in _NONE_WORDS
                and type(None) in parts
                and not _takes_text(field.annotation)
            ):
                out[key] = None
            elif _takes_json(field.annotation) and value.strip()[:1] in ("{", "["):
                with contextlib.suppress(
                    json.JSONDecodeError
                ):  # else the field's own error says what it expects
                    out[key] = json.loads(value)
        return out


class NoOptions(Options):
    """Takes no options."""


OptionsT = TypeVar("OptionsT", bound=Options)


def _auto(value: Any) -> Any:
    if value is None or (isinstance(value, str) and value.strip().lower() in ("auto", *_NONE_WORDS)):
        return None
    return value


#: a yes/no switch whose unset value (``auto``, the default) lets the code decide
AutoBool = Annotated[bool | None, BeforeValidator(_auto)]


def option_names(model: type[Options]) -> list[str]:
    return list(model.model_fields)


def _one_error(error: Any, model: type[Options], values: Mapping[str, Any], what: str) -> str:
    loc = [str(p) for p in error.get("loc", ())]
    key = loc[0] if loc else ""
    valid = ", ".join(option_names(model)) or "none"
    if error.get("type") == "extra_forbidden":
        return f"unknown {what} option {key!r}{did_you_mean(key, option_names(model))}; valid: {valid}"
    if not key:  # a model-level check (e.g. JSON decoding) names its key in the message
        return f"bad {what} options: {error.get('msg')}; valid: {valid}"
    field = model.model_fields.get(key)
    expected = f" (expects {type_name(field.annotation)})" if field is not None else ""
    given = values.get(key, error.get("input"))
    return f"bad {what} option {'.'.join(loc)}={given!r}: {error.get('msg')}{expected}; valid: {valid}"


def validate_options(model: type[OptionsT], values: Mapping[str, Any] | None, *, what: str) -> OptionsT:
    """``values`` checked against ``model``; ``what`` names the owner in messages (``agent restgpt``).

    Raises :class:`OptionError` with one line naming each bad key and listing the valid ones.
    """
    values = dict(values or {})
    try:
        return model.model_validate(values)
    except ValidationError as exc:
        raise OptionError("; ".join(_one_error(e, model, values, what) for e in exc.errors())) from None


def recorded(options: Options) -> dict[str, Any]:
    """What a run records: the options that were set, as validated (typed) JSON values."""
    return options.model_dump(mode="json", exclude_unset=True)


def read_recorded(model: type[OptionsT], values: Mapping[str, Any] | None) -> OptionsT:
    """Options of an already recorded run (scoring): keys this version does not know are left out,
    so a trace from an older version still scores."""
    return model.model_validate({k: v for k, v in (values or {}).items() if k in model.model_fields})


def type_name(annotation: Any) -> str:
    names = []
    for p in _parts(annotation):
        origin = get_origin(p)
        if p is type(None):
            names.append("None")
        elif origin is Literal:
            names.append("|".join(str(a) for a in get_args(p)))
        elif origin is None:
            names.append(getattr(p, "__name__", str(p)))
        else:
            names.append(str(p).replace("typing.", ""))
    return " | ".join(names)


def describe(model: type[Options]) -> list[tuple[str, str, str, str]]:
    """``(name, type, default, help)`` per option, for ``restgraph list --options``."""
    rows = []
    for name, field in model.model_fields.items():
        if field.default is PydanticUndefined and field.default_factory is None:
            default = "(required)"
        else:
            value = field.get_default(call_default_factory=True)
            default = (
                "unset" if value is None else "{...}" if isinstance(value, BaseModel) else json.dumps(value)
            )
        rows.append((name, type_name(field.annotation), default, " ".join((field.description or "").split())))
    return rows
