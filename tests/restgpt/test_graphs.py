"""Graph shape (ablation switches), loop budgets and the executor's behaviours, on a fake API."""

from __future__ import annotations

import os

from restgraph.graphs.registry import get_agent
from restgraph.graphs.restgpt import build_restgpt
from restgraph.graphs.restgpt_baselines import build_deps, build_offline, build_react, build_reflexion
from tests.restgpt.conftest import caller_op, http_calls, model_calls, role_model, run_graph

PRINT_NAME = "```python\nprint('name: ' + str(data.get('name')) + ' (' + str(data.get('id')) + ')')\n```"


def shape(graph) -> tuple[set[str], set[tuple[str, str]]]:
    drawn = graph.get_graph()
    return set(drawn.nodes), {(e.source, e.target) for e in drawn.edges}


def test_ablation_switches_change_the_graph(fake_env) -> None:
    model = role_model({})
    nodes, edges = shape(build_restgpt(model, fake_env, {}))
    assert {"planner", "selector", "caller", "parser", "finish"} <= nodes
    assert {
        ("start", "planner"),
        ("planner", "selector"),
        ("selector", "caller"),
        ("caller", "parser"),
        ("parser", "caller"),
        ("caller", "planner"),
        ("selector", "selector"),
        ("planner", "finish"),
    } <= edges
    nodes, edges = shape(build_restgpt(model, fake_env, {}, use_planner=False))
    assert "planner" not in nodes and ("start", "selector") in edges and ("caller", "selector") in edges
    nodes, edges = shape(build_restgpt(model, fake_env, {"use_parser": "0"}))
    assert "parser" not in nodes and "reader" in nodes and ("caller", "reader") in edges
    for builder, own in (
        (build_reflexion, {"selector", "reflect"}),
        (build_deps, {"plan", "select", "describe", "explain"}),
        (build_offline, {"plan_all", "next_step", "answer"}),
    ):
        nodes, edges = shape(builder(model, fake_env, {}))
        assert own | {"caller", "parser"} <= nodes, builder.__name__


def test_nodes_name_their_successor_without_conditional_edges(fake_env) -> None:
    """Every RestGPT-family node routes by the ``Command`` it returns: a conditional edge would be
    a runnable of its own on a copy of every state channel after each step (issue 30's CPU). The
    drawn graph still shows where each node may go."""
    model = role_model({})
    for builder in (build_restgpt, build_reflexion, build_deps, build_offline, build_react):
        graph = builder(model, fake_env, {})
        assert not any(graph.builder.branches.values()), builder.__name__
        nodes, edges = shape(graph)
        assert ("caller", "parser") in edges and ("parser", "caller") in edges, builder.__name__


def test_react_and_restgpt_without_planner_are_one_graph(fake_env) -> None:
    model = role_model({})
    react, no_planner = (
        get_agent("react").build(model, fake_env, {}),
        get_agent("restgpt-no-planner").build(model, fake_env, {}),
    )
    assert shape(react) == shape(no_planner)
    assert "planner" not in shape(react)[0]


async def test_restgpt_happy_path_and_recorded_config(fake_env) -> None:
    model = role_model(
        {
            "planner": ["Plan step 1: get the name of item 1", "Final Answer: apple"],
            "selector": "API calling 1: GET /items/1 to get the name of item 1",
            "caller": [caller_op("GET", "/items/1"), "Execution Result: item 1 is apple"],
            "parser": PRINT_NAME,
        }
    )
    state, rec = await run_graph(build_restgpt(model, fake_env, {"planner_steps": 4}))
    assert (state["status"], state["final_answer"]) == ("finished", "apple")
    assert state["config"]["budget"]["planner_steps"] == 4
    assert [c.name for c in http_calls(rec)] == ["GET /items/{item_id}"]
    python = [c for s in rec.steps for c in s.tool_calls if c.kind == "python"]
    assert python and python[0].response.strip() == "name: apple (1)"
    caller_prompts = [c.messages[-1]["content"] for c in model_calls(rec) if c.role == "caller"]
    assert "Response: name: apple (1)" in caller_prompts[-1]


