"""Secret redaction applied to everything before it is written (traces, config, logs).

Two nets: known secret *values* (registered at start-up from ``--api-key``, the environment,
sandbox tokens) are replaced wherever they occur, and secret-*shaped* strings (bearer tokens,
``sk-...`` keys, ``api_key=...`` query parameters, HF tokens) are replaced by pattern.
"""

from __future__ import annotations

import os
import re
from typing import Any

REDACTED = "[REDACTED]"

_SECRET_KEYS = re.compile(
    r"(?i)^(?:token|cookie|set-cookie|password|passwd|secret"
    r"|(?:.*[-_.])?(?:authorization|api[-_]?key|apikey|(?:access|refresh|auth|id|session)[-_]?token"
    r"|(?:client|secret)[-_]?(?:secret|key)|private[-_]?key|password))$"
)
#: (pattern, lower-case substrings one of which any match must contain). Most text (prompts,
#: response bodies) holds none of them, so one ``str.casefold`` and a few ``in`` tests replace seven
#: regex scans per string; a pattern runs only where its match is possible at all.
_PATTERNS: list[tuple[re.Pattern[str], tuple[str, ...]]] = [
    (re.compile(r"(?i)\bbearer\s+[A-Za-z0-9._~+/=-]{8,}"), ("bearer",)),
    (re.compile(r"\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{16,}"), ("sk-",)),
    (re.compile(r"\bhf_[A-Za-z0-9]{20,}"), ("hf_",)),
    (re.compile(r"\bgh[pousr]_[A-Za-z0-9]{20,}"), ("ghp_", "gho_", "ghu_", "ghs_", "ghr_")),
    (re.compile(r"\bAKIA[0-9A-Z]{16}\b"), ("akia",)),
    (re.compile(r"(?i)((?:api_?key|access_token|token|key)=)[^&\s\"']{8,}"), ("key=", "token=")),
    # header lines and JSON/YAML text: `Authorization: Basic ...`, `"api_key": "..."`
    (re.compile(r"(?i)((?:authorization|x-api-key|api[_-]?key|access[_-]?token|client[_-]?secret|password)[\"']?\s*[:=]\s*[\"']?(?:(?:basic|bearer|token|digest)\s+)?)[^\s\"'&,}]{6,}"),
     ("authorization", "api-key", "api_key", "apikey", "access-token", "access_token", "accesstoken", "client-secret", "client_secret", "clientsecret", "password")),
]
#: a few substrings, one of which every trigger above contains: text without any (most text) is
#: returned after these scans alone
_GATES = ("bearer", "sk-", "hf_", "gh", "akia", "key", "token", "authoriz", "secret", "password")
_ENV_HINTS = ("KEY", "TOKEN", "SECRET", "PASSWORD")
_known: set[str] = set()
#: ``_known``, longest first (a secret containing another is replaced whole); kept in step on registration
_known_longest_first: list[str] = []


def register_secret(value: str | None) -> None:
    """Remember a secret value so it is redacted wherever it shows up later."""
    if value and len(value) >= 6 and value not in _known:
        _known.add(value)
        _known_longest_first[:] = sorted(_known, key=len, reverse=True)


def register_env_secrets(environ: dict[str, str] | None = None) -> None:
    env = os.environ if environ is None else environ
    for name, value in env.items():
        if any(h in name.upper() for h in _ENV_HINTS):
            register_secret(value)


def redact_text(text: str) -> str:
    for secret in _known_longest_first:
        if secret in text:
            text = text.replace(secret, REDACTED)
    lower = text.casefold()  # as (?i) folds: "ſ" and the Kelvin sign count as "s" and "k"
    if not any(g in lower for g in _GATES):
        return text
    for pattern, triggers in _PATTERNS:
        if not any(t in lower for t in triggers):
            continue
        if pattern.groups:
            text = pattern.sub(lambda m: m.group(1) + REDACTED, text)
        else:
            text = pattern.sub(REDACTED, text)
    return text


def redact(obj: Any) -> Any:
    """Return a copy of a JSON-like object with secrets replaced."""
    if isinstance(obj, str):
        return redact_text(obj)
    if isinstance(obj, dict):
        out = {}
        for key, value in obj.items():
            if isinstance(key, str) and _SECRET_KEYS.match(key) and isinstance(value, str | int | float) and not isinstance(value, bool) and value != "":
                out[key] = REDACTED
            else:
                out[key] = redact(value)
        return out
    if isinstance(obj, list | tuple):
        return [redact(v) for v in obj]
    return obj


register_env_secrets()
