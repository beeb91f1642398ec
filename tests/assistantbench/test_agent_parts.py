"""Browser-free pieces of the AssistantBench agent: answer extraction, action parsing, the URL
policy, snapshot compaction, the oracle's ref lookup, and the fixture tasks' consistency."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from restgraph.agents.browser.closed_book import extract_final_answer
from restgraph.agents.browser.policy import parse_decision
from restgraph.agents.parsing import ParseError
from restgraph.evals.oracles.browser import find_ref, resolve
from restgraph.tools.browser.netpolicy import check_url
from restgraph.tools.browser.observe import compact_snapshot
from restgraph.tools.browser.sites import create_app


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ('{"thought": "x", "action": "click", "ref": "f1e3"}', "click(ref='f1e3')"),
        (
            'Sure! ```json\n{"action": "type", "ref": "e4", "text": "hi", "submit": true}\n```',
            "type(ref='e4', text='hi', submit=True)",
        ),
        (
            '{"action": "select_option", "ref": "e5", "value": "Maple Bay"}',
            "select(ref='e5', value='Maple Bay')",
        ),
        ('{"action": "send_msg_to_user", "text": "42"}', "answer(text='42')"),
        ('{"action": "answer", "answer": "x"}', "answer(text='x')"),
        ("click [ref=e12]", "click(ref='e12')"),
        ('Action: type e4 "hello world" submit', "type(ref='e4', text='hello world', submit=True)"),
        ('fill("e4", "abc")', "type(ref='e4', text='abc')"),
        ("go_back()", "back()"),
        ("scroll up", "scroll(direction='up')"),
        ("answer: Clara Voss", "answer(text='Clara Voss')"),
        ("goto /books/", "goto(url='/books/')"),
    ],
)
def test_parse_decision(reply, expected):
    assert parse_decision(reply).describe() == expected


@pytest.mark.parametrize(
    "reply", ["", "I would look at the page first.", '{"action": "fly"}', "click the button"]
)
def test_parse_decision_rejects(reply):
    with pytest.raises(ParseError):
        parse_decision(reply)


def test_closed_book_extraction():
    assert extract_final_answer("Thinking...\nThe final answer is: $1,200") == "$1,200"  # raw: no rewriting
    assert extract_final_answer("The final answer is:") == ""
    assert extract_final_answer("Paris") == "Paris"
    assert extract_final_answer("The final answer is: Paris\nBecause it is the capital.") == "Paris"
    assert extract_final_answer('The final answer is: [\n"a",\n"b"\n]\n\nDone.') == '[\n"a",\n"b"\n]'


@pytest.mark.parametrize(
    ("url", "offline", "allowed"),
    [
        ("http://127.0.0.1:8000/x", True, True),
        ("http://localhost/x", True, True),
        ("http://[::1]:9/", True, True),
        ("http://127.5.6.7/", True, True),
        ("https://example.com/", True, False),
        ("http://10.0.0.1/", True, False),
        ("http://127.0.0.1.nip.io/", True, False),
        ("https://example.com/", False, True),
        ("file:///etc/passwd", False, False),
        ("file:///etc/passwd", True, False),
        ("chrome://settings", False, False),
    ],
)
def test_url_policy(url, offline, allowed):
    assert (check_url(url, offline=offline, navigation=True) is None) is allowed


def test_compaction_keeps_refs_drops_noise_and_caps():
    snapshot = "\n".join(
        [
            "- generic [active] [ref=e1] [box=0,0,100,100]:",
            '  - button "Go" [ref=e2] [cursor=pointer] [box=0,10,10,10]',
        ]
        + [f"  - paragraph [ref=e{i}] [box=0,{i * 40},10,10]: line {i}" for i in range(3, 200)]
    )
    small = compact_snapshot(snapshot, viewport_height=800, max_chars=100_000)
    assert "generic" not in small and "box=" not in small and "cursor" not in small
    assert '- button "Go" [ref=e2]' in small
    capped = compact_snapshot(snapshot, viewport_height=800, max_chars=2_000)
    assert len(capped) <= 2_200
    assert capped.endswith("scroll down to see them]")
    assert "line 5" in capped and "line 150" not in capped


def test_oracle_resolves_refs_from_the_observation():
    observation = (
        '- combobox "Town" [ref=f1e11]:\n  - option "Any" [selected]\n- button "Search listings" '
        '[ref=f1e18]\n- link "Next page" [ref=e9]:\n  - /url: /x'
    )
    assert find_ref(observation, "combobox", "Town") == "f1e11"
    assert resolve(("select", "Town", "Maple Bay"), observation) == {
        "action": "select",
        "ref": "f1e11",
        "value": "Maple Bay",
    }
    assert resolve(("click", "link", "Next page"), observation) == {"action": "click", "ref": "e9"}
    missing = resolve(("click", "link", "Previous page"), observation)
    assert missing["action"] == "answer" and missing["text"] == ""


def test_fixture_pages_hold_the_gold_facts():
    """Every gold value is printed on a fixture page (the browser test checks the oracle saw it)."""
    client = TestClient(create_app())
    pages = {
        "gyms-northgate-yoga-price": "/gyms/search?neighborhood=Northgate&activity=Yoga",
        "homes-maple-bay-condo-2023": "/homes/listing/102",
        "homes-cedar-falls-largest": "/homes/listing/201",
        "books-quiet-harbor-pages": "/books/book/9780000000110",
        "transit-route12-last-saturday": "/transit/route/12?day=Saturday",
    }
    expected = {
        "gyms-northgate-yoga-price": ["$72.50"],
        "homes-maple-bay-condo-2023": ["$462,500", "Sold in 2023"],
        "homes-cedar-falls-largest": ["$612,000", "2,850 sqft"],
        "books-quiet-harbor-pages": ["<td>333</td>"],
        "transit-route12-last-saturday": ["22:40"],
    }
    for task_id, path in pages.items():
        html = client.get(path).text
        for fact in expected[task_id]:
            assert fact in html, (task_id, fact)
    for path in (
        "/",
        "/sitemap.xml",
        "/gyms/",
        "/homes/",
        "/books/",
        "/transit/",
        "/eats/",
        "/care/",
        "/books/events",
        "/homes/search?town=Maple+Bay&page=2",
    ):
        assert client.get(path).status_code == 200
    assert "Page 2 of 2" in client.get("/homes/search?town=Maple+Bay&page=2").text
