"""Scripted models count tokens in tokens: a RestBench run's ``input_tokens`` are the p50k_base count
of the prompt it recorded (they were whitespace words: 39,401 recorded where p50k_base counts 64,392
for one RestGPT run, 5.6x fewer for the no-parser reader), so the notebooks' token plots and the
parser ablation's token cost are real figures."""

from __future__ import annotations

from pathlib import Path

import pytest

from restgraph.evals.benchmark import RunOptions
from restgraph.evals.runner import run_sync
from restgraph.evals.trace import TraceStore
from restgraph.tools.tokenizer import p50k_base


@pytest.mark.parametrize("agent", ["restgpt", "restgpt-no-parser"])
def test_scripted_input_tokens_are_the_prompts_p50k_count(tmp_path: Path, data_dir: Path, agent: str) -> None:
    options = RunOptions(benchmark="restbench-tmdb", agent=agent, model="scripted:restgpt-oracle", limit=2)
    run_sync(options, tmp_path / "run", progress=False)
    traces = TraceStore(tmp_path / "run").load().traces
    calls = [call for trace in traces for step in trace.steps for call in step.model_calls]
    assert len(calls) >= 4
    encoder = p50k_base()
    for call in calls:
        text = "\n".join(str(m.get("content") or "") for m in call.messages or [])
        want = len(encoder.encode_ordinary(text))
        assert want > 100 and abs(call.input_tokens - want) <= 0.01 * want, (
            call.role,
            call.input_tokens,
            want,
        )
        assert call.output_tokens == len(encoder.encode_ordinary(call.raw_output)), call.role
