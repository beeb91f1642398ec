"""``shortcuts``: ShortcutsBench next-action prediction (spec ``shortcutsbench.md``).

The episode is one query. ``run_episode`` walks the gold actions: filter-list and ignore-list
actions are copied (``copy_from_true``), and for every scored action the agent graph is invoked
*fresh* with the cleaned gold history, so no prediction and no model memory can leak into a later
step. The per-episode result is a record of upstream's log schema (``bseqs``, ``api_names``,
``truncated_at``) kept in ``trace.extra``; the scorer reads only that and the task's gold.

Bench options (``-B key=value``): ``source`` (a log ``.jsonl`` or a folder of release files),
``queries`` / ``gold`` / ``check_intersection`` (release files), ``candidates`` (``sample``:
seeded re-draw, the default; ``logged``: the log's own candidate list, the default for
``replay``), ``fix_attachment_numbering`` (off = upstream's ``${Value1}`` bug),
``level_from_full_gold`` (off = upstream's length on the run-truncated actions), ``only``
(comma-separated task ids, for a subset).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar, Literal

from langchain_core.messages import BaseMessage
from langchain_core.runnables import RunnableConfig
from pydantic import Field

from restgraph.agents.scripted import register_scripted
from restgraph.evals.benchmark import Benchmark, EpisodeOutcome, RunOptions, register_benchmark
from restgraph.evals.datasets.shortcuts import ShortcutRecord, load_catalogue, load_source
from restgraph.evals.recording import current_recorder
from restgraph.evals.scorers.shortcuts import METRICS, aggregate_counts, score_record
from restgraph.evals.trace import Task, Trace
from restgraph.tools.options import Options
from restgraph.tools.shortcuts.candidates import candidate_table, gold_api_set, query_seed, sample_candidates
from restgraph.tools.shortcuts.cleaning import CleaningError
from restgraph.tools.shortcuts.episode import build_plan, history_json
from restgraph.tools.shortcuts.length import shortcut_length
from restgraph.tools.shortcuts.output import COPIED, BStep, is_context_error

REPLAY_AGENT = "replay"


class ShortcutsOptions(Options):
    source: str | None = Field(
        None, description="an experiment log (.jsonl) or a folder of release files; default: the sample log"
    )
    queries: str | None = Field(None, description="release queries file (with gold)")
    gold: str | None = Field(None, description="release gold file (with queries)")
    check_intersection: str | None = Field(None, description="release file of essential parameters")
    candidates: Literal["sample", "logged"] | None = Field(
        None,
        description="sample: seeded re-draw (default); logged: the log's own candidate list (default for replay)",
    )
    fix_attachment_numbering: bool = Field(
        False, description="fix upstream's ${Value1} attachment numbering (off = faithful)"
    )
    level_from_full_gold: bool = Field(
        False, description="length level from the full gold (off = upstream's, on the run-truncated actions)"
    )
    only: str | None = Field(None, description="comma-separated task ids (or URL tails), for a subset")


def task_id_of(url: str) -> str:
    return "shortcuts/" + url.rstrip("/").rsplit("/", 1)[-1]


def make_task(record: ShortcutRecord, *, candidates: str, run_seed: int, all_ids: list[str]) -> Task:
    if candidates == "logged" and record.api_names:
        api_names = list(record.api_names)
    elif candidates in ("logged", "sample"):
        api_names = sample_candidates(gold_api_set(record.aseqs), all_ids, run_seed=run_seed, url=record.url)
    else:
        raise ValueError(f"bench option candidates must be 'sample' or 'logged', got {candidates!r}")
    gold = {
        "url": record.url,
        "aseqs": record.aseqs,
        "api_names": api_names,
        "category": record.category,
        "essential": record.essential,
        "candidate_source": "logged" if api_names == record.api_names else "sample",
        "candidate_seed": query_seed(run_seed, record.url) % 2**63,
    }
    if record.bseqs is not None:
        gold["bseqs"] = record.bseqs
    return Task(
        id=task_id_of(record.url),
        benchmark="shortcuts",
        instruction=record.query,
        gold=gold,
        metadata={"source": record.source, "length": shortcut_length(record.aseqs)},
    )


@register_benchmark
class ShortcutsBenchmark(Benchmark):
    name: ClassVar[str] = "shortcuts"
    description: ClassVar[str] = (
        "ShortcutsBench: teacher-forced next action over real Apple Shortcuts (--source log.jsonl | release folder)"
    )
    metric_keys: ClassVar[tuple[str, ...]] = (*METRICS, "api_selection_accuracy_strict")
    default_agent: ClassVar[str] = "shortcuts-next-action"
    env_kind: ClassVar[str] = "shortcuts"
    options_model: ClassVar[type[Options]] = ShortcutsOptions

    def tasks(self, options: RunOptions) -> list[Task]:
        opts = self.opts(options)
        mode = opts.candidates or ("logged" if options.agent == REPLAY_AGENT else "sample")
        all_ids = sorted(load_catalogue().api2info)
        records = load_source(opts.model_dump())
        if opts.only:  # a subset by task id / URL tail, e.g. -B only=e6fe9815...,745ee329...
            wanted = {w.strip().rsplit("/", 1)[-1] for w in opts.only.split(",") if w.strip()}
            records = [r for r in records if task_id_of(r.url).rsplit("/", 1)[-1] in wanted]
            if not records:
                raise ValueError(f"bench option only={opts.only!r} matches no task of this source")
        return [make_task(r, candidates=mode, run_seed=options.seed, all_ids=all_ids) for r in records]

    async def run_episode(
        self, task: Task, graph: Any, env: Any, options: RunOptions, config: RunnableConfig
    ) -> EpisodeOutcome:
        from restgraph.evals.graph_stream import stream_graph
        from restgraph.graphs.registry import get_agent

        catalogue = load_catalogue()
        gold = task.gold
        table = candidate_table(gold["api_names"], catalogue.api2info)
        extra: dict[str, Any] = {"api_names": gold["api_names"], "truncated_at": None, "bseqs": []}
        bseqs: list[dict[str, Any]] = extra["bseqs"]
        try:
            plan = build_plan(
                gold["aseqs"],
                catalogue.returns,
                fix_attachment_numbering=self.opts(options).fix_attachment_numbering,
            )
        except CleaningError as exc:
            extra["truncated_at"] = 0
            return EpisodeOutcome(status="error:CleaningError", error=str(exc), extra=extra)
        needs_gold = get_agent(options.agent).needs_gold
        recorder = current_recorder()
        if recorder is not None:  # a timeout still keeps the predictions made so far
            recorder.partial_extra = extra
        for planned in plan.actions:
            if planned.kind != "scored":
                bseqs.append(BStep(state=COPIED, aseq=planned.action).model_dump())
                continue
            state: dict[str, Any] = {
                "task_id": task.id,
                "instruction": task.instruction,
                "candidates": table,
                "history": list(planned.history),
                "position": planned.position,
            }
            if needs_gold:
                state["gold"] = gold
            extra["truncated_at"] = planned.position  # until this action's prediction is in
            try:
                result = await stream_graph(graph, state, config)
            except Exception as exc:  # a failed call ends this query, not the run; what ran is kept
                status = "error:context_overflow" if is_context_error(exc) else f"error:{type(exc).__name__}"
                return EpisodeOutcome(
                    status=status,
                    error=f"action {planned.position}: {type(exc).__name__}: {exc}"[:2000],
                    extra=extra,
                )
            if result.get("prediction") is None:  # upstream's protocol: the query stops here (truncated_at)
                status = str(
                    result.get("status") or "finished"
                )  # a prompt that cannot run is an error, never finished
                return EpisodeOutcome(
                    status=status,
                    error=result.get("error") or f"no prediction at action {planned.position}",
                    final_answer=_answer(bseqs, gold),
                    extra=extra,
                )
            bseqs.append(result["prediction"])
            extra["truncated_at"] = None
        return EpisodeOutcome(status="finished", final_answer=_answer(bseqs, gold), extra=extra)

    def score_episode(self, trace: Trace) -> dict[str, Any]:
        gold = trace.task.gold
        bseqs = trace.extra.get("bseqs") or []
        full = shortcut_length(gold["aseqs"]) if self.recorded_opts(trace).level_from_full_gold else None
        return score_record(
            aseqs=gold["aseqs"],
            bseqs=bseqs,
            api_names=trace.extra.get("api_names") or gold.get("api_names"),
            category=gold.get("category"),
            essential=gold.get("essential"),
            full_length=full,
        )

    def aggregate(self, scores: list[dict[str, Any]], traces: Sequence[Trace]) -> dict[str, float]:
        return aggregate_counts(scores)


def _answer(bseqs: list[dict[str, Any]], gold: dict[str, Any]) -> str:
    return f"{len(bseqs)} of {len(gold['aseqs'])} gold actions logged"


def log_record(trace: Trace) -> dict[str, Any]:
    """A trace as one line of upstream's ``experiment_res_<model>.jsonl`` (§1.3), plus our fields."""
    gold = trace.task.gold
    bseqs = trace.extra.get("bseqs") or []
    api_names = trace.extra.get("api_names") or gold["api_names"]
    usage = trace.usage
    return {
        "URL": gold["url"],
        "query": trace.task.instruction,
        "api_names": api_names,
        "api_descs": candidate_table(api_names, load_catalogue().api2info),
        "aseqs": gold["aseqs"][: len(bseqs)],
        "bseqs": bseqs,
        "cur_input_token_count": usage.input_tokens,
        "cur_output_token_count": usage.output_tokens,
        "cur_input_cost": 0,
        "cur_output_cost": 0,
        "cur_total_cost": 0,
        "truncated_at": trace.extra.get("truncated_at"),
        "candidate_seed": gold.get("candidate_seed"),
        "status": trace.status,
    }


