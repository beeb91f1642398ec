"""Notebook 2's claims, each checked on a run like the notebook's own (the notebook's text is quoted
in each docstring; if a test fails, fix the code or the sentence). The runs use the scripted oracle
on the first TMDB queries, as the notebook does."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from restgraph.agents.restgpt.jmespath_parser import JMESPATH_PARSER
from restgraph.agents.restgpt.packs import RESTGRAPH, UPSTREAM
from restgraph.agents.restgpt.role import RoleSet
from restgraph.evals import results
from restgraph.evals.benchmark import RunOptions
from restgraph.evals.runner import run_sync
from restgraph.evals.trace import TraceStore
from restgraph.graphs.registry import agent_names, register_agent
from restgraph.graphs.restgpt import NOT_IN_LIST, build_restgpt

ORACLE = "scripted:restgpt-oracle"
TERSE_PLANNER = """You plan answers to user queries about $scenario_name for an assistant that calls the APIs.
Write one step at a time in natural language. If the last step is not finished, start with "Continue".
When the query is answered, write "Final Answer:" and the answer. Name entities with their ids.

Format:
User query: ...
Plan step 1: ...
API response: ...
Final Answer: ..."""


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z]{3,}", text.lower()))


def retrieval_selector(top_k: int, pack: RoleSet = UPSTREAM) -> Any:
    """The notebook's selector: the ``top_k`` endpoints sharing most words with the sub-task."""

    async def act(ep: Any, *, subtask: str, **inputs: Any) -> Any:
        query = _words(subtask + " " + (inputs.get("background") or ""))
        ranked = sorted(
            ep.spec.endpoints, key=lambda e: -len(query & _words(e.key + " " + e.short_description))
        )
        shortlist = [e.key for e in ranked[:top_k]]
        return await pack["selector"].act(ep, subtask=subtask, endpoints=shortlist, **inputs)

    return act


register_agent(
    "test-nb2-terse-planner",
    lambda m, e, o: build_restgpt(m, e, {**o, "prompts": {"planner": TERSE_PLANNER}}),
    env_kind="openapi",
    description="notebook 2's terse planner",
)
register_agent(
    "test-nb2-top1",
    lambda m, e, o: build_restgpt(m, e, o, roles={"selector": retrieval_selector(1)}),
    env_kind="openapi",
    description="notebook 2's retrieval selector, TOP_K = 1",
)
register_agent(
    "test-nb2-top1-restgraph",
    lambda m, e, o: build_restgpt(
        m, e, {**o, "prompt_pack": "restgraph"}, roles={"selector": retrieval_selector(1, RESTGRAPH)}
    ),
    env_kind="openapi",
    description="notebook 2's retrieval selector, TOP_K = 1, this project's pack",
)
register_agent(
    "test-nb2-jmespath",
    lambda m, e, o: build_restgpt(m, e, o, roles={"parser": JMESPATH_PARSER}),
    env_kind="openapi",
    description="notebook 2's JMESPath parser",
)


def _run(out: Path, agent: str, limit: int = 2, **agent_options: object) -> dict:
    options = RunOptions(
        benchmark="restbench-tmdb", agent=agent, model=ORACLE, limit=limit, agent_options=agent_options
    )
    return run_sync(options, out, progress=False)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory, data_dir: Path) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("nb2")
    out = {}
    for agent in ("restgpt", "test-nb2-terse-planner", "test-nb2-jmespath"):
        out[agent] = root / agent
        _run(out[agent], agent)
    return out


def test_smaller_top_k_refuses_unlisted_choice_with_not_in_list(tmp_path: Path, data_dir: Path) -> None:
    """"the selector's prompt lists those endpoints only, and the graph accepts only an endpoint from
    that list. Any other choice is refused with RestGPT's NOT_IN_LIST feedback [...] and after
    `selector_retries` (3) refusals the sub-task ends with that failure as its result." and "Try a
    smaller `TOP_K` [...] the episode may fail [...] (with `TOP_K = 1` the oracle fails `tmdb/2` and
    `tmdb/3`).\""""
    summary = _run(tmp_path / "run", "test-nb2-top1", limit=3)
    traces = {t.task_id: t for t in TraceStore(tmp_path / "run").load().traces}
    assert traces["tmdb/1"].status == "finished"
    assert summary["metrics"]["success_rate"] == pytest.approx(1 / 3)
    calls = [c for c in traces["tmdb/2"].model_calls() if c.role == "selector"]
    # step 2's first ask, then 3 re-asks, each carrying the refusal of the unlisted endpoint
    assert len(calls) == 1 + 1 + 3, [c.raw_output for c in calls]
    first, *retries = calls[1:]
    assert "GET /movie/{movie_id}/credits" not in first.messages[-1]["content"]
    assert "/movie/155/credits" in first.raw_output
    for call in retries:
        assert NOT_IN_LIST in call.messages[-1]["content"]
    planner = [c for c in traces["tmdb/2"].model_calls() if c.role == "planner"]
    assert "found no usable API within 3 retries" in planner[-1].messages[-1]["content"]
    assert not [h for h in traces["tmdb/2"].http_calls() if "credits" in str(h)]


def test_full_list_accepts_every_spec_endpoint(runs: dict[str, Path]) -> None:
    """Without a shortlist (RestGPT as shipped) the selector sees every endpoint and is never refused."""
    for trace in TraceStore(runs["restgpt"]).load().traces:
        for call in trace.model_calls():
            assert NOT_IN_LIST not in call.messages[-1]["content"]