async def test_no_step_of_an_episode_is_handed_to_a_thread(fake_env, monkeypatch) -> None:
    """LangGraph runs a plain-function node or edge of a graph driven asynchronously in its thread
    pool (``run_in_executor``): ``route`` and ``finish`` are async, so no step of an episode (13 or
    so per RestGPT episode) pays a thread hand-off."""
    import langgraph._internal._runnable as lg_runnable

    handed: list[str] = []
    real = lg_runnable.run_in_executor

    async def counting(executor, func, *args, **kwargs):
        handed.append(getattr(func, "__name__", repr(func)))
        return await real(executor, func, *args, **kwargs)

    monkeypatch.setattr(lg_runnable, "run_in_executor", counting)  # before the graph is built
    model = role_model(
        {
            "planner": ["Plan step 1: get the name of item 1", "Final Answer: apple"],
            "selector": "API calling 1: GET /items/1 to get the name of item 1",
            "caller": [caller_op("GET", "/items/1"), "Execution Result: item 1 is apple"],
            "parser": PRINT_NAME,
        }
    )
    state, rec = await run_graph(build_restgpt(model, fake_env, {}))
    assert (state["status"], state["final_answer"]) == ("finished", "apple")
    assert len(model_calls(rec)) >= 5 and http_calls(rec)  # planner, selector, caller, parser... ran
    assert handed == []


async def test_non_2xx_204_and_unknown_urls_become_observations(fake_env) -> None:
    model = role_model(
        {
            "planner": ["Plan step 1: do things", "Final Answer: done"],
            "selector": "GET /items/99 to read item 99",
            "caller": [
                caller_op("GET", "/items/99"),
                caller_op("PUT", "/player/pause"),
                caller_op("GET", "/nowhere/at/all"),
                caller_op("FETCH", "/items/1"),
                "not a caller step",
                "Execution Result: item 99 does not exist",
            ],
        }
    )
    state, rec = await run_graph(build_restgpt(model, fake_env, {"caller_iterations": 8}))
    assert state["status"] == "finished"
    assert [c.status for c in http_calls(rec)] == [404, 204]  # the unknown URL and verb were never sent
    last_prompt = [c.messages[-1]["content"] for c in model_calls(rec) if c.role == "caller"][-1]
    assert "Response: Status 404:" in last_prompt and "could not be found" in last_prompt
    assert "Status 204: success, no content." in last_prompt
    assert "matches no endpoint" in last_prompt and "unknown HTTP method 'FETCH'" in last_prompt
    assert "could not be parsed" in last_prompt
    assert state["results"][0]["result"] == "item 99 does not exist"


async def test_parser_code_cannot_use_network_or_write_files(fake_env, tmp_path) -> None:
    target = str(tmp_path / "restgpt-parser-escape.txt")  # the sandbox's own /tmp is private and writable
    network = "```python\nimport socket\nsocket.create_connection(('127.0.0.1', 80), timeout=1)\nprint('connected')\n```"
    writes = f"```python\nopen({target!r}, 'w').write('x')\nprint('wrote')\n```"
    model = role_model(
        {
            "planner": ["Plan step 1: get item 1", "Final Answer: x"],
            "selector": "GET /items/1 for its name",
            "caller": [caller_op("GET", "/items/1"), "Execution Result: ok"],
            "parser": [network, writes, "Item 1 is apple (1)."],
        }
    )
    state, rec = await run_graph(build_restgpt(model, fake_env, {}))
    python = [c for s in rec.steps for c in s.tool_calls if c.kind == "python"]
    assert len(python) == 2 and all(c.error for c in python)
    assert "connected" not in (python[0].response or "") and "wrote" not in (python[1].response or "")
    assert not os.path.exists(target)
    caller_prompt = [c.messages[-1]["content"] for c in model_calls(rec) if c.role == "caller"][-1]
    assert "Response: Item 1 is apple (1)." in caller_prompt  # stage 4: the model read the JSON itself


async def test_planner_steps_budget(fake_env) -> None:
    model = role_model(
        {"planner": "Plan step 1: look up item 1 again", "selector": "No API call needed. apple"}
    )
    state, rec = await run_graph(build_restgpt(model, fake_env, {"planner_steps": 3}))
    assert state["status"] == "budget_exhausted" and "planner_steps=3" in state["error"]
    assert sum(c.role == "planner" for c in model_calls(rec)) == 3


async def test_unparseable_planner_is_bounded(fake_env) -> None:
    state, rec = await run_graph(
        build_restgpt(role_model({"planner": "}}{{ <|garbage|>"}), fake_env, {"planner_steps": 2})
    )
    assert state["status"] == "budget_exhausted"
    assert all(c.parse_error for c in model_calls(rec))


