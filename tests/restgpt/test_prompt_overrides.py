"""``-A prompts=...``: the two packs by name, and single templates overridden from a JSON file or a
folder of ``NAME.txt`` files. An override moves only its own role onto its template's pack, whatever
the letter case of its name (a lower-case key used to flip every role to the restgraph pack)."""

from __future__ import annotations

import json

import pytest

from restgraph.agents.restgpt.config import RestGPTConfig, prompt_options
from restgraph.agents.restgpt.packs import record, roles_for
from restgraph.agents.restgpt.role import digest
from restgraph.graphs.restgpt import build_restgpt
from tests.restgpt.upstream_support import drive, replay_env, replay_model, vector


def test_prompt_option_forms(tmp_path) -> None:
    assert prompt_options("upstream") == {"prompt_pack": "upstream"} and prompt_options("restgraph") == {
        "prompt_pack": "restgraph"
    }
    (tmp_path / "over.json").write_text(json.dumps({"PLANNER_PROMPT": "P {input}"}))
    assert prompt_options(str(tmp_path / "over.json")) == {"prompts": {"PLANNER_PROMPT": "P {input}"}}
    (tmp_path / "dir").mkdir()
    (tmp_path / "dir" / "planner.txt").write_text("MY PLANNER $examples")
    assert prompt_options(str(tmp_path / "dir")) == {"prompts": {"planner": "MY PLANNER $examples"}}
    with pytest.raises(ValueError, match="use upstream, restgraph"):
        prompt_options(str(tmp_path / "missing.json"))
    with pytest.raises(ValueError, match="no prompt template 'planer'"):
        prompt_options({"planer": "typo"})
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


@pytest.mark.parametrize(
    ("key", "pack"),
    [
        ("planner", "restgraph"),
        ("PLANNER", "restgraph"),
        ("PLANNER_PROMPT", "upstream"),
        ("planner_prompt", "upstream"),
    ],
)
def test_one_override_moves_one_role_whatever_the_case(key: str, pack: str) -> None:
    config = RestGPTConfig.from_options({"prompts": {key: "X"}}).for_scenario("tmdb")
    assert config.prompt_pack == "upstream"  # the scenario's pack, not guessed from the key's case
    chosen = roles_for(config)
    assert chosen["planner"].pack == pack
    assert {
        name: chosen[name].pack for name in ("selector", "caller", "parser", "deps_plan")
    } == dict.fromkeys(("selector", "caller", "parser", "deps_plan"), "upstream")
    rec = record(config, chosen, ["planner", "selector"])
    name = "planner" if pack == "restgraph" else "PLANNER_PROMPT"
    assert rec["planner"]["templates"] == {name: digest("X")} and "templates" not in rec["selector"]
    with pytest.raises(ValueError, match="both packs"):
        roles_for(
            RestGPTConfig.from_options({"prompts": {"planner": "X", "PLANNER_PROMPT": "Y"}}).for_scenario(
                "tmdb"
            )
        )
