"""Parse outcomes reach the exact model call they belong to, even with 8 samples in flight at once.

Before ``restgraph.tools.events``, a role attached its parse result to "the last model call of the episode";
with concurrent samples most calls ended up with neither ``parsed`` nor ``parse_error`` and some
carried another call's outcome. Here every model call must carry its *own* outcome: a call whose
reply holds code has ``parsed.body`` taken from that very reply, a reply without code has the
``no_code`` parse error.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

from langchain_core.messages import BaseMessage
from typer.testing import CliRunner

from restgraph.agents.scripted import register_scripted
from restgraph.evals.cli import app
from restgraph.tools.trace_schema import Task


def _mixed_policy(task: Task | None, params: dict[str, str]):
    """Every third reply is empty (no code); the others return a body unique to the call."""
    counter = itertools.count()

    def policy(messages: list[BaseMessage]) -> str:
        n = next(counter)
        if n % 3 == 2:
            return ""
        return f"```python\nreturn {n}  # reply {n}\n```"

    return policy


register_scripted("api-use-test-mixed", _mixed_policy)


def test_every_model_call_of_eight_concurrent_samples_has_its_own_parse_outcome(
    data_dir: Path, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    result = CliRunner().invoke(
        app,
        [
            "run",
            "api-use",
            "--agent",
            "api-use-coder",
            "--model",
            "scripted:api-use-test-mixed?latency=0.05",
            "-A",
            "samples=8",
            "-A",
            "sample_concurrency=8",
            "--limit",
            "3",
            "--concurrency",
            "3",
            "--out",
            str(out),
            "--quiet",
        ],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.stdout + result.stderr
    rows = [json.loads(line) for line in (out / "traces.jsonl").read_text().splitlines()]
    calls = [c for row in rows for step in row["steps"] for c in step["model_calls"]]
    assert len(rows) == 3 and len(calls) == 24
    missing = [c["raw_output"] for c in calls if c["parsed"] is None and c["parse_error"] is None]
    assert not missing, f"{len(missing)} of {len(calls)} model calls have no parse outcome"
    for call in calls:
        if "```python" in call["raw_output"]:
            assert call["parse_error"] is None and call["parsed"]["body"] in call["raw_output"], call
        else:
            assert call["parsed"] is None and call["parse_error"].startswith("no_code"), call
    assert sum(c["parse_error"] is not None for c in calls) >= 6  # both outcomes were exercised
