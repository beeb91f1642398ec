"""Typing repairs for ``spotify_oas.json`` before it is used as a validator or a fuzzing source.

RestGPT's copy of Spotify's spec went through a YAML round trip that turned keyword values into
strings: ``"required": "true"`` on parameters, ``"minimum": "0"``, ``"maximum": "100"``,
``"nullable": "true"``, ``"additionalProperties": "true"``. jsonschema then compares numbers with
strings (TypeError) and schemathesis reads ``"false"`` as truthy. ``typed_spec`` returns a deep
copy with those values given their JSON types; agents still see the verbatim spec.

It also drops ``discriminator``: the spec's ``oneOf [TrackObject, EpisodeObject]`` discriminates on
``type`` without a mapping, which by OpenAPI's rule means schemas named ``track`` / ``episode``
that do not exist, so a validator honouring it rejects every valid track. ``oneOf`` alone still
tells the two apart (their ``type`` enums differ).
"""

from __future__ import annotations

import copy
from typing import Any

_BOOL_KEYS = {
    "required",
    "nullable",
    "additionalProperties",
    "deprecated",
    "readOnly",
    "writeOnly",
    "uniqueItems",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "explode",
    "allowEmptyValue",
}
_NUMBER_KEYS = {
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "multipleOf",
    "default",
}


def _number(value: str) -> int | float | str:
    try:
        return int(value)
    except ValueError:
        try:
            return float(value)
        except ValueError:
            return value


def _fix(obj: Any, parent_key: str | None = None) -> Any:
    if isinstance(obj, dict):
        out: dict[str, Any] = {}
        for key, value in obj.items():
            if key == "discriminator":
                continue
            if key in ("properties", "examples") and isinstance(value, dict):
                # property names are data, not keywords: only their schemas get repaired
                out[key] = {name: _fix(schema) for name, schema in value.items()}
            elif key == "example":
                out[key] = value
            elif key in _BOOL_KEYS and isinstance(value, str) and value.lower() in ("true", "false"):
                out[key] = value.lower() == "true"
            elif (
                key in _NUMBER_KEYS
                and isinstance(value, str)
                and not (key == "default" and obj.get("type") == "string")
            ):
                out[key] = _number(value)
            else:
                out[key] = _fix(value, key)
        return out
    if isinstance(obj, list):
        return [_fix(v, parent_key) for v in obj]
    return obj


def typed_spec(spec: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of ``spec`` with stringified booleans and numbers in keyword positions repaired."""
    return _fix(copy.deepcopy(spec))
