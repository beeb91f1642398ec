"""The next-action agent end to end: gold oracle = 1.0, malformed replies = wrong, stateless calls,
seeded candidate sets, context overflow as ``truncated_at``, and the embedded model."""

from __future__ import annotations

import json

import pytest
from langchain_core.messages import BaseMessage

from restgraph.agents.scripted import register_scripted
from restgraph.agents.shortcuts.next_action import approx_tokens, build_messages
from restgraph.evals.benchmark import RunOptions, get_benchmark
from restgraph.evals.benchmarks.shortcuts import export_log
from restgraph.evals.datasets.shortcuts import load_catalogue
from restgraph.tools.shortcuts.candidates import candidate_table
from restgraph.tools.shortcuts.episode import build_plan
from tests.shortcuts.conftest import FIXTURES

HEADLINE = (
    "api_selection_accuracy",
    "static_param_accuracy",
    "prev_output_param_accuracy",
    "ask_input_accuracy",
)
TINY = FIXTURES / "tiny_log.jsonl"
TINY_CHECK = FIXTURES / "tiny_check_intersection.json"


@pytest.fixture
def sample_check(data_dir, tmp_path):
    """A check_intersection file for the sample log: every precomputed candidate judged essential."""
    candidates = json.loads(
        (data_dir / "shortcutsbench" / "all_shortcuts_paras_that_is_necessary_in_query.json").read_text()
    )
    path = tmp_path / "check.json"
    path.write_text(
        json.dumps(
            {
                url: {
                    "significant_paras": {
                        pos: {p: {p: "Essential parameter"} for p in ps} for pos, ps in per.items()
                    }
                }
                for url, per in candidates.items()
            }
        )
    )
    return path


@pytest.mark.parametrize("structured", [None, 1])
def test_gold_model_scores_one_on_every_metric(structured, run_shortcuts, sample_check):
    model, options = "scripted:shortcuts-gold", ({"structured": structured} if structured else {})
    if (
        structured is None
    ):  # free-form replies (the default) on the sample log; structured output on the tiny fixture only (time)
        summary, traces = run_shortcuts(model=model, check_intersection=sample_check)  # the sample log
        m = summary["metrics"]
        assert (
            m["api_selection_accuracy_n"] == 56
            and m["static_param_accuracy_n"] > 0
            and m["prev_output_param_accuracy_n"] == 14
        )
        for key in HEADLINE[:3]:
            assert m[key] == 1.0, key
        assert summary["usage"]["model_calls"] == 56 and summary["status_counts"] == {"finished": 4}
    tiny, _ = run_shortcuts(
        model=model, source=TINY, check_intersection=TINY_CHECK, agent_options=options
    )  # has ask-for-input parameters
    assert (
        all(tiny["metrics"][key] == 1.0 for key in HEADLINE) and tiny["metrics"]["ask_input_accuracy_n"] == 3
    )
    assert all(
        value == 1.0 for key, value in tiny["metrics"].items() if "accuracy" in key and not key.endswith("_n")
    )


def test_a_prose_reply_is_recorded_and_scored_as_json_error_by_default(run_shortcuts, tmp_path):
    """Free-form replies are the default, even for a model that supports structured output."""
    prose = "The next step should probably number things, I think."
    summary, traces = run_shortcuts(model=f"scripted:replay?text={prose}", source=TINY, only="tiny0002")
    trace = traces[0]
    assert trace.extra["bseqs"] == [{"state": "json_error", "aseq": prose}]
    call = next(trace.model_calls())
    assert call.parse_error.startswith("json_error") and call.raw_output == prose
    assert (
        summary["metrics"]["api_selection_accuracy"] == 0.0
        and summary["metrics"]["api_selection_accuracy_n"] == 1
    )
    config = json.loads((tmp_path / "run0" / "config.json").read_text())
    assert config["agent_settings"]["structured"] == 0 and config["agent_settings"]["prompts"] == "upstream"
    assert (
        config["agent_settings"]["response_format"] is None
        and config["agent_settings"]["messages"] == "[system, user]"
    )