def export_log(run_dir: str | Path, path: str | Path) -> int:
    """Write a run's traces as an upstream-format log (scorable by upstream's code and by ``replay``)."""
    from restgraph.evals.trace import TraceStore, latest_per_task

    traces = latest_per_task(TraceStore(run_dir).load().traces)
    with open(path, "w", encoding="utf-8") as fh:
        for trace in traces:
            fh.write(json.dumps(log_record(trace), ensure_ascii=False) + "\n")
    return len(traces)


# -- scripted policy: the gold next action ---------------------------------------------------------
def _gold_policy(task: Task | None, params: dict[str, str]):
    """``scripted:shortcuts-gold``: finds which step is being asked from the history in the prompt
    and replies with that raw gold action (so every metric must come out at 1.0)."""
    if task is None or "aseqs" not in task.gold:
        raise ValueError("scripted:shortcuts-gold needs a shortcuts task")
    returns = load_catalogue().returns
    steps: list[tuple[str, Any]] = []
    for fix in (False, True):
        for planned in build_plan(task.gold["aseqs"], returns, fix_attachment_numbering=fix).scored:
            steps.append((history_json(planned.history), planned.action))
    steps.sort(key=lambda s: len(s[0]), reverse=True)

    def policy(messages: list[BaseMessage]) -> str:
        prompt = "\n".join(m.content for m in messages if isinstance(m.content, str))
        for history, action in steps:
            if history in prompt:
                reply = {
                    "Thought": "The reference workflow does this next.",
                    "WFWorkflowActionIdentifier": action.get("WFWorkflowActionIdentifier"),
                    "WFWorkflowActionParameters": action.get("WFWorkflowActionParameters", {}),
                }
                return json.dumps(reply)
        return json.dumps(
            {
                "Thought": "No matching step.",
                "WFWorkflowActionIdentifier": "Finish",
                "WFWorkflowActionParameters": {},
            }
        )

    return policy


register_scripted("shortcuts-gold", _gold_policy)
