"""Upstream prompt assembly on paths the recorded episodes do not take.

Each test perturbs a recorded episode (``upstream_vectors/tmdb_q000.json``): a rejected selector
output, parser code that fails twice, a caller that makes two operations, the w/o-parser reader,
a caller input without ``output_instructions``. The expected prompts are assembled here from the
upstream templates (read from the original files) and the original code's logic
(``model/api_selector.py``, ``caller.py``, ``parser.py``), independently of restgraph's assembly.
"""

from __future__ import annotations

import json
import re
from typing import Any

from restgraph.agents.restgpt.upstream import source
from restgraph.graphs.restgpt import build_restgpt
from restgraph.tools.tokenizer import p50k_base
from tests.restgpt.upstream_support import drive, replay_env, replay_model, vector

NOT_IN_LIST = "The API you called is not in the list of available APIs. Please use another API."


async def run(
    tmp_path, completions: list[str], http: list[dict[str, Any]], **options: Any
) -> tuple[dict[str, Any], list[str]]:
    rec = vector("tmdb_q000")
    graph = build_restgpt(replay_model(completions, tmp_path), replay_env("tmdb", http), options)
    state, log = await drive(graph, rec["query"])
    return state, [c["prompt"] for c in log.calls]


def recorded() -> tuple[dict[str, Any], list[dict[str, Any]], list[str]]:
    rec = vector("tmdb_q000")
    return rec, rec["calls"], [c["completion"] for c in rec["calls"]]


def cut(text: str, limit: int) -> str:
    enc = p50k_base()
    tokens = enc.encode(text)
    return text if len(tokens) <= limit else enc.decode(tokens[:limit]) + "..."


def parser_values(prompt: str) -> dict[str, str]:
    """api_path, description, api_param, schema, response description and query of a recorded parser prompt."""
    grab = {
        "api_path": r"\nAPI: (.*)\n",
        "api_description": r"\nAPI description: (.*)\n",
        "api_param": r"this API call:\n(.*)\n",
        "response_schema": r"defined in the OAS:\n(.*)\n\nExample:",
        "response_description": r"The response is about: (.*)\n",
        "query": r"\nQuery: (.*)\n",
    }
    return {
        k: re.search(p, prompt, re.DOTALL if k == "response_schema" else 0).group(1) for k, p in grab.items()
    }


async def test_selector_retry_appends_the_rejected_output(tmp_path) -> None:
    rec, calls, completions = recorded()
    bad = "GET /director/search to find Sofia Coppola"
    state, prompts = await run(tmp_path, [completions[0], bad, *completions[1:]], rec["http"])
    want = [c["prompt"] for c in calls]
    assert prompts[:2] == want[:2]
    assert prompts[2] == want[1] + bad + "\n" + NOT_IN_LIST + "\n"  # APISelector._call's retry
    assert prompts[3:] == want[2:] and state["status"] == "finished"


async def test_parser_fallback_chain(tmp_path) -> None:
    rec, calls, completions = recorded()
    body = rec["http"][1]["response_text"]
    output = (
        "Sofia Coppola (1769) directed 7 movies: The Virgin Suicides (1443), Lost in Translation "
        "(153), Marie Antoinette (1887), Somewhere (39781), The Bling Ring (96936), The Beguiled "
        "(399019), On the Rocks (575774)\n"
    )
    chain = ["print(data['no_such_key'])", "x = 1  # prints nothing", output]
    state, prompts = await run(tmp_path, [*completions[:8], *chain, *completions[9:]], rec["http"])
    want = [c["prompt"] for c in calls]
    assert prompts[:9] == want[:9]  # up to the schema-code prompt
    v = parser_values(want[8])
    sample = source.template("model/parser.py", "CODE_PARSING_RESPONSE_TEMPLATE").format(
        api_path=v["api_path"],
        api_description=v["api_description"],
        api_param=v["api_param"],
        response_schema=v["response_schema"],
        json=cut(body, 500),
        query=v["query"],
    )
    assert len(p50k_base().encode(body)) > 2000 and prompts[9] == sample
    read = source.template("model/parser.py", "LLM_PARSING_TEMPLATE").format(
        api_path=v["api_path"],
        api_description=v["api_description"],
        api_param=v["api_param"],
        json=cut(body, 2000),
        response_description=v["response_description"],
        query=v["query"],
    )
    assert prompts[10] == read
    assert prompts[11] == want[9].replace("Response: " + _recorded_output(want[9]), "Response: " + output)
    assert state["status"] == "finished"


def _recorded_output(caller_prompt: str) -> str:
    return caller_prompt.rsplit("\nResponse: ", 1)[1][: -len("\n\n")]


async def test_two_operations_in_one_caller_run(tmp_path) -> None:
    rec, calls, completions = recorded()
    op, code = completions[2], completions[3]
    http = [rec["http"][0], rec["http"][0], rec["http"][1]]
    state, prompts = await run(tmp_path, [*completions[:4], op, code, *completions[4:]], http)
    want = [c["prompt"] for c in calls]
    assert prompts[:5] == want[:5]  # the second caller prompt shows the first operation
    assert prompts[5] == want[3]  # the same parser prompt for the same request
    one_step = want[4]
    printed = "The id of Sofia Coppola is 1769\n"  # what the recorded code prints, newline included
    assert prompts[6] == one_step[:-1] + f"Thought: {op}\nResponse: {printed}\n" + "\n"
    assert prompts[7:] == want[5:] and state["status"] == "finished"


async def test_without_parser_the_model_reads_the_json(tmp_path) -> None:
    rec, calls, completions = recorded()
    body = rec["http"][0]["response_text"]
    reading = "The id of Sofia Coppola is 1769"
    state, prompts = await run(
        tmp_path,
        [*completions[:3], reading, "Execution Result: Sofia Coppola is 1769", "Final Answer: 7"],
        rec["http"][:1],
        use_parser=False,
    )
    v = parser_values(calls[3]["prompt"])
    want = source.template("model/parser.py", "LLM_PARSING_TEMPLATE").format(
        api_path=v["api_path"],
        api_description=v["api_description"],
        api_param=v["api_param"],
        json=cut(body, 1000),
        response_description=v["response_description"],
        query=v["query"],
    )
    assert prompts[:3] == [c["prompt"] for c in calls[:3]] and prompts[3] == want
    assert f"Response: {reading}\n" in prompts[4] and state["final_answer"] == "7"


async def test_no_output_instructions_reads_the_whole_json(tmp_path) -> None:
    rec, calls, completions = recorded()
    payload = json.loads(completions[2].split("Input: ", 1)[1])
    payload.pop("output_instructions")
    op = completions[2].split("Input: ", 1)[0] + "Input: " + json.dumps(payload, indent=4)
    state, prompts = await run(
        tmp_path,
        [*completions[:2], op, "Sofia Coppola has the id 1769", "Execution Result: 1769", "Final Answer: 7"],
        rec["http"][:1],
    )
    v = parser_values(calls[3]["prompt"])
    want = source.template("model/parser.py", "LLM_PARSING_TEMPLATE").format(
        api_path=v["api_path"],
        api_description=v["api_description"],
        api_param=v["api_param"],
        json=rec["http"][0]["response_text"],
        response_description=v["response_description"],
        query=None,
    )
    assert prompts[3] == want and state["final_answer"] == "7"
