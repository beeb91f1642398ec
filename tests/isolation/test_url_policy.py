"""One URL parser (issue 29): the browser policy decides on the URL as Chromium will request it
(the WHATWG URL standard, through ``ada-url``) and refuses any URL Python's parser reads otherwise.
Every "refused" row below was allowed by the old ``urlsplit`` check (or sent elsewhere than checked)."""

from __future__ import annotations

import pytest

from restgraph.tools.browser.netpolicy import check_url

READ_TWO_WAYS = "is read two ways"


@pytest.mark.parametrize(
    ("url", "why"),
    [
        # backslashes: a special scheme's "\" is "/" to the browser, part of the user name to Python
        ("http://127.0.0.1:47999\\@127.0.0.1/x", READ_TWO_WAYS),
        ("http://evil.example\\@127.0.0.1/", READ_TWO_WAYS),
        ("http:\\\\127.0.0.1\\x", READ_TWO_WAYS),
        # percent-encoded host: the browser decodes it, Python does not
        ("http://%31%32%37.0.0.1/", READ_TWO_WAYS),
        # IPv4 in decimal, octal and hex: the browser turns each into 127.0.0.1
        ("http://2130706433/", READ_TWO_WAYS),
        ("http://0177.0.0.1/", READ_TWO_WAYS),
        ("http://0x7f.0.0.1/", READ_TWO_WAYS),
        ("http://0x7f000001/", READ_TWO_WAYS),
        # userinfo that names loopback, host that does not
        ("http://127.0.0.1@evil.example/", "not loopback"),
        ("http://127.0.0.1:80@evil.example/", "not loopback"),
        # IPv6 forms that are not the loopback address
        ("http://[::ffff:127.0.0.1]/", "not loopback"),
        ("http://[::]/", "not loopback"),
        # IDNA: the browser's host is the punycode one
        ("http://bücher.example/", "not loopback"),
        ("http://a b/", "not a valid URL"),
    ],
)
def test_refused_in_offline_mode(url: str, why: str) -> None:
    reason = check_url(url, offline=True, navigation=True)
    assert reason is not None and why in reason, reason


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/x",
        "http://user:secret@127.0.0.1:8000/x",  # userinfo read the same by both parsers
        "http://evil.example@127.0.0.1/",  # the host is loopback, whatever the user name says
        "http://[::1]:9/",
        "http://[0:0:0:0:0:0:0:1]/",  # another spelling of ::1, the same address to both
        "http://LOCALHOST/x",
        "http://127.0.0.1:80/",  # the default port, written out
        "HTTP://127.0.0.1/",
        "ht\ttp://127.0.0.1/",  # tabs are removed by both parsers
    ],
)
def test_allowed_in_offline_mode(url: str) -> None:
    assert check_url(url, offline=True, navigation=True) is None


def test_the_issues_url_names_what_the_browser_would_request() -> None:
    reason = check_url("http://127.0.0.1:47999\\@127.0.0.1/x", offline=True, navigation=True)
    assert reason is not None and "'http://127.0.0.1:47999/@127.0.0.1/x'" in reason


def test_online_mode_still_refuses_urls_read_two_ways() -> None:
    assert check_url("https://example.com/", offline=False, navigation=True) is None
    reason = check_url("http://example.com\\@example.org/", offline=False, navigation=True)
    assert reason is not None and READ_TWO_WAYS in reason
