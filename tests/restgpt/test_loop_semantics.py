"""RestGPT's loop semantics as published: endpoint matching anchored like upstream, unsent requests
not counted, 15 caller operations per plan, Reflexion trials on a fresh Spotify state, and the
graph step budget derived from the agent's own budgets."""

from __future__ import annotations

from restgraph.evals.benchmark import RunOptions
from restgraph.evals.benchmarks.restbench_spotify import RestBenchSpotify
from restgraph.evals.datasets.restbench import load_spec
from restgraph.evals.defaults import resolve_run_options
from restgraph.evals.recording import EpisodeRecorder, reset_recorder, set_recorder
from restgraph.evals.scorers.restbench import path_scores
from restgraph.evals.trace import Step, Task, Trace
from restgraph.graphs.registry import get_agent
from restgraph.graphs.restgpt import build_restgpt
from restgraph.tools.openapi import operations
from restgraph.tools.openapi.matching import match_endpoint, matched_endpoints
from tests.restgpt.conftest import caller_op, http_calls, model_calls, role_model, run_graph

PRINT_NAME = "print('name: ' + str(data.get('name')))"


def test_trending_paths_match_as_upstream(data_dir) -> None:
    keys = [op.key for op in operations(load_spec("tmdb"))]
    assert match_endpoint("GET", "/trending/movie/day", keys) == "GET /trending/{media_type}/{time_window}"
    assert match_endpoint("GET", "/movie/843", keys) == "GET /movie/{movie_id}"
    assert match_endpoint("GET", "/movie/popular", keys) == "GET /movie/popular"
    assert (
        match_endpoint("GET", "/tv/1399/season/2/episode/3", keys)
        == "GET /tv/{tv_id}/season/{season_number}/episode/{episode_number}"
    )
    assert matched_endpoints("GET /trending/tv/day to get the most trending TV show today", keys) == [
        "GET /trending/{media_type}/{time_window}"
    ]
    assert matched_endpoints("get /movie/843 (lower-case verbs are not calls upstream)", keys) == []


async def test_unsent_request_is_kept_but_not_counted(fake_env) -> None:
    recorder = EpisodeRecorder()
    token = set_recorder(recorder)
    try:
        await fake_env.http.request("GET", "/items/{item_id}")
        await fake_env.http.request("GET", "/items/1")
        recorder.close_step("caller")
    finally:
        reset_recorder(token)
    calls = http_calls(recorder)
    assert len(calls) == 2 and calls[0].extra["sent"] is False and calls[0].status == 0
    trace = Trace(
        task_id="t",
        task=Task(id="t", benchmark="b", instruction="q"),
        benchmark="b",
        agent="a",
        model="m",
        steps=[Step(index=0, node="caller", tool_calls=calls)],
    )
    assert path_scores(trace, ["GET /items/{item_id}"]) | {"executed_path": None} == {
        "correct_path": True,
        "api_calls": 1,
        "gold_len": 1,
        "executed_path": None,
    }
    assert path_scores(trace, ["GET /items/{item_id}", "GET /items/{item_id}"])["correct_path"] is False


async def test_caller_allows_fifteen_operations_per_plan(fake_env) -> None:
    model = role_model(
        {
            "planner": ["Plan step 1: read item 1 fifteen times", "Final Answer: apple"],
            "selector": "GET /items/1 read it",
            "caller": [caller_op("GET", "/items/1")] * 15 + ["Execution Result: apple"],
            "parser": PRINT_NAME,
        },
        structured=False,
    )
    state, rec = await run_graph(build_restgpt(model, fake_env, {"prompts": "restgraph"}))
    assert state["status"] == "finished" and len(http_calls(rec)) == 15
    assert not any("Step limit reached" in c.messages[-1]["content"] for c in model_calls(rec))
    model = role_model(
        {
            "planner": ["Plan step 1: read item 1 again and again", "Final Answer: gave up"],
            "selector": "GET /items/1 read it",
            "caller": caller_op("GET", "/items/1"),
            "parser": PRINT_NAME,
        },
        structured=False,
    )
    state, rec = await run_graph(build_restgpt(model, fake_env, {"prompts": "restgraph", "llm_calls": 200}))
    assert len(http_calls(rec)) == 15  # then the sub-task ends with an explicit step-limit result
    assert (
        "Step limit reached (caller_iterations=15)"
        in [c for c in model_calls(rec) if c.role == "planner"][-1].messages[-1]["content"]
    )


