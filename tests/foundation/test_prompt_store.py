"""Prompts are stored once per run (``restgraph.evals.prompt_store``): lines hold hash refs, loading gives the
messages back exactly, a torn store is repaired, schema-1 lines still load, and scoring a run
gives the same files whichever way its prompts were stored."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import pytest

from restgraph.evals.prompt_store import FILENAME, PromptMissing, PromptStore, chunks
from restgraph.evals.trace import ModelCall, Step, Task, Trace, TraceStore
from tests.foundation.conftest import cli

TEMPLATE = "".join(
    f"Rule {i}: the planner must say what it does and why, line {i} of the template.\n" for i in range(40)
)


def _trace(task_id: str, question: str, history: str = "") -> Trace:
    task = Task(id=task_id, benchmark="smoke", instruction=question)
    calls = [
        ModelCall(
            role="planner",
            messages=[
                {"type": "system", "content": TEMPLATE},
                {"type": "human", "content": f"{history}Question: {question}\n"},
            ],
            raw_output="ok",
        ),
        ModelCall(
            role="caller",
            messages=[
                {
                    "type": "human",
                    "content": TEMPLATE + history + "\r\nnext ünïcode line\u2028same message\n\nend",
                },
                {"type": "ai", "content": "", "tool_calls": [{"name": "f", "args": {"x": 1}}]},
            ],
        ),
    ]
    return Trace(
        task_id=task_id,
        task=task,
        benchmark="smoke",
        agent="chat",
        model="scripted:x",
        steps=[Step(index=0, node="plan", model_calls=calls)],
    )


def _messages(trace: Trace) -> list:
    return [c.messages for c in trace.model_calls()]


def _store_records(run: Path) -> list[dict]:
    return [json.loads(line) for line in gzip.decompress((run / FILENAME).read_bytes()).splitlines()]


def test_chunks_join_back_to_the_text() -> None:
    rng = random.Random(7)
    pieces = [
        "",
        "\n",
        "\r\n",
        "x" * 300,
        "short\n",
        "ü\u2028",
        "\x0b",
        '{"json": 1}\n',
        "    indented line of a schema\n",
    ]
    for _ in range(300):
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(0, 60)))
        assert "".join(chunks(text)) == text
    assert chunks("") == []


def test_lines_hold_refs_and_loading_gives_the_messages_back(tmp_path: Path) -> None:
    store = TraceStore(tmp_path)
    originals = [_trace("a", "What is 1+1?"), _trace("b", "What is 2+2?", history="Earlier: 1+1=2\n")]
    for trace in originals:
        store.append(trace)
    rows = [json.loads(line) for line in store.path.read_text().splitlines()]
    calls = [c for row in rows for s in row["steps"] for c in s["model_calls"]]
    assert all("messages" not in c and c["message_refs"] for c in calls) and rows[0]["schema_version"] == 2
    assert TEMPLATE[:40] not in store.path.read_text()  # the template is in the store, not the lines
    refs = [k for c in calls for m in c["message_refs"] for k in m.get("content_refs", [])]
    records = _store_records(tmp_path)
    assert (
        sorted(r["h"] for r in records) == sorted(set(refs)) < refs
    )  # each referenced chunk stored exactly once
    assert max(refs.count(k) for k in refs) == 4  # the template's opening chunk: one record, four prompts
    loaded = TraceStore(tmp_path).load().traces
    assert [_messages(t) for t in loaded] == [_messages(t) for t in originals]
    assert all(c.message_refs is None for t in loaded for c in t.model_calls())
    bare = TraceStore(tmp_path).load(prompts=False).traces  # what scoring reads: no store needed
    assert all(c.messages is None and c.message_refs for t in bare for c in t.model_calls())


def test_a_second_trace_adds_only_its_new_chunks(tmp_path: Path) -> None:
    TraceStore(tmp_path).append(_trace("a", "What is 1+1?"))
    first = len(_store_records(tmp_path))
    TraceStore(tmp_path).append(_trace("b", "What is 1+1?"))  # a new store object: it reads what is on disk
    assert len(_store_records(tmp_path)) == first  # nothing new to store
    TraceStore(tmp_path).append(_trace("c", "What is 3+3?"))
    assert first < len(_store_records(tmp_path)) <= first + 3


def test_a_torn_store_is_ignored_by_readers_and_cut_before_the_next_append(tmp_path: Path) -> None:
    TraceStore(tmp_path).append(_trace("a", "What is 1+1?"))
    path = tmp_path / FILENAME
    whole = path.read_bytes()
    torn = gzip.compress(b'{"h":"0123456789abcdef","t":"lost"}\n' * 50)[:40]  # a kill mid-write
    path.write_bytes(whole + torn)
    assert _messages(TraceStore(tmp_path).load().traces[0]) == _messages(_trace("a", "What is 1+1?"))
    TraceStore(tmp_path).append(_trace("b", "What is 5+5?", history="new text\n" * 20))
    assert path.read_bytes().startswith(whole) and torn not in path.read_bytes()
    assert [_messages(t) for t in TraceStore(tmp_path).load().traces] == [
        _messages(_trace("a", "What is 1+1?")),
        _messages(_trace("b", "What is 5+5?", history="new text\n" * 20)),
    ]


def test_schema_1_lines_still_load(tmp_path: Path) -> None:
    trace = _trace("a", "What is 1+1?")
    line = json.dumps(
        {
            **trace.model_dump(
                mode="json", exclude={"steps": {"__all__": {"model_calls": {"__all__": {"message_refs"}}}}}
            ),
            "schema_version": 1,
        }
    )
    (tmp_path / "traces.jsonl").write_text(line + "\n")
    loaded = TraceStore(tmp_path).load().traces
    assert loaded[0].schema_version == 1 and _messages(loaded[0]) == _messages(trace)


def test_a_missing_chunk_is_named(tmp_path: Path) -> None:
    TraceStore(tmp_path).append(_trace("a", "What is 1+1?"))
    (tmp_path / FILENAME).unlink()
    with pytest.raises(PromptMissing, match="holds no prompt chunk"):
        TraceStore(tmp_path).load()
    assert len(TraceStore(tmp_path).load(prompts=False).traces) == 1


def test_a_reader_sees_chunks_appended_after_it_first_read(tmp_path: Path) -> None:
    TraceStore(tmp_path).append(_trace("a", "What is 1+1?"))
    reader = PromptStore(tmp_path)
    first = TraceStore(tmp_path).load(prompts=False).traces[0]
    reader.resolve(first)
    TraceStore(tmp_path).append(_trace("b", "What is 7+7?", history="fresh\n" * 30))
    later = TraceStore(tmp_path).load(prompts=False).traces[1]
    assert _messages(reader.resolve(later)) == _messages(_trace("b", "What is 7+7?", history="fresh\n" * 30))


def test_scoring_gives_the_same_files_for_either_schema(tmp_path: Path) -> None:
    new, old = tmp_path / "new", tmp_path / "old"
    assert (
        cli(
            "run", "smoke", "--model", "scripted:smoke-oracle", "-B", "n=4", "--out", new, "--quiet"
        ).exit_code
        == 0
    )
    old.mkdir()
    (old / "config.json").write_text((new / "config.json").read_text())
    lines = []
    for trace in TraceStore(new).load().traces:
        data = trace.model_dump(
            mode="json", exclude={"steps": {"__all__": {"model_calls": {"__all__": {"message_refs"}}}}}
        )
        lines.append(json.dumps({**data, "schema_version": 1}, ensure_ascii=False, separators=(",", ":")))
    (old / "traces.jsonl").write_text("".join(line + "\n" for line in lines))
    assert cli("score", new).exit_code == 0 and cli("score", old).exit_code == 0
    for name in ("summary.json", "scores.jsonl"):
        assert (new / name).read_text() == (old / name).read_text(), name


def test_a_secret_in_a_prompt_is_redacted_in_the_store(tmp_path: Path) -> None:
    from restgraph.tools.redact import REDACTED

    secret = "sk-" + "Zq9" * 10
    trace = _trace("a", f"Use key {secret} please")
    TraceStore(tmp_path).append(trace)
    stored = gzip.decompress((tmp_path / FILENAME).read_bytes()).decode()
    assert (
        secret not in stored and secret not in (tmp_path / "traces.jsonl").read_text() and REDACTED in stored
    )
    assert (
        f"Use key {REDACTED} please"
        in TraceStore(tmp_path).load().traces[0].model_calls().__next__().messages[1]["content"]
    )