async def test_selector_retry_budget_ends_the_sub_task_not_the_episode(fake_env) -> None:
    model = role_model(
        {
            "planner": ["Plan step 1: find item", "Final Answer: no API could find it"],
            "selector": "GET /unknown/thing to find it",
        }
    )
    state, rec = await run_graph(build_restgpt(model, fake_env, {"selector_retries": 2}))
    assert state["status"] == "finished" and state["final_answer"] == "no API could find it"
    prompts = [c.messages[-1]["content"] for c in model_calls(rec) if c.role == "selector"]
    assert len(prompts) == 3 and "not in the list of available APIs" in prompts[-1]
    planner = [c.messages[-1]["content"] for c in model_calls(rec) if c.role == "planner"]
    assert len(planner) == 2 and "found no usable API within 2 retries (selector_retries)" in planner[1]


async def test_caller_iterations_give_an_explicit_step_limit_result(fake_env) -> None:
    model = role_model(
        {
            "planner": ["Plan step 1: get item 1", "Final Answer: gave up"],
            "selector": "GET /items/1 name",
            "caller": caller_op("GET", "/items/1"),
            "parser": PRINT_NAME,
        }
    )
    state, rec = await run_graph(build_restgpt(model, fake_env, {"caller_iterations": 2}))
    assert state["status"] == "finished"
    assert state["results"][0]["result"].startswith("Step limit reached (caller_iterations=2)")
    assert len(http_calls(rec)) == 2


async def test_parser_attempts_budget(fake_env) -> None:
    model = role_model(
        {
            "planner": ["Plan step 1: get item 1", "Final Answer: x"],
            "selector": "GET /items/1 name",
            "caller": [caller_op("GET", "/items/1"), "Execution Result: parse failed"],
            "parser": "```python\nprint(undefined)\n```",
        }
    )
    state, rec = await run_graph(build_restgpt(model, fake_env, {"parser_attempts": 2}))
    assert sum(c.role == "parser" for c in model_calls(rec)) == 2
    caller_prompt = [c.messages[-1]["content"] for c in model_calls(rec) if c.role == "caller"][-1]
    assert "could not be parsed within 2 parser attempts" in caller_prompt


async def test_llm_call_budget(fake_env) -> None:
    model = role_model(
        {
            "planner": "Plan step 1: get item 1",
            "selector": "GET /items/1 name",
            "caller": caller_op("GET", "/items/1"),
            "parser": PRINT_NAME,
        }
    )
    state, rec = await run_graph(build_restgpt(model, fake_env, {"llm_calls": 5, "planner_steps": 50}))
    assert state["status"] == "budget_exhausted" and "llm_calls=5" in state["error"]
    assert len(model_calls(rec)) == 5


async def test_react_reflexion_deps_offline_budgets(fake_env) -> None:
    looping = role_model(
        {
            "selector": "GET /items/1 to read it",
            "caller": "Execution Result: apple",
            "deps_plan": "GET /items/1 read",
            "deps_select": "GET /items/1 read",
            "deps_describe": "item 1 is apple",
        }
    )
    state, _ = await run_graph(build_react(looping, fake_env, {"agent_steps": 3}))
    assert state["status"] == "budget_exhausted" and "agent_steps=3" in state["error"]
    state, rec = await run_graph(build_deps(looping, fake_env, {"agent_steps": 2}))
    assert (
        state["status"] == "budget_exhausted"
        and len([c for c in model_calls(rec) if c.role == "deps_select"]) == 2
    )

    reflect = role_model(
        {"selector": "Final Answer: banana", "reflect": "Verdict: FAILURE\nReflection: look item 1 up first"}
    )
    resets: list[int] = []
    fake_env.reset = lambda: resets.append(1)
    state, _ = await run_graph(build_reflexion(reflect, fake_env, {"reflexion_reset": "0"}))
    assert state["trial"] == 2 and resets == []  # -A reflexion_reset=0: trial 2 continues on trial 1's state
    state, rec = await run_graph(build_reflexion(reflect, fake_env, {}))
    assert (
        state["status"] == "finished" and state["trial"] == 2 and resets == [1]
    )  # a fresh state before trial 2
    react_prompts = [c.messages[-1]["content"] for c in model_calls(rec) if c.role == "selector"]
    assert (
        len(react_prompts) == 2
        and "look item 1 up first" in react_prompts[1]
        and "look item 1 up first" not in react_prompts[0]
    )
    assert sum(c.role == "reflect" for c in model_calls(rec)) == 1

    offline = role_model(
        {
            "offline_plan": "\n".join(["GET /items/1 read"] * 6),
            "caller": "Execution Result: apple",
            "offline_answer": "apple",
        }
    )
    state, rec = await run_graph(build_offline(offline, fake_env, {"agent_steps": 3}))
    assert state["status"] == "finished" and state["final_answer"] == "apple" and len(state["results"]) == 3