def test_malformed_replies_count_as_wrong_and_nothing_crashes(run_shortcuts):
    summary, traces = run_shortcuts(model="scripted:garbage", source=TINY, check_intersection=TINY_CHECK)
    m = summary["metrics"]
    assert m["api_selection_accuracy"] == 0.0 and m["api_selection_accuracy_n"] == 7
    assert (
        m["static_param_accuracy_n"] == 0 and m["prev_output_param_accuracy_n"] == 0
    )  # conditional on a right API
    assert summary["status_counts"] == {"finished": 2}
    calls = [c for t in traces for c in t.model_calls()]
    assert len(calls) == 7 and all(c.parse_error and c.parse_error.startswith("json_error") for c in calls)
    states = [b["state"] for t in traces for b in t.extra["bseqs"]]
    assert states.count("json_error") == 7


LEAK = "com.example.LeakedPrediction"


def _leaky(task, params):
    def policy(messages: list[BaseMessage]) -> str:
        return json.dumps(
            {"Thought": "x", "WFWorkflowActionIdentifier": LEAK, "WFWorkflowActionParameters": {"p": LEAK}}
        )

    return policy


register_scripted("shortcuts-test-leaky", _leaky)


def test_each_action_is_a_fresh_call_on_the_cleaned_gold_history(run_shortcuts):
    _, traces = run_shortcuts(model="scripted:shortcuts-test-leaky", source=TINY)
    trace = next(t for t in traces if t.task_id == "shortcuts/tiny0001")
    calls = list(trace.model_calls())
    plan = build_plan(trace.task.gold["aseqs"], load_catalogue().returns).scored
    assert len(calls) == len(plan) == 6
    table = candidate_table(trace.extra["api_names"], load_catalogue().api2info)
    for call, planned in zip(calls, plan, strict=True):
        assert [m["type"] for m in call.messages] == ["system", "human"]  # no memory between actions
        assert LEAK not in call.messages[1]["content"]  # predictions never enter the history
        expected = build_messages(trace.task.instruction, table, planned.history)
        assert [m["content"] for m in call.messages] == [m.content for m in expected]
    assert (
        calls[0].messages[1]["content"].count("action at a time") == 3
    )  # upstream: "output on action at a time" x3
    ids = sorted(trace.extra["api_names"])
    assert repr(ids) in calls[0].messages[0]["content"]  # the identifier list shown is id-sorted


def test_candidate_sets_are_seeded(run_shortcuts):
    bench = get_benchmark("shortcuts")

    def sets(seed):
        return {
            t.id: t.gold["api_names"]
            for t in bench.tasks(RunOptions(benchmark="shortcuts", agent="shortcuts-next-action", seed=seed))
        }

    assert sets(3) == sets(3)
    assert sets(3) != sets(4)
    _, a = run_shortcuts(model="scripted:garbage", seed=11, limit=2)
    _, b = run_shortcuts(model="scripted:garbage", seed=11, limit=2)
    _, c = run_shortcuts(model="scripted:garbage", seed=12, limit=2)
    per = [{t.task_id: t.extra["api_names"] for t in run} for run in (a, b, c)]
    assert per[0] == per[1] and per[0] != per[2]
    prompts = [{t.task_id: next(t.model_calls()).messages[0]["content"] for t in run} for run in (a, b)]
    assert prompts[0] == prompts[1]
    # and the logged candidates of a log are reused for replay unless asked otherwise
    logged = {
        t.id: t.gold["api_names"] for t in bench.tasks(RunOptions(benchmark="shortcuts", agent="replay"))
    }
    assert logged["shortcuts/e6fe98154bec4042ad04955ed06c8270"][:2] == [
        "is.workflow.actions.downloadurl",
        "is.workflow.actions.number",
    ]