async def test_spotify_environment_resets_to_a_fresh_state(data_dir) -> None:
    bench = RestBenchSpotify()
    options = RunOptions(benchmark=bench.name, agent="reflexion", model="scripted:constant")
    task = bench.tasks(options)[0]
    async with bench.run_resources(options) as resources, bench.environment(task, resources, options) as env:
        before = (await env.http.request("GET", "/me/tracks")).json["items"]
        first = before[0]["track"]["id"]
        assert (await env.http.request("DELETE", "/me/tracks", params={"ids": first})).ok
        assert first not in [
            i["track"]["id"] for i in (await env.http.request("GET", "/me/tracks")).json["items"]
        ]
        assert env.reset_state()
        assert (await env.http.request("GET", "/me/tracks")).json[
            "items"
        ] == before  # trial 2 sees the initial library


def test_default_step_budget_comes_from_the_agent_budgets() -> None:
    options = RunOptions(benchmark="restbench-tmdb", agent="restgpt", model="openai:x")
    from restgraph.evals.benchmark import get_benchmark

    resolved = resolve_run_options(options, get_benchmark("restbench-tmdb"), get_agent("restgpt"))
    assert (
        resolved.max_steps >= 2 * 80 + 15
    )  # two graph steps per allowed LLM call, plus the planner's rounds
    bigger = resolve_run_options(
        options.model_copy(update={"agent_options": {"llm_calls": 300}}),
        get_benchmark("restbench-tmdb"),
        get_agent("restgpt"),
    )
    assert bigger.max_steps > resolved.max_steps
    assert (
        resolve_run_options(
            options.model_copy(update={"max_steps": 7}), get_benchmark("restbench-tmdb"), get_agent("restgpt")
        ).max_steps
        == 7
    )
    # the protocol is recorded too: chat for a chat model (completions for text-davinci-003)
    assert resolved.model_options == {"temperature": 0.0, "max_tokens": 256, "api": "chat"}
    spotify = resolve_run_options(
        options.model_copy(update={"benchmark": "restbench-spotify", "model_options": {"max_tokens": 50}}),
        get_benchmark("restbench-spotify"),
        get_agent("restgpt"),
    )
    assert spotify.model_options == {
        "temperature": 0.0,
        "max_tokens": 50,
        "api": "chat",
    }  # -M overrides the published decoding
    davinci = options.model_copy(update={"model": "openai:text-davinci-003"})
    assert (
        resolve_run_options(davinci, get_benchmark("restbench-tmdb"), get_agent("restgpt")).model_options[
            "api"
        ]
        == "completions"
    )


async def _reflexion_queue_adds(options: dict) -> list[str]:
    """Reflexion on the Spotify sandbox where each trial queues the same song and trial 1 is judged
    a failure; returns the user queue at the end."""
    from restgraph.graphs.restgpt_baselines import build_reflexion

    bench = RestBenchSpotify()
    run = RunOptions(benchmark=bench.name, agent="reflexion", model="scripted:constant")
    task = bench.tasks(run)[0]
    async with bench.run_resources(run) as resources, bench.environment(task, resources, run) as env:
        track = (await env.http.request("GET", "/me/tracks")).json["items"][0]["track"]["id"]
        op = (
            'I add the song.\nOperation: POST\nInput: {"url": "https://api.spotify.com/v1/me/player/queue", "params": {"uri": "spotify:track:'
            + track
            + '"}, "description": "queue", "output_instructions": "did it work?"}'
        )
        model = role_model(
            {
                "selector": ["POST /me/player/queue to queue the song", "No API call needed. queued"] * 2,
                "caller": [op, "Execution Result: queued"] * 2,
                "parser": "queued",
                "reflect": "Verdict: FAILURE\nReflection: queue it again",
            }
        )
        state, _ = await run_graph(build_reflexion(model, env, options), instruction=task.instruction)
        assert state["trial"] == 2 and state["final_answer"] == "queued"
        final = await bench.final_env_state(env)
    return [u for u in final["final_state"]["user_queue"] if track in u]


async def test_reflexion_second_trial_starts_from_a_fresh_spotify_state(data_dir) -> None:
    assert len(await _reflexion_queue_adds({})) == 1  # trial 2 queued the song on a fresh state
    assert (
        len(await _reflexion_queue_adds({"reflexion_reset": "0"})) == 2
    )  # live-API behaviour: both trials' adds stay
