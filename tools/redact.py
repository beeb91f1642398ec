"""Secret redaction applied to everything before it is written (traces, config, logs).

Two nets: known secret *values* (registered at start-up from ``--api-key``, the environment,
sandbox tokens) are replaced wherever they occur, and secret-*shaped* strings (bearer tokens,
``sk-...`` keys, ``api_key=...`` query parameters, HF tokens) are replaced by pattern.
"""

from __future__ import annotations

import functools
import os
import re
from typing import Any

import orjson

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
    (
        re.compile(
            r"(?i)((?:authorization|x-api-key|api[_-]?key|access[_-]?token|client[_-]?secret|password)[\"']?\s*[:=]\s*[\"']?(?:(?:basic|bearer|token|digest)\s+)?)[^\s\"'&,}]{6,}"
        ),
        (
            "authorization",
            "api-key",
            "api_key",
            "apikey",
            "access-token",
            "access_token",
            "accesstoken",
            "client-secret",
            "client_secret",
            "clientsecret",
            "password",
        ),
    ),
]
#: a few substrings, one of which every trigger above contains: text without any (most text) is
#: returned after these scans alone
_GATES = ("bearer", "sk-", "hf_", "gh", "akia", "key", "token", "authoriz", "secret", "password")
_ENV_HINTS = ("KEY", "TOKEN", "SECRET", "PASSWORD")
#: ``_SECRET_KEYS`` matches no key without one of these or a gate: a document whose JSON text has
#: none of them holds no secret-named field either
_DOCUMENT_GATES = (*_GATES, "cookie", "passwd")
#: every pattern's triggers: folded text holding none of them matches no pattern
_TRIGGERS = tuple(sorted({t for _, triggers in _PATTERNS for t in triggers}))
#: documents whose JSON text is longer than this are checked string by string (``_changes``)
_SCAN_DOCUMENT = 16_384
#: line -> whether its fold holds a trigger (lines up to ``_MEMO_LINE`` characters; cleared when full)
_line_memo: dict[str, bool] = {}
_MEMO_LINE = 2000
_MEMO_MAX = 200_000
_known: set[str] = set()
#: ``_known``, longest first (a secret containing another is replaced whole); kept in step on registration
_known_longest_first: list[str] = []
#: each known secret as it reads inside a JSON string (quotes, backslashes, control characters escaped)
_known_in_json: list[str] = []


def register_secret(value: str | None) -> None:
    """Remember a secret value so it is redacted wherever it shows up later."""
    if value and len(value) >= 6 and value not in _known:
        _known.add(value)
        _known_longest_first[:] = sorted(_known, key=len, reverse=True)
        _known_in_json.append(orjson.dumps(value).decode()[1:-1])


def register_env_secrets(environ: dict[str, str] | None = None) -> None:
    env = os.environ if environ is None else environ
    for name, value in env.items():
        if any(h in name.upper() for h in _ENV_HINTS):
            register_secret(value)


def _holds_trigger(text: str) -> bool:
    """Whether some pattern's trigger occurs in the fold of ``text``, decided line by line.

    Why: a RestGPT episode's prompts repeat the same template, API-doc and response lines call
    after call (~70 kB of prompt text per trace, a few kB of it new), and scanning each whole
    prompt for every trigger was most of the cost of writing a trace. No trigger holds a line
    break, so an occurrence lies within one line, and ``casefold`` maps each character on its
    own, so the fold of the text is the folds of its lines joined: each distinct line is
    scanned once per process and remembered."""
    memo = _line_memo
    for line in text.splitlines():
        hit = memo.get(line)
        if hit is None:
            folded = line.casefold()
            hit = any(t in folded for t in _TRIGGERS)
            if len(line) <= _MEMO_LINE:
                if len(memo) >= _MEMO_MAX:
                    memo.clear()
                memo[line] = hit
        if hit:
            return True
    return False


def redact_text(text: str) -> str:
    for secret in _known_longest_first:
        if secret in text:
            text = text.replace(secret, REDACTED)
    if not _holds_trigger(text):
        return text
    lower = text.casefold()  # as (?i) folds: "ſ" and the Kelvin sign count as "s" and "k"
    if not any(g in lower for g in _GATES):
        return text
    for pattern, triggers in _PATTERNS:
        if not any(t in lower for t in triggers):
            continue
        text = (
            pattern.sub(lambda m: m.group(1) + REDACTED, text)
            if pattern.groups
            else pattern.sub(REDACTED, text)
        )
    return text


@functools.lru_cache(maxsize=4096)
def _secret_key(key: str) -> bool:
    """Whether values under ``key`` are secrets. Cached: a trace repeats a few dozen keys hundreds
    of times, and the regex per key was most of the cost of redacting one."""
    return _SECRET_KEYS.match(key) is not None


def _secret_value(value: Any) -> bool:
    return isinstance(value, str | int | float) and not isinstance(value, bool) and value != ""


def redact(obj: Any) -> Any:
    """Return a copy of a JSON-like object with secrets replaced."""
    if isinstance(obj, str):
        return redact_text(obj)
    if isinstance(obj, dict):
        return {
            key: REDACTED
            if isinstance(key, str) and _secret_key(key) and _secret_value(value)
            else redact(value)
            for key, value in obj.items()
        }
    if isinstance(obj, list | tuple):
        return [redact(v) for v in obj]
    return obj


def _changes(obj: Any) -> bool:
    """Whether ``redact(obj)`` differs from ``obj`` (for a JSON-like document: lists, no tuples)."""
    if isinstance(obj, str):
        return _holds_trigger(obj) or any(secret in obj for secret in _known_longest_first)
    if isinstance(obj, dict):
        for key, value in obj.items():
            if (isinstance(key, str) and _secret_key(key) and _secret_value(value)) or _changes(value):
                return True
    elif isinstance(obj, list | tuple):
        for value in obj:
            if _changes(value):
                return True
    return False


def redact_document(obj: Any, *, plain_keys: tuple[str, ...] = ()) -> Any:
    """``redact(obj)`` for a whole JSON-like document (a trace about to be written), or ``obj``
    itself when there is nothing to redact: for a small document its JSON text shows it, for a
    large one (a RestGPT trace, ~130 kB) a walk that checks each string's lines against the
    line memo (``_holds_trigger``) and copies nothing.

    Why: walking a trace in Python costs ~0.5 us per key and string, 0.25 ms for a three-call
    episode, about as much as the rest of writing it; its JSON text is made in microseconds, and
    a scan of it for the gates (with the secret-key words), folded as the (?i) patterns fold, and
    for the known secrets answers for every string and key at once. Escaping cannot hide a match: no gate holds
    a character JSON escapes, and known secrets are looked for in their escaped form. A match
    anywhere means the full walk. ``plain_keys`` are field names that contain a gate word but are
    neither secret keys nor scanned text (``input_tokens``): they are left out of the scan."""
    try:
        text = orjson.dumps(obj).decode()
    except (TypeError, orjson.JSONEncodeError):  # not plain JSON (a big int, a non-str key): walk
        return redact(obj)
    if len(text) > _SCAN_DOCUMENT:  # a scan of this much text finds gate words ("keywords") anyway
        return redact(obj) if _changes(obj) else obj
    for key in plain_keys:
        text = text.replace(f'"{key}":', ":")
    folded = text.lower() if text.isascii() else text.casefold()  # (ASCII: the same, 10x faster)
    if not any(g in folded for g in _DOCUMENT_GATES) and not any(secret in text for secret in _known_in_json):
        return obj
    return redact(obj)


register_env_secrets()