def test_prompt_overflow_truncates_the_query(run_shortcuts, tmp_path):
    catalogue = load_catalogue()
    bench = get_benchmark("shortcuts")
    task = next(
        t
        for t in bench.tasks(
            RunOptions(
                benchmark="shortcuts", agent="shortcuts-next-action", bench_options={"source": str(TINY)}
            )
        )
        if t.id.endswith("tiny0001")
    )
    table = candidate_table(task.gold["api_names"], catalogue.api2info)
    first = build_plan(task.gold["aseqs"], catalogue.returns).scored[0]
    cap = approx_tokens(
        build_messages(task.instruction, table, first.history)
    )  # the first prompt fits, the next do not
    summary, traces = run_shortcuts(source=TINY, agent_options={"max_prompt_tokens": cap})
    trace = next(t for t in traces if t.task_id.endswith("tiny0001"))
    assert (
        trace.status == "error:context_overflow"
        and trace.extra["truncated_at"] == 3
        and len(trace.extra["bseqs"]) == 3
    )  # never "finished"
    assert "max_prompt_tokens" in trace.error
    m = summary["metrics"]
    assert (
        m["api_selection_accuracy_n"] == 2
    )  # one action of tiny0001 (the rest left the denominator) + tiny0002
    assert m["api_selection_accuracy_strict"] == pytest.approx(2 / 7, abs=1e-6)
    out = tmp_path / "log.jsonl"
    assert export_log(tmp_path / "run0", out) == 2  # run_shortcuts writes its first run to run0
    exported = {json.loads(line)["URL"][-8:]: json.loads(line) for line in out.read_text().splitlines()}
    assert len(exported["tiny0001"]["aseqs"]) == 3 and exported["tiny0001"]["truncated_at"] == 3


def test_model_failures_end_the_query_not_the_run(run_shortcuts):
    summary, traces = run_shortcuts(model="scripted:shortcuts-gold?faults=1&retry_wait=0", source=TINY)
    assert summary["n"] == 2
    assert all(t.status.startswith("error:") or t.status == "finished" for t in traces)
    failed = [t for t in traces if t.status.startswith("error:")]
    assert failed and all(
        t.extra["truncated_at"] == len(t.extra["bseqs"]) for t in failed
    )  # what ran is kept
    assert "api_selection_accuracy_strict" in summary["metrics"]


@pytest.mark.local_model
def test_local_model_completes_on_a_sample_task(run_shortcuts):
    """The smallest task (4 candidates, 1 scored action) so that a loaded CPU still finishes it."""
    summary, traces = run_shortcuts(
        model="local",
        source=FIXTURES / "tiny_log.jsonl",
        candidates="logged",
        only="tiny0002",
        model_options={"max_tokens": 128},
        timeout_s=1500,
    )
    assert summary["n"] == 1 and traces[0].status == "finished", traces[0].error
    assert len(traces[0].extra["bseqs"]) == 1 and traces[0].extra["bseqs"][0]["state"] in (
        "generated_by_agent",
        "json_error",
    )
    assert summary["usage"]["model_calls"] == 1 and "api_selection_accuracy_n" in summary["metrics"]


def test_a_timed_out_query_keeps_the_predictions_made_before_it(run_shortcuts):
    # tiny0001 takes 6 model calls: 6 x 0.6 s of latency cannot finish in 2 s, and the first
    # prediction lands at ~0.6 s, which leaves a slow CI 1.4 s of start-up margin
    summary, traces = run_shortcuts(
        model="scripted:shortcuts-gold?latency=0.6", source=TINY, only="tiny0001", timeout_s=2.0
    )
    trace = traces[0]
    assert trace.status == "error:timeout"
    made = [b for b in trace.extra["bseqs"] if b["state"] == "generated_by_agent"]
    assert made, "the predictions made before the timeout were lost"
    assert trace.extra["truncated_at"] == len(
        trace.extra["bseqs"]
    )  # the action in flight, as for other failures
    assert summary["metrics"]["api_selection_accuracy_n"] >= len(made)
