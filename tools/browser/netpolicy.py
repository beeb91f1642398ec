"""Which URLs the browser may load. Offline mode (the default for the fixture benchmark) allows
only loopback hosts, so an agent can never reach the internet from a test or an offline run.

``file://`` is refused in every mode (a model must not read the machine's files), as are
browser-internal schemes; ``about:blank`` and ``data:`` (no network involved) stay allowed for
sub-resources.

One parser decides: the URL as the browser will request it, read by a WHATWG-conformant parser
(``ada-url``, the URL standard Chromium follows). Python's ``urlsplit`` reads some URLs otherwise:
``http://127.0.0.1:47999\\@127.0.0.1/x`` is host 127.0.0.1 with user ``127.0.0.1`` to it, and
Chromium requests ``http://127.0.0.1:47999/@127.0.0.1/x`` (issue 29); ``http://evil\\@127.0.0.1/``
would even send the browser to ``evil``. So a URL whose two parses disagree on scheme, user,
password, host or port is refused, whatever either says: the policy never says yes to a URL it
reads differently from the browser. That also refuses hosts written as decimal, octal or hex IPv4
and percent-encoded hosts (the standard turns them into an address Python's parser does not see).
"""

from __future__ import annotations

import ipaddress
from urllib.parse import unquote, urlsplit

import ada_url

LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}
_INERT_SCHEMES = {"about", "data", "blob"}
_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


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


def _canonical_host(host: str | None) -> str:
    """A host name or address in one spelling (lower case, IDNA, compressed address, no brackets)."""
    host = (host or "").strip("[]").lower()
    try:
        return ipaddress.ip_address(host).compressed
    except ValueError:
        pass
    try:
        return host.encode("idna").decode("ascii") if not host.isascii() else host
    except UnicodeError:
        return host


def _disagreement(url: str, parsed: ada_url.URL) -> str | None:
    """Why Python's parser reads ``url`` differently from the standard's (``None``: they agree)."""
    theirs = urlsplit(url)
    scheme = parsed.protocol.rstrip(":")
    try:
        their_port = theirs.port
    except ValueError:
        return f"{url!r}: Python's URL parser cannot read its port"
    ours = (
        scheme,
        unquote(parsed.username),
        unquote(parsed.password),
        _canonical_host(parsed.hostname),
        int(parsed.port) if parsed.port else _DEFAULT_PORTS.get(scheme),
    )
    python = (
        theirs.scheme.lower(),
        unquote(theirs.username or ""),
        unquote(theirs.password or ""),
        _canonical_host(theirs.hostname),
        their_port if their_port is not None else _DEFAULT_PORTS.get(theirs.scheme.lower()),
    )
    if ours == python:
        return None
    return (
        f"{url!r} is read two ways (the browser requests {parsed.href!r}; "
        f"host {ours[3] or '(none)'!r} against {python[3] or '(none)'!r}): refused"
    )


def check_url(url: str, *, offline: bool, navigation: bool = False) -> str | None:
    """``None`` if ``url`` may be loaded, else the reason it is refused.

    ``navigation=True`` is the stricter rule for ``goto``: only http(s) (and about:blank).
    """
    try:
        parsed = ada_url.URL(url)
    except ValueError:
        return f"{url!r} is not a valid URL"
    scheme = parsed.protocol.rstrip(":")
    if scheme in _DEFAULT_PORTS:
        reason = _disagreement(url, parsed)
        if reason is not None:
            return reason
        if offline and not is_loopback_host(parsed.hostname):
            return f"offline mode: host {parsed.hostname!r} is not loopback"
        return None
    if parsed.href == "about:blank":
        return None
    if scheme in _INERT_SCHEMES and not navigation:
        return None
    if scheme == "file":
        return "file:// URLs are never allowed"
    return f"scheme {scheme or '(none)'!r} is not allowed"
