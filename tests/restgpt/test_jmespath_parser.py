"""The parser swapped for one that asks for a JMESPath expression (``restgpt-jmespath-parser``),
end to end through ``restgraph run``: the parser prompts are the JMESPath role's, no model-written
Python runs, and the values the expressions select are what the caller and the planner go on with
(the scripted oracle passes values only through the graph, so a perfect score needs them)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from restgraph.agents.parsing import ParseError
from restgraph.agents.restgpt.jmespath_parser import parse_expression, shown
from restgraph.evals.cli import app
from restgraph.evals.trace import TraceStore


def test_replies_are_read_as_expressions_and_hashes_shown_as_lines() -> None:
    assert parse_expression("```\nresults[0].id\n```").expression == "results[0].id"
    assert parse_expression("JMESPath: `people[*].name`").expression == "people[*].name"
    with pytest.raises(ParseError, match="not a JMESPath expression"):
        parse_expression("print(data['results'])")
    assert shown({"id": 5, "title": "Up"}) == 'id = 5\ntitle = "Up"' and shown([1, 2]) == "[1, 2]"


@pytest.mark.parametrize("bench", ["restbench-tmdb", "restbench-spotify"])
def test_the_jmespath_parser_runs_end_to_end_through_the_cli(
    tmp_path: Path, data_dir: Path, bench: str
) -> None:
    out = tmp_path / "run"
    args = [bench, "--agent", "restgpt-jmespath-parser", "--model", "scripted:restgpt-oracle", "--limit", "3"]
    result = CliRunner().invoke(app, ["run", *args, "--quiet", "--no-preflight", "--out", str(out)])
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["metrics"]["success_rate"] == 1.0
    traces = TraceStore(out).load().traces
    for trace in traces:
        parser_calls = [c for c in trace.model_calls() if c.role == "parser"]
        assert parser_calls
        for call in parser_calls:
            system, user = (m["content"] for m in call.messages or [])
            assert "one JMESPath expression" in system and user.endswith("JMESPath:")
        assert not list(trace.tool_calls("python"))  # no model-written code ran
        # the selected values reach the caller's next prompt as `name = value` lines
        callers = [m["content"] for c in trace.model_calls() if c.role == "caller" for m in c.messages or []]
        assert any('reference call 1 = "done"' in text for text in callers)
    record = next(s.update["roles"] for s in traces[0].steps if s.update and "roles" in s.update)
    assert record["parser"]["name"] == "jmespath.parser" and record["parser"]["sha256"]
    assert record["planner"]["pack"] == "upstream"
