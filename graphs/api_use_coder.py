"""``api-use-coder``: write the function for a Synthetic API Use problem, then check it.

``write`` asks the model for ``samples`` answers in one graph step (``sample_concurrency`` calls
in flight; each answer is one traced model call with its extraction outcome attached, and the
step budget does not grow with ``samples``, so upstream's n=128 fits), then ``check`` runs every
extracted body against the problem's test in the sandboxed checker. ``final_answer`` is a JSON
object ``{"samples": [body or null, ...]}``; the benchmark's scorer re-checks it from the trace,
so the in-episode check is for the agent's own record, not the score. The temperature (agent
option ``temperature``, ``--temperature``; default 0 for one sample as the spec asks of chat models,
0.5 as upstream sampled for several) is sent to every chat model that takes one, and with several
samples a per-sample seed ``seed+i`` is bound on OpenAI-compatible models so the N draws differ.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, NotRequired, TypedDict

from langchain_core.language_models import BaseChatModel
from langgraph.graph import END, START, StateGraph
from pydantic import Field

from restgraph.agents.api_use.code_writer import Sample, sampling_model, write_code
from restgraph.graphs.episode_context import EpisodeContext, episode
from restgraph.graphs.registry import register_agent
from restgraph.tools.options import Options
from restgraph.tools.synthetic_api.env import SyntheticApiEnv

MAX_SAMPLES = 1000


class ApiUseCoderOptions(Options):
    samples: int = Field(
        1, ge=1, le=MAX_SAMPLES, description="answers drawn per task (pass@k); one traced model call each"
    )
    sample_concurrency: int = Field(4, ge=1, description="sample calls in flight at once")
    temperature: float | None = Field(
        None,
        ge=0,
        description="sampling temperature bound on the model (default: the model's; --temperature sets it)",
    )
    seed: int = Field(0, description="base seed; with several samples, sample i is drawn with seed+i")


class ApiUseState(TypedDict):
    instruction: str
    task_id: NotRequired[str]
    bodies: NotRequired[list[str | None]]
    keyword_args: NotRequired[list[bool]]
    checks: NotRequired[list[list[Any]]]
    final_answer: NotRequired[str | None]
    status: NotRequired[str]


def default_temperature(value: Any, samples: int) -> float:
    """The sampling temperature sent to the model: the spec's chat default T=0 for one sample, the
    original evaluation's T=0.5 when several samples are drawn for pass@k (n=128 at T=0.5), unless
    ``-A temperature`` / ``--temperature`` says otherwise."""
    if value is None or value == "":
        return 0.0 if samples == 1 else 0.5
    return float(value)


def _episode_env(ctx: EpisodeContext) -> SyntheticApiEnv:
    if not isinstance(ctx.env, SyntheticApiEnv):
        raise ValueError(
            f"api-use-coder acts on a SyntheticApiEnv (benchmark api-use), got {type(ctx.env).__name__}"
        )
    return ctx.env


def build_api_use_coder(model: BaseChatModel | None, env: Any, options: dict[str, Any]) -> Any:
    """Compiled once per run: the episode's model and problem environment come from the runtime
    context (the sample gate is per episode too, so ``sample_concurrency`` bounds one episode)."""
    opts = ApiUseCoderOptions.model_validate(options)
    samples, base_seed = opts.samples, opts.seed
    temperature = default_temperature(opts.temperature, samples)
    fallback = EpisodeContext(model, env)

    async def one(ctx: EpisodeContext, problem: str, index: int) -> Sample | Exception:
        # sample i gets seed base+i when several samples are drawn (pass@k needs distinct draws)
        sampler = sampling_model(
            ctx.need_model("api-use-coder"),
            temperature=temperature,
            seed=base_seed + index if samples > 1 else None,
        )
        problem_env = _episode_env(ctx)
        async with ctx.part("gate", lambda _: asyncio.Semaphore(opts.sample_concurrency)):
            try:
                return await write_code(
                    sampler,
                    problem,
                    func_name=problem_env.func_name,
                    root=problem_env.root,
                    indent=problem_env.indent,
                )
            except Exception as exc:  # one failed call costs one sample, not the other N-1
                return exc

    async def write(state: ApiUseState) -> dict[str, Any]:
        ctx = episode(fallback)
        _episode_env(ctx)
        results = await asyncio.gather(*(one(ctx, state["instruction"], i) for i in range(samples)))
        errors = [r for r in results if isinstance(r, Exception)]
        if len(errors) == len(results):
            raise errors[0]  # nothing answered: the episode is an error, not a zero score
        answers = [
            r if isinstance(r, Sample) else Sample(raw="", body=None, error=f"{type(r).__name__}: {r}")
            for r in results
        ]
        return {"bodies": [a.body for a in answers], "keyword_args": [a.keyword_args for a in answers]}

    async def check(state: ApiUseState) -> dict[str, Any]:
        bodies = state.get("bodies", [])
        present = [b for b in bodies if b is not None]
        results = iter(await _episode_env(episode(fallback)).check(present))
        checks = [list(next(results)) if b is not None else [False, "no_code"] for b in bodies]
        return {"checks": checks, "final_answer": json.dumps({"samples": bodies}), "status": "finished"}

    graph = StateGraph(ApiUseState, context_schema=EpisodeContext)
    graph.add_node("write", write)
    graph.add_node("check", check)
    graph.add_edge(START, "write")
    graph.add_edge("write", "check")
    graph.add_edge("check", END)
    return graph.compile()


register_agent(
    "api-use-coder",
    build_api_use_coder,
    env_kind="synthetic_api",
    description="writes the Synthetic API function (-A samples=N for pass@k), extracts the body, checks it in the sandbox",
    options=ApiUseCoderOptions,
    per_run=True,
    describe=lambda options, model_spec, model_options: {
        "temperature": default_temperature(options.get("temperature"), int(options.get("samples", 1)))
    },
)
