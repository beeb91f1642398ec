"""Compatibility name for ``restgraph.tools.redact`` (redaction moved to the lowest layer so tools and
agents can register secrets without importing the harness)."""

from restgraph.tools.redact import REDACTED, redact, redact_text, register_env_secrets, register_secret

__all__ = ["REDACTED", "redact", "redact_text", "register_env_secrets", "register_secret"]
