"""Each role's parsing of well-formed and malformed model output (text protocol and structured)."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.runnables import RunnableLambda

from restgraph.agents.parsing import ParseError
from restgraph.agents.restgpt.baseline_roles import parse_select_line
from restgraph.agents.restgpt.llm import call_role, cut_at_stops
from restgraph.agents.restgpt.protocol import (
    PlannerDecision,
    endpoint_in_plan,
    parse_caller,
    parse_code,
    parse_planner,
    parse_reflection,
    parse_selector,
    parse_steps,
)
from restgraph.evals.recording import EpisodeRecorder, TraceCallbackHandler, reset_recorder, set_recorder
from tests.restgpt.conftest import role_model


def test_planner_text_protocol() -> None:
    assert parse_planner("Plan step 2: search for Sofia Coppola").model_dump() == {
        "kind": "next_step",
        "text": "search for Sofia Coppola",
    }
    assert parse_planner("continue. get her movies").kind == "continue"  # any case (defect 13)
    assert parse_planner("Thought: done\n**Final Answer:** 7 movies").model_dump() == {
        "kind": "final_answer",
        "text": "7 movies",
    }
    assert parse_planner("final answer 7 movies").kind == "final_answer"
    for bad in ("", "   ", "Plan step 3:", "}}{{ <|garbage|> ```", '{"kind": "oops"}'):
        with pytest.raises(ParseError):
            parse_planner(bad)


def test_selector_text_protocol() -> None:
    assert (
        parse_selector("API calling 1: GET /person/1032/movie_credits to get movies").plan
        == "GET /person/1032/movie_credits to get movies"
    )
    assert parse_selector("no api call needed. It is 12453").model_dump(include={"kind", "plan"}) == {
        "kind": "no_api_call",
        "plan": "It is 12453",
    }
    assert parse_selector("Final Answer: done").kind == "final_answer"
    assert endpoint_in_plan("GET /movie/603. then read it") == ("GET", "/movie/603")  # trailing punctuation
    assert endpoint_in_plan("get /search/person?query=x") == ("GET", "/search/person")
    for bad in ("", "I would search for the person", '{"kind": 3}'):
        with pytest.raises(ParseError):
            parse_selector(bad)


def test_caller_text_protocol() -> None:
    op = parse_caller(
        'Thought: x\nOperation: get\nInput: ```json\n{"url": "http://a/b", "params": {"q": 1}, "output_instructions": "id"}\n```'
    )
    assert (op.kind, op.method, op.url, op.params, op.output_instructions) == (
        "operation",
        "GET",
        "http://a/b",
        {"q": 1},
        "id",
    )
    post = parse_caller('Operation: POST\nInput: {"url": "http://a/b", "data": "{\\"name\\": \\"x\\"}"}')
    assert post.data == {"name": "x"}
    done = parse_caller("Thought: finished\nExecution Result: called GET /b, found 3")
    assert (done.kind, done.result) == ("execution_result", "called GET /b, found 3")
    # an operation followed by an invented result: the operation wins, the invented text is ignored
    assert (
        parse_caller('Operation: GET\nInput: {"url": "http://a/b"}\nExecution Result: fake').kind
        == "operation"
    )
    for bad in (
        "",
        "Thought: hmm",
        "Operation: GET\nInput: not json",
        'Operation: GET\nInput: {"params": {}}',
        'Operation: GET\nInput: {"url": "x", "params": [1]}',
    ):
        with pytest.raises(ParseError):
            parse_caller(bad)


def test_parser_code_and_lists() -> None:
    assert parse_code("```python\nprint(data['id'])\n```").code == "print(data['id'])"
    for bad in ("", "```python\n```", "x = data['id']"):
        with pytest.raises(ParseError):
            parse_code(bad)
    assert parse_steps(
        "1. GET /search/person find\n2) GET /person/{person_id}/movie_credits films\nsome prose"
    ).steps == ["GET /search/person find", "GET /person/{person_id}/movie_credits films"]
    with pytest.raises(ParseError):
        parse_steps("I will search and then answer")
    assert parse_reflection("Verdict: FAILURE\nReflection: use /search/tv").model_dump() == {
        "success": False,
        "reflection": "use /search/tv",
    }
    with pytest.raises(ParseError):
        parse_reflection("looks fine to me")


def test_select_protocol() -> None:
    assert parse_select_line("Next: GET /movie/11/credits to read").action.startswith("GET /movie/11/credits")
    with pytest.raises(ParseError):
        parse_select_line("nothing useful")


def test_stop_markers_cut_client_side() -> None:
    assert (
        cut_at_stops("Plan step 1: x\nAPI response: invented id 1776", ["\nAPI response:"])
        == "Plan step 1: x"
    )


async def traced_call(model: Any, structured: bool) -> tuple[Any, Any]:
    """call_role inside a traced run, the way graph nodes call it."""
    recorder = EpisodeRecorder()
    token = set_recorder(recorder)
    try:

        async def go(_: Any) -> Any:
            return await call_role(
                model,
                role="planner",
                system="s",
                user="u",
                schema=PlannerDecision,
                text_parser=parse_planner,
                stop=["\nAPI response:"],
                structured=structured,
            )

        reply = await RunnableLambda(go).ainvoke(None, {"callbacks": [TraceCallbackHandler(recorder)]})
    finally:
        reset_recorder(token)
    assert recorder.last_model_call is not None
    return reply, recorder.last_model_call


@pytest.mark.parametrize("structured", [True, False])
async def test_malformed_reply_is_recorded_not_raised(structured: bool) -> None:
    model = role_model({"planner": "}}{{ <|garbage|> ```"}, structured=structured)
    reply, call = await traced_call(model, structured)
    assert reply.parsed is None and reply.error
    assert call.parse_error and call.raw_output.startswith("}}{{")


async def test_structured_reply_rescued_by_text_protocol() -> None:
    """A structured-output model that answers in prose still gets parsed (and the miss is recorded)."""
    model = role_model({"planner": "Plan step 1: search for Sofia Coppola"}, structured=True)
    reply, call = await traced_call(model, True)
    assert reply.ok and reply.parsed.kind == "next_step"
    assert call.parse_error and "structured output" in call.parse_error and call.parsed["kind"] == "next_step"
