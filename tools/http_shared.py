"""One TLS context for every HTTP client the harness makes.

``httpx.AsyncClient()`` builds a fresh ``ssl.SSLContext`` (loading the CA bundle) each time it is
created without a transport: 20-110 ms on this project's CI machine, paid per episode by any
client made per episode (the embedded model's, an ``HttpTool`` against a real API). Handing every
client the same context makes a new client cost well under a millisecond. The context is built
once per process, on first use, exactly as httpx builds its default one (certifi's CA bundle).
"""

from __future__ import annotations

import functools
import ssl


@functools.cache
def ssl_context() -> ssl.SSLContext:
    """The process-wide client TLS context (certifi's CA bundle, as httpx's default)."""
    import certifi

    return ssl.create_default_context(cafile=certifi.where())
