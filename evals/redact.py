"""Compatibility name for ``tools.redact`` (redaction moved to the lowest layer so tools and
agents can register secrets without importing the harness)."""

from tools.redact import REDACTED, redact, redact_text, register_env_secrets, register_secret

__all__ = ["REDACTED", "redact", "redact_text", "register_env_secrets", "register_secret"]
