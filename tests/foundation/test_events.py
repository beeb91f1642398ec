"""restgraph.tools.events: emit reaches the listeners of its context only, crosses into helper threads, and
a parse outcome attaches to the model call that produced the reply, whatever order calls end in."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from uuid import uuid4

from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, LLMResult

from restgraph.evals.recording import EpisodeRecorder
from restgraph.tools.events import Event, HttpExchange, ModelParsed, emit, listening, parse_outcome
from restgraph.tools.pyexec import run_sync


def _exchange(name: str) -> HttpExchange:
    return HttpExchange(name=name, method="GET", url=f"http://x/{name}", path=f"/{name}", status=200)


async def test_listeners_are_scoped_to_their_context() -> None:
    emit(_exchange("nobody-listens"))  # a no-op outside any listener
    a: list[Event] = []
    b: list[Event] = []

    async def episode(sink: list[Event], name: str) -> None:
        with listening(sink.append):
            await asyncio.sleep(0)
            emit(_exchange(name))

    await asyncio.gather(episode(a, "a"), episode(b, "b"))
    assert [e.name for e in a] == ["a"] and [e.name for e in b] == ["b"]  # type: ignore[attr-defined]


async def test_events_from_run_sync_helper_thread_reach_the_caller() -> None:
    seen: list[Event] = []

    async def work() -> None:
        emit(_exchange("from-thread"))

    with listening(seen.append):
        run_sync(work())  # a loop is running here, so this goes through the helper thread
    assert [e.name for e in seen] == ["from-thread"]  # type: ignore[attr-defined]


def _end(recorder: EpisodeRecorder, run_id, text: str) -> AIMessage:
    message = AIMessage(content=text, id=f"lc_run-{run_id}")
    recorder.model_ended(run_id, LLMResult(generations=[[ChatGeneration(message=message)]]))
    return message


def test_parse_outcome_attaches_to_its_own_call_in_any_order() -> None:
    recorder = EpisodeRecorder()
    runs = [uuid4() for _ in range(3)]
    for run_id in runs:
        recorder.model_started(run_id, [])
    replies = [_end(recorder, run_id, f"reply {i}") for i, run_id in enumerate(runs)]
    with listening(recorder.on_event):
        parse_outcome(replies[1], parsed={"n": 1}, role="r")
        parse_outcome(replies[0], parse_error="bad 0")
        parse_outcome(AIMessage(content="no id"), parsed="lost")  # cannot be attributed: dropped
    calls = recorder.close_step("n").model_calls
    assert [(c.raw_output, c.parsed, c.parse_error) for c in calls] == [
        ("reply 0", None, "bad 0"),
        ("reply 1", {"n": 1}, None),
        ("reply 2", None, None),
    ]
    assert calls[1].role == "r"


def test_an_outcome_that_arrives_before_its_call_ends_is_kept() -> None:
    recorder = EpisodeRecorder()
    run_id = uuid4()
    recorder.model_started(run_id, [])
    recorder.on_event(ModelParsed(message_id=f"lc_run-{run_id}", parsed="early"))
    _end(recorder, run_id, "late")
    assert recorder.close_step("n").model_calls[0].parsed == "early"


def test_the_http_tool_imports_neither_the_harness_nor_langchain() -> None:
    code = (
        "import sys, restgraph.tools.openapi.client, restgraph.tools.pyexec, restgraph.tools.synthetic_api.checker; "
        "print(sorted({'.'.join(m.split('.')[:2]) for m in sys.modules if "
        "'.'.join(m.split('.')[:2]) in ('restgraph.evals', 'restgraph.graphs', "
        "'restgraph.agents')} | {m.split('.')[0] for m in sys.modules if m.split('.')[0] == "
        "'langchain_core'}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
