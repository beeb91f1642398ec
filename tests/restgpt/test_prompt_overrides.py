"""``-A prompts=...``: the two packs by name, and single templates overridden from a JSON file or a
folder of ``NAME.txt`` files (upstream names override the upstream pack, restgraph names ours)."""

from __future__ import annotations

import json

import pytest

from restgraph.agents.restgpt.config import RestGPTConfig, prompt_options
from restgraph.graphs.restgpt import build_restgpt
from tests.restgpt.upstream_support import drive, replay_env, replay_model, vector


def test_prompt_option_forms(tmp_path) -> None:
    assert prompt_options("upstream") == {"prompt_pack": "upstream"} and prompt_options("restgraph") == {
        "prompt_pack": "restgraph"
    }
    (tmp_path / "over.json").write_text(json.dumps({"PLANNER_PROMPT": "P {input}"}))
    assert prompt_options(str(tmp_path / "over.json")) == {
        "prompt_pack": "upstream",
        "prompts": {"PLANNER_PROMPT": "P {input}"},
    }
    (tmp_path / "dir").mkdir()
    (tmp_path / "dir" / "planner.txt").write_text("MY PLANNER $examples")
    assert prompt_options(str(tmp_path / "dir")) == {
        "prompt_pack": "restgraph",
        "prompts": {"planner": "MY PLANNER $examples"},
    }
    with pytest.raises(ValueError, match="use upstream, restgraph"):
        prompt_options(str(tmp_path / "missing.json"))
    assert RestGPTConfig.from_options({"prompts": "restgraph"}).prompt_pack == "restgraph"
    assert RestGPTConfig.from_options({}).for_scenario("tmdb").prompt_pack == "upstream"
    assert (
        RestGPTConfig.from_options({}).for_scenario("my-api").prompt_pack == "restgraph"
    )  # upstream has no examples for it


async def test_an_upstream_template_overridden_from_a_file(tmp_path) -> None:
    rec = vector("tmdb_q000")
    (tmp_path / "over.json").write_text(
        json.dumps(
            {
                "PLANNER_PROMPT": "MY PLANNER {icl_examples}\nUser query: {input}\nPlan step 1: {agent_scratchpad}"
            }
        )
    )
    completions = [c["completion"] for c in rec["calls"]]
    graph = build_restgpt(
        replay_model(completions, tmp_path),
        replay_env("tmdb", rec["http"]),
        {"prompts": str(tmp_path / "over.json")},
    )
    state, log = await drive(graph, rec["query"])
    assert state["status"] == "finished"
    prompts = [c["prompt"] for c in log.calls]
    assert prompts[0].startswith(
        "MY PLANNER Example 1:\nUser query: give me some movies performed by Tony Leung."
    )
    assert prompts[0].endswith(f"User query: {rec['query']}\nPlan step 1: ")
    assert prompts[1] == rec["calls"][1]["prompt"]  # the other templates stay upstream's