def test_terse_planner_moves_only_the_planner(runs: dict[str, Path]) -> None:
    """"An override moves only the role it belongs to: here `planner` is this project's planner
    template, so the planner runs this project's planner with the terse text, and the selector,
    caller and parser stay RestGPT's, byte for byte. The terse planner has **no worked examples**
    (fewer input tokens).\""""
    base = results.load(runs["restgpt"], scores=False).model_calls
    terse = results.load(runs["test-nb2-terse-planner"], scores=False).model_calls
    for role in ("selector", "caller", "parser"):
        assert sorted(base.query("role == @role").prompt_hash) == sorted(
            terse.query("role == @role").prompt_hash
        ), role
    planner_tokens = {
        name: calls.query("role == 'planner'").input_tokens.sum()
        for name, calls in (("base", base), ("terse", terse))
    }
    assert planner_tokens["terse"] < planner_tokens["base"] / 2, planner_tokens


def test_records_say_which_role_was_swapped(runs: dict[str, Path]) -> None:
    """"Only the planner of the terse run, the selector of the retrieval run and the parser of the
    JMESPath run differ from `restgpt`'s" (read from `trace.extra["roles"]`)."""
    import json

    def roles(agent: str) -> dict[str, Any]:
        return json.loads((runs[agent] / "config.json").read_text())["agent_roles"]

    base = roles("restgpt")
    for agent, swapped in (("test-nb2-terse-planner", "planner"), ("test-nb2-jmespath", "parser")):
        record = roles(agent)
        assert [r for r in base if record[r] != base[r]] == [swapped], (agent, record)


def test_jmespath_parser_asks_for_an_expression_and_succeeds(runs: dict[str, Path]) -> None:
    """"`JMESPATH_PARSER` [...] asks instead for one JMESPath expression and evaluates it with the
    `jmespath` library: nothing is executed [...] The package registers the same variant as
    `restgpt-jmespath-parser`\""""
    assert "restgpt-jmespath-parser" in agent_names()
    summary = results.load(runs["test-nb2-jmespath"], scores=False)
    parser = summary.model_calls.query("role == 'parser'")
    assert len(parser) >= 2
    prompts = [
        c.messages[-1]["content"]
        for t in TraceStore(runs["test-nb2-jmespath"]).load().traces
        for c in t.model_calls()
        if c.role == "parser"
    ]
    assert prompts and all("JMESPath" in p for p in prompts)
    assert not parser.raw_output.str.contains("print\\(").any(), parser.raw_output.tolist()


def test_tight_planner_budget_exhausts(tmp_path: Path, data_dir: Path) -> None:
    """"the oracle takes one planner step per API call plus one for the answer (3 on these queries),
    so `agent_options={"planner_steps": 2}` exhausts every episode (`{"planner_steps": 5,
    "llm_calls": 30}` does not).\""""
    tight = _run(tmp_path / "tight", "restgpt", planner_steps=2)
    assert tight["status_counts"] == {"budget_exhausted": 2}
    loose = _run(tmp_path / "loose", "restgpt", planner_steps=5, llm_calls=30)
    assert loose["status_counts"] == {"finished": 2}


def test_shortlist_is_enforced_under_this_projects_pack_too(tmp_path: Path, data_dir: Path) -> None:
    """The shortlist check is the graph's, not the upstream pack's: under `-A prompts=restgraph` the
    refused choice comes back as the selector's note, with the same NOT_IN_LIST text."""
    _run(tmp_path / "run", "test-nb2-top1-restgraph", limit=2)
    trace = next(t for t in TraceStore(tmp_path / "run").load().traces if t.task_id == "tmdb/2")
    notes = [
        c for c in trace.model_calls() if c.role == "selector" and NOT_IN_LIST in c.messages[-1]["content"]
    ]
    assert len(notes) == 3, [c.raw_output for c in trace.model_calls()]


def test_ablations_drop_their_role(tmp_path: Path, runs: dict[str, Path]) -> None:
    """"`restgpt-no-planner` (selector works ReAct-style), `restgpt-no-parser` (the model reads raw
    JSON instead of writing parser code)" and "RestBench runs use the `upstream` pack\""""
    import json

    roles = json.loads((runs["restgpt"] / "config.json").read_text())["agent_roles"]
    assert {r["pack"] for r in roles.values()} == {"upstream"}, roles
    _run(tmp_path / "no-planner", "restgpt-no-planner")
    used = set(results.load(tmp_path / "no-planner", scores=False).model_calls.role)
    assert "planner" not in used and "selector" in used, used

    def parser_calls(run: Path) -> list[Any]:
        traces = TraceStore(run).load().traces
        return [c for t in traces for c in t.model_calls() if c.role == "parser"]

    assert all(c.messages[-1]["content"].rstrip().endswith("Python Code:") for c in parser_calls(runs["restgpt"]))
    _run(tmp_path / "no-parser", "restgpt-no-parser")
    reads = parser_calls(tmp_path / "no-parser")
    assert reads and not [c for c in reads if "Python Code:" in c.messages[-1]["content"]]
    assert not [c for c in reads if "```python" in c.raw_output or "print(" in c.raw_output]
    assert all('"id":' in c.messages[-1]["content"] for c in reads), "the raw JSON is in the prompt"
