"""The ``restgraph sweep`` command (registered on the main CLI app; imports stay light)."""

from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path
from typing import Annotated

import typer


def sweep(
    study: Annotated[
        str | None,
        typer.Argument(
            help="a preset (table4, shortcuts) or a study YAML file; or give the matrix with flags"
        ),
    ] = None,
    bench: Annotated[list[str] | None, typer.Option("--bench", "-b", help="benchmark (repeatable)")] = None,
    agent: Annotated[list[str] | None, typer.Option("--agent", "-a", help="agent (repeatable)")] = None,
    model: Annotated[list[str] | None, typer.Option("--model", "-m", help="model spec (repeatable)")] = None,
    seed: Annotated[
        list[int] | None, typer.Option("--seed", help="seed (repeatable): one cell per seed")
    ] = None,
    limit: Annotated[int | None, typer.Option(min=1, help="first N tasks of every cell")] = None,
    epochs: Annotated[
        int | None, typer.Option(min=1, help="run each task K times per cell (pass@k, pass^k)")
    ] = None,
    concurrency: Annotated[
        int | None, typer.Option(min=1, help="episodes in flight per cell (local) or per worker (ray)")
    ] = None,
    max_connections: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="model requests in flight per endpoint, shared by the whole sweep (all cells; on Ray all workers)",
        ),
    ] = None,
    agent_opt: Annotated[
        list[str] | None, typer.Option("--agent-opt", "-A", help="agent option key=value for every cell")
    ] = None,
    bench_opt: Annotated[
        list[str] | None, typer.Option("--bench-opt", "-B", help="benchmark option key=value for every cell")
    ] = None,
    model_opt: Annotated[
        list[str] | None, typer.Option("--model-opt", "-M", help="model option key=value for every cell")
    ] = None,
    out: Annotated[Path | None, typer.Option(help="study folder; default studies/<name>-<time>")] = None,
    resume: Annotated[
        bool, typer.Option(help="continue the study in --out: finished episodes are never repeated")
    ] = False,
    executor: Annotated[str, typer.Option(help="local (this process) | ray")] = "local",
    address: Annotated[
        str | None, typer.Option(help="Ray cluster address (host:port or 'auto'); default: start a local one")
    ] = None,
    workers: Annotated[int, typer.Option(min=1, help="Ray worker processes (actors)")] = 2,
    quiet: Annotated[bool, typer.Option(help="no progress bars")] = False,
) -> None:
    """Run a study: every combination of benchmarks x agents x models x seeds, one run folder per cell."""
    from restgraph.evals.cli_common import console, kv_options, usage_error
    from restgraph.evals.sweep import StudySpec, SweepError, run_sweep
    from restgraph.evals.sweep.presets import PRESETS
    from restgraph.evals.sweep.study import Variant

    try:
        if study in PRESETS:
            if bench or agent:
                raise SweepError(f"preset {study!r} fixes the benchmarks and agents; drop --bench/--agent")
            spec = PRESETS[study](model or ["local"])
        elif study is not None:
            path = Path(study)
            if not path.is_file():
                raise SweepError(f"{study!r} is neither a preset ({', '.join(PRESETS)}) nor a study file")
            spec = StudySpec.from_file(path)
            if model:
                spec.models = list(model)
        else:
            if not bench or not agent:
                raise SweepError("give a preset, a study file, or at least one --bench and one --agent")
            spec = StudySpec(name="sweep", benchmarks=bench, agents=agent, models=model or ["local"])
        if seed:
            spec.seeds = list(seed)
        if limit is not None:
            spec.limit = limit
        if epochs is not None:
            spec.epochs = epochs
        if concurrency is not None:
            spec.concurrency = concurrency
        if max_connections is not None:
            spec.max_connections = max_connections
        if agent_opt or bench_opt or model_opt:
            extra = Variant(
                agent_options=kv_options(agent_opt, "--agent-opt"),
                bench_options=kv_options(bench_opt, "--bench-opt"),
                model_options=kv_options(model_opt, "--model-opt"),
            )
            spec.variants = [
                v.model_copy(
                    update={
                        "agent_options": {**v.agent_options, **extra.agent_options},
                        "bench_options": {**v.bench_options, **extra.bench_options},
                        "model_options": {**v.model_options, **extra.model_options},
                    }
                )
                for v in spec.variants
            ]
        study_dir = out or Path("studies") / f"{spec.name}-{datetime.now().strftime('%Y%m%d-%H%M%S')}"
        result = run_sweep(
            spec,
            study_dir,
            executor=executor,
            resume=resume,
            address=address,
            workers=workers,
            progress=not quiet and sys.stderr.isatty(),
            log=lambda m: console.print(m, markup=False, highlight=False, soft_wrap=False),
        )
    except SweepError as exc:
        raise usage_error(str(exc)) from None
    if not result["complete"]:
        console.print(
            f"the study is not complete: finish it with the same command plus --out {study_dir} --resume"
        )
        raise typer.Exit(1)
    console.print(f"study done: {len(result['cells'])} cells in {study_dir}")
