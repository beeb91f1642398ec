"""Notebook 1's claims, each checked on a run like the notebook's own (the notebook's text is quoted
in each docstring; if a test fails, fix the code or the sentence)."""

from __future__ import annotations

from pathlib import Path

from restgraph.evals import results
from restgraph.evals.benchmark import RunOptions
from restgraph.evals.runner import run_sync


def _run(out: Path, **agent_options: object) -> dict:
    options = RunOptions(
        benchmark="restbench-tmdb",
        agent="restgpt",
        model="scripted:restgpt-oracle",
        limit=1,
        agent_options=agent_options,
    )
    return run_sync(options, out, progress=False)


def test_under_upstream_prompts_no_role_reply_fails_to_parse(tmp_path: Path, data_dir: Path) -> None:
    """"Under RestGPT's own prompts (the default for RestBench) every role reads plain text, as the
    original did, so the run above has no parse errors.\""""
    _run(tmp_path / "run")
    calls = results.load(tmp_path / "run", scores=False).model_calls
    assert len(calls) > 3 and calls.parse_error.isna().all(), calls.parse_error.tolist()


def test_structured_parser_reply_is_rejected_then_rescued_as_plain_text(tmp_path: Path, data_dir: Path) -> None:
    """"the scripted model answers it with bare code, as many real models do: the structured path
    rejects the reply (its `parse_error` is recorded) and the plain-text protocol reads the same reply
    as code (`recovered` is True: a parse error and a parsed value), so the episode still succeeds\""""
    summary = _run(tmp_path / "run", prompt_pack="restgraph", structured=True)
    assert summary["metrics"]["success_rate"] == 1.0
    parser = results.load(tmp_path / "run", scores=False).model_calls.query("role == 'parser'")
    assert len(parser) >= 1
    assert parser.parse_error.str.startswith("structured output").all(), parser.parse_error.tolist()
    assert parser.raw_output.str.startswith("```python").all()
    assert parser.recovered.all(), "the plain-text protocol read the reply"


def test_episodes_are_shown_in_task_order() -> None:
    """The episode table is sorted by task id in natural order (tmdb/2 before tmdb/10)."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "notebooks"))
    import nbhelpers

    assert sorted(["tmdb/10", "tmdb/2", "tmdb/1"], key=nbhelpers.task_key) == ["tmdb/1", "tmdb/2", "tmdb/10"]
