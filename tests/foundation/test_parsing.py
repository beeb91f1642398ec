"""Tolerant extraction of JSON from model text."""

from __future__ import annotations

import pytest

from restgraph.agents.parsing import ParseError, extract_json, extract_json_object, strip_fences


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"a": 1}', {"a": 1}),
        ('Sure! Here it is: {"a": {"b": [1, 2]}} hope that helps', {"a": {"b": [1, 2]}}),
        ('```json\n{"a": 1}\n```', {"a": 1}),
        ('prose {"x": 0} then ```json\n{"a": 1}\n```', {"a": 1}),  # a fenced block is preferred
        ("[1, 2, 3]", [1, 2, 3]),
        ('use {braces} loosely, then {"a": "}"}', {"a": "}"}),  # skips the invalid candidate
        (
            'Thought: x\nAction: {"name": "get", "args": {"id": 5}}\nObservation:',
            {"name": "get", "args": {"id": 5}},
        ),
    ],
)
def test_extract_json_finds_the_first_complete_value(text: str, expected: object) -> None:
    assert extract_json(text) == expected


@pytest.mark.parametrize(
    "text", ["", "   ", "no json here", '{"a": 1', "}}{{ <|garbage|> ``` not json", None]
)
def test_extract_json_raises_parse_error(text: str | None) -> None:
    with pytest.raises(ParseError):
        extract_json(text)  # type: ignore[arg-type]


def test_parse_error_is_a_value_error_and_quotes_the_text() -> None:
    with pytest.raises(ValueError, match="nothing useful"):
        extract_json("nothing useful")


def test_extract_json_object_rejects_arrays() -> None:
    assert extract_json_object('x {"k": [1]} y') == {"k": [1]}
    with pytest.raises(ParseError, match="list"):
        extract_json_object("[1, 2]")


def test_strip_fences() -> None:
    assert strip_fences("```python\nprint(1)\n```") == "print(1)"
    assert strip_fences("before ```\ncode\n``` after") == "code"
    assert strip_fences("  plain  ") == "plain"


def test_an_object_schema_skips_arrays_before_the_object() -> None:
    text = 'KEYS = []\nreply: {"kind": "final_answer", "text": "42"}'
    assert extract_json(text) == []  # plain extraction: the first value
    assert extract_json(text, want=dict) == {"kind": "final_answer", "text": "42"}
    assert extract_json("[1, 2]", want=dict) == [1, 2]  # no object at all: fall back to the first value


def test_scripted_structured_output_reads_the_object_after_code() -> None:
    from urllib.parse import quote

    from pydantic import BaseModel

    from restgraph.agents.models import make_chat_model

    class Reply(BaseModel):
        answer: str

    model = make_chat_model("scripted:replay?text=" + quote('x = []\n{"answer": "yes"}'))
    out = model.with_structured_output(Reply, include_raw=True).invoke("q")
    assert out["parsing_error"] is None and out["parsed"] == Reply(answer="yes")
