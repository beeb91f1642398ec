"""Which URLs the browser may load. Offline mode (the default for the fixture benchmark) allows
only loopback hosts, so an agent can never reach the internet from a test or an offline run.

``file://`` is refused in every mode (a model must not read the machine's files), as are
browser-internal schemes; ``about:blank`` and ``data:`` (no network involved) stay allowed for
sub-resources.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}
_INERT_SCHEMES = {"about", "data", "blob"}


def is_loopback_host(host: str | None) -> bool:
    if not host:
        return False
    host = host.strip("[]").lower()
    if host in LOOPBACK_NAMES or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_url(url: str, *, offline: bool, navigation: bool = False) -> str | None:
    """``None`` if ``url`` may be loaded, else the reason it is refused.

    ``navigation=True`` is the stricter rule for ``goto``: only http(s) (and about:blank).
    """
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme in ("http", "https", "ws", "wss"):
        if offline and not is_loopback_host(parts.hostname):
            return f"offline mode: host {parts.hostname!r} is not loopback"
        return None
    if url == "about:blank":
        return None
    if scheme in _INERT_SCHEMES and not navigation:
        return None
    if scheme == "file":
        return "file:// URLs are never allowed"
    return f"scheme {scheme or '(none)'!r} is not allowed"
