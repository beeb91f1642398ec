"""Counterfactual forks through ``restgraph run`` (``restgraph.evals.fork``): a RestGPT run with the
scripted oracle on two TMDB tasks, forked at its first parser step with RestGPT-without-parser and
another model. The prefix must be the recorded episode (same outputs, same HTTP exchanges), the
rest the new model's, and every forked trace must say where it came from; a source whose recorded
responses the sandbox no longer gives stops the episode with a clear error."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import quote

import pytest
from typer.testing import CliRunner

from restgraph.evals.cli import app
from restgraph.evals.trace import Trace, TraceStore

TASKS = ["tmdb/1", "tmdb/2"]
FORK_AT = 4  # restgpt's steps: 0 start, 1 planner, 2 selector, 3 caller (+ GET), 4 parser, ...
#: the continuation model: the no-parser agent's reader, then its caller, then its planner
NEW_OUTPUTS = [
    "the response names the person",
    "I am finished.\nExecution Result: forked",
    "Final Answer: forked",
]
NEW_MODEL = "scripted:replay?structured=0&replies=" + quote(json.dumps(NEW_OUTPUTS))


def restgraph_run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["run", "restbench-tmdb", "--quiet", "--no-preflight", *args])
    return result.exit_code, result.output


def traces(out: Path) -> dict[str, Trace]:
    return {t.task_id: t for t in TraceStore(out).load().traces}


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory, data_dir: Path) -> Path:
    out = tmp_path_factory.mktemp("fork") / "source"
    task_args = [a for t in TASKS for a in ("--task-id", t)]
    code, output = restgraph_run(
        "-a", "restgpt", "-m", "scripted:restgpt-oracle?structured=0", *task_args, "--out", str(out)
    )
    assert code == 0, output
    recorded = traces(out)
    assert all(t.status == "finished" and t.steps[FORK_AT].node == "parser" for t in recorded.values())
    return out


def test_a_fork_replays_the_prefix_then_lets_the_new_agent_and_model_continue(
    source: Path, tmp_path: Path
) -> None:
    out = tmp_path / "fork"
    code, output = restgraph_run(
        "-a", "restgpt-no-parser", "-m", NEW_MODEL, "--fork-from", str(source), "--fork-at", str(FORK_AT),
        "--out", str(out),
    )  # fmt: skip
    assert code == 0, output
    recorded, forked = traces(source), traces(out)
    assert sorted(forked) == TASKS  # the source run's tasks, by default
    for task_id, trace in forked.items():
        before = recorded[task_id]
        prefix = [c for s in before.steps[:FORK_AT] for c in s.model_calls]
        calls = list(trace.model_calls())
        # the prefix: the recorded outputs, to the same roles, with the same HTTP exchanges
        assert [(c.role, c.raw_output) for c in calls[: len(prefix)]] == [
            (c.role, c.raw_output) for c in prefix
        ]
        exchange = [(c.method, c.url, c.params, c.status, c.response) for c in before.http_calls()[:1]]
        assert [(c.method, c.url, c.params, c.status, c.response) for c in trace.http_calls()] == exchange
        # the continuation: the new model's outputs (its last one repeated), in the variant's graph
        assert [c.raw_output for c in calls[len(prefix) :]][:3] == NEW_OUTPUTS
        assert trace.agent == "restgpt-no-parser" and trace.final_answer == "forked"
        assert trace.steps[FORK_AT].node != "parser" and trace.model == NEW_MODEL
        # the fork is recorded: source, task, step, prefix size and hash
        fork = trace.extra["fork"]
        assert fork["source_run"] == str(source) and fork["task_id"] == task_id and fork["step"] == FORK_AT
        assert fork["source_run_id"] == before.run_id and fork["source_agent"] == "restgpt"
        assert (fork["replayed_calls"], fork["checked_http"]) == (len(prefix), 1)
        assert len(fork["prefix_hash"]) == 16
    assert len({t.extra["fork"]["prefix_hash"] for t in forked.values()}) == 2
    config = json.loads((out / "config.json").read_text())["options"]
    assert (config["fork_from"], config["fork_at"]) == (str(source), FORK_AT)


def test_a_prefix_that_no_longer_reproduces_stops_the_episode(source: Path, tmp_path: Path) -> None:
    """A recorded response the sandbox does not give again: the fork says which request diverged."""
    changed = tmp_path / "changed"
    changed.mkdir()
    for name in ("config.json", "prompts.jsonl.gz"):
        if (source / name).exists():
            (changed / name).write_bytes((source / name).read_bytes())
    lines = []
    for line in (source / "traces.jsonl").read_text().splitlines():
        trace = json.loads(line)
        for step in trace["steps"]:
            for call in step["tool_calls"]:
                if call["kind"] == "http":
                    call["response"] = call["response"].replace("Coppola", "Copola").replace("Dark", "Drak")
        lines.append(json.dumps(trace))
    (changed / "traces.jsonl").write_text("\n".join(lines) + "\n")
    out = tmp_path / "fork"
    code, output = restgraph_run(
        "-a", "restgpt", "-m", NEW_MODEL, "--fork-from", str(changed), "--fork-at", "6", "--task-id", "tmdb/1",
        "--out", str(out),
    )  # fmt: skip
    assert code == 3, output  # errored episodes
    (trace,) = traces(out).values()
    assert trace.status == "error:ForkDiverged"
    assert (
        trace.error
        and "HTTP request 1 diverged: GET http://tmdb.sandbox/3/search/person -> 200" in trace.error
    )
    assert "(same status, another body)" in trace.error
    assert not [c for c in trace.model_calls() if c.raw_output in NEW_OUTPUTS]  # the new model never ran


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--fork-at", "99"], "--fork-at 99: task tmdb/"),  # whichever source episode is checked first
        (["--fork-at", "4", "--task-id", "tmdb/3"], "has no episode of task 'tmdb/3'"),
        ([], "--fork-from needs --fork-at STEP"),
    ],
)
def test_fork_arguments_are_checked_before_any_work(
    source: Path, tmp_path: Path, args: list[str], message: str
) -> None:
    code, output = restgraph_run(
        "-m", NEW_MODEL, "--fork-from", str(source), *args, "--out", str(tmp_path / "x")
    )
    assert code == 2 and message in " ".join(output.split()), output
    assert not (tmp_path / "x").exists()


@pytest.mark.browser
def test_the_viewer_marks_the_fork_once_between_the_shared_prefix_and_the_new_steps(
    source: Path, tmp_path: Path
) -> None:
    """``restgraph view --export`` of a forked run, in Chromium: the replayed prefix's steps, then one
    marker line naming the source, then the new agent's steps; every step appears once."""
    from playwright.sync_api import sync_playwright

    from tests.conftest import CHROMIUM

    out = tmp_path / "fork"
    code, output = restgraph_run(
        "-a", "restgpt-no-parser", "-m", NEW_MODEL, "--fork-from", str(source), "--fork-at", str(FORK_AT),
        "--task-id", "tmdb/2", "--out", str(out),
    )  # fmt: skip
    assert code == 0, output
    result = CliRunner().invoke(app, ["view", str(out), "--export", str(tmp_path / "site")])
    assert result.exit_code == 0, result.output
    (trace,) = traces(out).values()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page()
        page.goto((tmp_path / "site" / "index.html").as_uri() + "#0/0")
        page.wait_for_selector("#ep-timeline details.step")
        items = page.locator("#ep-timeline ol.timeline > li")
        texts = [items.nth(k).inner_text() for k in range(items.count())]
        browser.close()
    markers = [k for k, text in enumerate(texts) if text.startswith("⑂ fork")]
    assert markers == [FORK_AT] and len(texts) == len(trace.steps) + 1  # prefix once, one marker
    index = [int(m.group(1)) if (m := re.match(r"#(\d+)", t)) else None for t in texts]
    assert index == [*range(FORK_AT), None, *range(FORK_AT, len(trace.steps))]
    marker = texts[FORK_AT]
    assert str(source) in marker and "(restgpt / scripted:restgpt-oracle?structured=0)" in marker
    assert "3 recorded model outputs, 1 HTTP responses checked" in marker
    assert f"from here on restgpt-no-parser / {NEW_MODEL}" in marker
