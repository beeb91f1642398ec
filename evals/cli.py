"""The ``restgraph`` command line.

Exit codes: 0 ok, 2 usage error (one line saying what is wrong), 1 run failure (including a failed
model preflight and a run stopped by --max-errors), 3 the run finished but some episodes errored
(``--allow-errors`` keeps 0), 130 interrupted (Ctrl-C: finished episodes kept, continue with --resume).
"""

from __future__ import annotations

import atexit
import gc
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console

from restgraph.evals.cli_common import console, kv_options, usage_error
from restgraph.evals.cli_errors import OneLineUsageErrors

# When the process ends its heap goes back to the system whole. Frozen first (atexit runs before the
# interpreter's final collections), it is not walked by them: they took 1.3 s of CPU after a one-task
# TMDB run (the sandbox's world is ~10^6 objects) and 0.25 s after any LangGraph run
# (bench/startup_time.py). Registered on import, so every way of running the command gets it.
atexit.register(gc.freeze)

app = typer.Typer(
    cls=OneLineUsageErrors,
    add_completion=False,
    no_args_is_help=True,
    help="restgraph: API-using agents on LangGraph, and the harness that scores them.",
)
models_app = typer.Typer(no_args_is_help=True, help="Manage models.")
sandbox_app = typer.Typer(no_args_is_help=True, help="Offline sandbox servers.")
app.add_typer(models_app, name="models")
app.add_typer(sandbox_app, name="sandbox")


@app.command()
def run(
    bench: Annotated[str, typer.Argument(help="benchmark name (see `restgraph list`)")],
    agent: Annotated[
        str | None, typer.Option("--agent", "-a", help="agent name; default: the benchmark's")
    ] = None,
    model: Annotated[
        str,
        typer.Option(
            "--model",
            "-m",
            help="local | local:/x.gguf | scripted:<name> | openai:<model> | <provider>:<model>",
        ),
    ] = "local",
    fork_from: Annotated[
        Path | None,
        typer.Option(
            "--fork-from",
            help=(
                "counterfactual fork: the folder of an earlier run of BENCH; each of its episodes is replayed "
                "(its recorded model outputs, its HTTP requests re-made and checked against the recorded "
                "responses) up to --fork-at, then AGENT and MODEL continue from that state; the traces record "
                "the fork (extra.fork). Default tasks: the source run's"
            ),
        ),
    ] = None,
    fork_at: Annotated[
        int | None,
        typer.Option(
            "--fork-at",
            min=1,
            help="with --fork-from: the first step of the source episodes (as numbered in `restgraph view`) that the new model or agent takes",
        ),
    ] = None,
    limit: Annotated[
        str | None, typer.Option(help="run the first N tasks, or tasks A:B (0-based, B excluded)")
    ] = None,
    task_id: Annotated[list[str] | None, typer.Option("--task-id", help="run this task (repeatable)")] = None,
    concurrency: Annotated[
        int, typer.Option(min=1, help="episodes in flight at once (per worker with --workers)")
    ] = 4,
    workers: Annotated[
        int,
        typer.Option(
            min=1,
            help=(
                "worker processes running episodes (each with --concurrency in flight), one writer: "
                "for when one core is the limit; 1: all in this process"
            ),
        ),
    ] = 1,
    max_connections: Annotated[
        int | None,
        typer.Option(
            min=1,
            help=(
                "model requests in flight per endpoint, shared by all episodes (default: the local "
                "server's slots; else no limit beyond --concurrency)"
            ),
        ),
    ] = None,
    out: Annotated[Path | None, typer.Option(help="run folder; default runs/<bench>-<agent>-<time>")] = None,
    resume: Annotated[
        bool,
        typer.Option(
            help="run only the episodes missing from OUT/traces.jsonl; without --out, the latest run in runs/ with the same options"
        ),
    ] = False,
    seed: Annotated[int, typer.Option(help="seed for sampling, candidate sets and scripted faults")] = 0,
    max_steps: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="graph step budget per episode; default: derived from the agent's loop budgets (60 without)",
        ),
    ] = None,
    timeout: Annotated[
        float | None,
        typer.Option(
            min=0.1,
            help="wall-clock seconds per episode; default 600, 3600 for local models (CPU prompt processing)",
        ),
    ] = None,
    base_url: Annotated[
        str | None, typer.Option(help="OpenAI-compatible endpoint (vLLM, Ollama, llama.cpp)")
    ] = None,
    api_key: Annotated[
        str | None,
        typer.Option(envvar="RESTGRAPH_API_KEY", help="API key for the endpoint (never written to traces)"),
    ] = None,
    temperature: Annotated[float | None, typer.Option(help="sampling temperature")] = None,
    suite: Annotated[str | None, typer.Option(help="benchmark suite (api-use)")] = None,
    source: Annotated[str | None, typer.Option(help="source file (shortcuts)")] = None,
    split: Annotated[str | None, typer.Option(help="dataset split (assistantbench)")] = None,
    samples: Annotated[int | None, typer.Option(help="samples per task (api-use)")] = None,
    bench_opt: Annotated[
        list[str] | None, typer.Option("--bench-opt", "-B", help="benchmark option key=value")
    ] = None,
    agent_opt: Annotated[
        list[str] | None, typer.Option("--agent-opt", "-A", help="agent option key=value")
    ] = None,
    model_opt: Annotated[
        list[str] | None, typer.Option("--model-opt", "-M", help="model option key=value")
    ] = None,
    quiet: Annotated[bool, typer.Option(help="no progress bar")] = False,
    epochs: Annotated[
        int,
        typer.Option(
            min=1, help="run each task K times (seeds seed..seed+K-1); summary gets pass@k and pass^k"
        ),
    ] = 1,
    price: Annotated[
        str | None, typer.Option(help="IN/OUT dollars per million tokens (default: evals.cost's table)")
    ] = None,
    code_sandbox: Annotated[
        str,
        typer.Option(
            help=(
                "where model-written code runs: bwrap (bubblewrap + seccomp filter, warm fork server) | "
                "bwrap-cold (a new sandbox per program) | bwrap-no-seccomp (bwrap without the syscall "
                "filter) | none (UNISOLATED: trusted debugging only)"
            )
        ),
    ] = "bwrap",
    allow_modified_data: Annotated[
        bool,
        typer.Option(
            help="use local data files whose sha256 is not the pinned one (recorded in config.json)"
        ),
    ] = False,
    preflight: Annotated[
        bool,
        typer.Option(
            help="one cheap model call before any episode (credentials, endpoint, provider package)"
        ),
    ] = True,
    max_errors: Annotated[
        int | None,
        typer.Option(
            min=0,
            help="stop after N errored episodes (0: never); default: stop if the first 5 all errored the same way",
        ),
    ] = None,
    allow_errors: Annotated[
        bool, typer.Option(help="exit 0 even when some episodes errored (default: exit 3)")
    ] = False,
    token_limit: Annotated[
        int | None, typer.Option(min=1, help="per-episode token limit (in + out); over it: budget_exhausted")
    ] = None,
    cost_limit: Annotated[
        float | None,
        typer.Option(
            min=0.0, help="per-episode dollar limit (price table or --price); over it: budget_exhausted"
        ),
    ] = None,
) -> None:
    """Run AGENT on BENCH; writes OUT/traces.jsonl, OUT/config.json and OUT/summary.json."""
    from restgraph.evals.benchmark import RunOptions, check_benchmark, get_benchmark
    from restgraph.evals.option_check import check_run_options
    from restgraph.evals.selection import SelectionError, parse_limit
    from restgraph.graphs.registry import check_agent, get_agent
    from restgraph.tools.options import OptionError

    try:
        parse_limit(limit)
    except SelectionError as exc:
        raise usage_error(str(exc)) from None
    try:
        check_benchmark(bench)  # misspelt names: one line before any plugin is imported
        if agent is not None:
            check_agent(agent)
        benchmark = get_benchmark(bench)
        agent_name = agent or benchmark.default_agent
        spec = get_agent(agent_name)
    except KeyError as exc:
        raise usage_error(exc.args[0]) from None
    if spec.needs_model:
        from restgraph.agents.models import ModelSpecError, check_spec

        try:
            check_spec(model)
        except ModelSpecError as exc:
            raise usage_error(str(exc)) from None
        from restgraph.evals.names import provider_error

        if problem := provider_error(model, base_url):  # a mistyped provider: "did you mean", exit 2
            raise usage_error(problem)
    if spec.env_kind not in (benchmark.env_kind, "any"):
        raise usage_error(
            f"agent {agent_name!r} acts on '{spec.env_kind}' environments; {bench} provides '{benchmark.env_kind}'"
        )
    from restgraph.tools import codebox
    from restgraph.tools.datafiles import allow_modified_data as allow_modified

    try:  # model-written code never runs unless the chosen sandbox works here
        codebox.set_mode(code_sandbox)
        codebox.ensure_available()
        allow_modified(allow_modified_data)
    except (ValueError, codebox.SandboxUnavailable) as exc:
        raise usage_error(str(exc)) from None
    bench_options = kv_options(bench_opt, "--bench-opt")
    for key, value in {"suite": suite, "source": source, "split": split}.items():
        if value is not None:
            bench_options[key] = value
    agent_options = kv_options(agent_opt, "--agent-opt")
    if samples is not None:
        agent_options["samples"] = samples
    if temperature is not None and "temperature" in spec.options_model.model_fields:
        agent_options.setdefault("temperature", temperature)
    model_options: dict[str, Any] = {
        k: v
        for k, v in {"base_url": base_url, "api_key": api_key, "temperature": temperature}.items()
        if v is not None
    }
    model_options.update(kv_options(model_opt, "--model-opt"))
    if api_key:
        from restgraph.evals.redact import register_secret

        register_secret(api_key)
    price_model = _price(price)
    if fork_from is not None or fork_at is not None:
        task_id = _fork_tasks(bench, fork_from, fork_at, task_id)
    options = RunOptions(
        benchmark=bench,
        agent=agent_name,
        model=model,
        limit=limit,
        task_ids=task_id or None,
        seed=seed,
        concurrency=concurrency,
        workers=workers,
        max_connections=max_connections,
        episode_timeout_s=timeout,
        max_steps=max_steps,
        bench_options=bench_options,
        agent_options=agent_options,
        model_options=model_options,
        epochs=epochs,
        price=price_model,
        max_errors=max_errors,
        token_limit=token_limit,
        cost_limit=cost_limit,
        code_sandbox=code_sandbox,
        allow_modified_data=allow_modified_data,
        fork_from=str(fork_from) if fork_from is not None else None,
        fork_at=fork_at,
    )
    try:  # every -A/-B/-M key checked before anything starts
        options = check_run_options(options, benchmark, spec)
    except OptionError as exc:
        raise usage_error(str(exc)) from None
    if workers > 1:  # its imports run while this process prepares the run (evals.process_workers)
        from restgraph.evals.process_workers import start_worker_server

        start_worker_server()
    if resume and out is None:  # the latest run of this command, never a fresh folder (evals.resume_lookup)
        out = _resume_target(options, benchmark, spec)
    out = out or Path("runs") / f"{bench}-{agent_name}-{datetime.now().strftime('%Y%m%d-%H%M%S')}"
    if spec.needs_model and model.startswith("local"):
        from restgraph.agents.models import make_chat_model

        try:  # fail fast and clearly if the embedded model cannot be had
            make_chat_model(model, **options.model_options)  # the server starts once: with the -M settings
        except Exception as exc:
            console.print(f"[red]error:[/red] cannot start the local model: {exc}")
            raise typer.Exit(1) from None
    if spec.needs_model and preflight:
        _preflight(model, options.model_options)
    import asyncio

    from restgraph.evals.runner import EpisodeRunner  # LangGraph and friends: only once the run is sound

    runner: EpisodeRunner | None = None
    try:
        runner = EpisodeRunner(
            options, out, progress=not quiet
        )  # live on a terminal, a line per episode when piped
        summary = asyncio.run(runner.run(resume=resume))
    except (FileExistsError, SelectionError) as exc:
        raise usage_error(str(exc)) from None
    except KeyboardInterrupt:  # Ctrl-C before the run's own handler was installed
        _interrupted_early(out)
    except Exception as exc:
        if (
            runner is not None and runner.stopped and not runner.store.path.exists()
        ):  # Ctrl-C before any episode ended
            _interrupted_early(out)
        console.print(f"[red]run failed:[/red] {type(exc).__name__}: {exc}")
        raise typer.Exit(1) from None
    _print_summary(summary, out)
    if spec.needs_model:
        _smoke_model_note(model)
    if runner.stop_reason:  # --max-errors
        console.print(f"[red]stopped:[/red] {runner.stop_reason}", highlight=False)
        raise typer.Exit(1)
    if runner.stopped:  # Ctrl-C: what finished is kept, but the run is not complete
        console.print(
            f"interrupted: {summary['n']} episodes are in {out}; finish with the same command plus --resume"
        )
        raise typer.Exit(130)
    if summary.get("errors") and not allow_errors:
        kinds = ", ".join(
            f"{k} x{v}" for k, v in summary.get("status_counts", {}).items() if k.startswith("error")
        )
        console.print(
            f"[red]{summary['errors']} of {summary['n']} episodes errored[/red] ({kinds}); exit 3 (--allow-errors keeps 0)",
            highlight=False,
        )
        raise typer.Exit(3)


def _fork_tasks(
    bench: str, fork_from: Path | None, fork_at: int | None, task_ids: list[str] | None
) -> list[str]:
    """The tasks a fork runs (the source run's, unless --task-id says), checked before any work."""
    from restgraph.evals.fork import ForkError, fork_source

    try:
        source = fork_source(fork_from, fork_at, bench)
        ids = task_ids or (source.task_ids() if source else [])
        if source is not None:
            source.check(ids)
    except ForkError as exc:
        raise usage_error(str(exc)) from None
    return ids


def _smoke_model_note(model: str) -> None:
    """After a run with the embedded default model: its 0% is expected, and how to get real numbers
    (a new user's first run scores 0 and should not read it as a broken install)."""
    from restgraph.agents.models import parse_spec

    provider, name, _ = parse_spec(model)
    if provider != "local" or name:  # local:/x.gguf is the user's own model
        return
    out = Console(soft_wrap=True)
    out.print(
        "note: 0% is the expected result here: `--model local` is SmolLM2-135M, a smoke-test model that "
        "checks the pipeline runs (model calls, traces, scores) and is far too small to solve these tasks.",
        highlight=False,
    )
    out.print(
        "real numbers need a real model: --model openai:gpt-4o-mini (key in $RESTGRAPH_API_KEY), or "
        "--model openai:NAME --base-url http://HOST:PORT/v1 for vLLM, Ollama or llama.cpp",
        highlight=False,
    )


def _resume_target(options: Any, benchmark: Any, spec: Any) -> Path:
    """The run folder ``--resume`` without ``--out`` continues (said in one line), or exit 2."""
    from restgraph.evals.defaults import resolve_run_options
    from restgraph.evals.resume_lookup import NoRunToResume, resume_target

    resolved = resolve_run_options(options, benchmark, spec)  # as recorded in config.json
    try:
        folder = resume_target(resolved.model_dump(mode="json"))
    except NoRunToResume as exc:
        raise usage_error(str(exc)) from None
    console.print(f"resuming {folder}: the latest run in runs/ with these options", highlight=False)
    return folder


def _interrupted_early(out: Path) -> NoReturn:
    """Ctrl-C before any episode finished: nothing to summarise (not a failure of the run)."""
    console.print(
        f"interrupted before any episode finished: nothing to summarise in {out}; run the same command again to start over"
    )
    raise typer.Exit(130) from None


def _preflight(model: str, model_options: dict[str, Any]) -> None:
    """One cheap call before a run folder exists: a broken model setting fails in seconds."""
    from restgraph.evals.preflight import PreflightError, needs_preflight, preflight

    if not needs_preflight(model):
        return
    try:
        preflight(model, model_options)
    except PreflightError as exc:
        console.print(f"[red]error:[/red] {exc}", highlight=False)
        raise typer.Exit(1) from None


def _price(text: str | None) -> dict[str, float] | None:
    from restgraph.evals.cost import Price

    try:
        return None if text is None else Price.parse(text).model_dump()
    except ValueError as exc:
        raise usage_error(str(exc)) from None


def _print_summary(summary: dict[str, Any], out: Path) -> None:
    from restgraph.evals.report import print_metrics

    print_metrics([summary], title=str(out))


@app.command()
def score(
    run_dir: Annotated[Path, typer.Argument(help="a run folder holding traces.jsonl")],
    judge: Annotated[
        str | None,
        typer.Option(
            help="also ask MODEL (any model spec) to judge each answer; stored in RUN_DIR/judge.jsonl"
        ),
    ] = None,
) -> None:
    """Recompute RUN_DIR/summary.json from the traces alone (no model, no network unless --judge)."""
    from restgraph.evals.summary import write_summary

    if not (run_dir / "traces.jsonl").is_file():
        raise usage_error(f"{run_dir} holds no traces.jsonl")
    from restgraph.evals.run_guard import MixedRun

    if judge:
        from restgraph.agents.models import ModelSpecError, check_spec

        try:
            check_spec(judge)
        except ModelSpecError as exc:
            raise usage_error(str(exc)) from None
    try:
        summary = write_summary(run_dir)
        if judge:  # after the run-folder guards: an LLM second opinion, stored in judge.jsonl
            from restgraph.agents.models import ModelSpecError
            from restgraph.evals.judge import judge_run

            try:
                judge_run(run_dir, judge)
            except ModelSpecError as exc:
                raise usage_error(str(exc)) from None
            summary = write_summary(run_dir)
    except MixedRun as exc:
        raise usage_error(str(exc)) from None
    except (ValueError, KeyError) as exc:
        console.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(1) from None
    _print_summary(summary, run_dir)
    if review := summary.get("human_review"):
        print(
            f"human verdicts ({review['file']}): {review['reviewed']} episodes reviewed,"
            f" {review['overrides']} checker verdicts overridden"
        )


@app.command()
def report(
    run_dirs: Annotated[
        list[Path],
        typer.Argument(help="runs to compare: run folders, a study folder, a folder of runs, globs"),
    ],
    fmt: Annotated[str, typer.Option("--format", help="table | markdown | csv | json")] = "table",
    plot: Annotated[Path | None, typer.Option(help="also save a bar chart PNG here")] = None,
    layout: Annotated[
        str,
        typer.Option(
            help="auto | generic | table4 (RestBench) | table1 (AssistantBench) | shortcuts | api-use"
        ),
    ] = "auto",
    out: Annotated[
        Path | None, typer.Option(help="folder for the layout's files (table4.md/.csv/.png, ...)")
    ] = None,
) -> None:
    """Compare runs: RestGPT's Table 4 layout for RestBench runs, the benchmark's own report for
    ShortcutsBench / Synthetic API Use runs, else one table of headline metrics."""
    from restgraph.evals.names import choice_error
    from restgraph.evals.report import (
        LAYOUTS,
        load_summaries,
        pick_layout,
        print_human_review,
        render,
        render_layout,
    )

    if problem := choice_error("--format", fmt, ("table", "markdown", "csv", "json")) or choice_error(
        "--layout", layout, LAYOUTS
    ):
        raise usage_error(problem)
    from restgraph.evals.run_discovery import ensure_summaries, find_runs

    def say(line: str) -> None:
        console.print(line, markup=False, highlight=False)

    skipped: list[str] = []
    found = find_runs(run_dirs, skip=skipped.append)
    if not found:  # one line: what was given and why none of it is a run
        raise usage_error("no run to report: " + "; ".join(s.removeprefix("skipping ") for s in skipped))
    for line in skipped:
        say(line)
    run_dirs = ensure_summaries(found, log=say)
    try:
        summaries = load_summaries(run_dirs)
    except (FileNotFoundError, ValueError) as exc:
        raise usage_error(str(exc)) from None
    if layout == "auto" and fmt == "table":
        from restgraph.evals.report import report_groups, write_generic

        groups = report_groups(summaries)
        for name, chosen, group in groups:  # one report per benchmark; files only under --out
            where = out if out is None or len(groups) == 1 else out / name
            if chosen == "generic":
                write_generic(group, where, name, plot=plot)
            else:
                render_layout(chosen, [Path(s["run_dir"]) for s in group], where)
        print_human_review(summaries, out)
        return
    chosen = pick_layout(summaries, layout) if fmt == "table" else "generic"
    if chosen == "generic":
        render(summaries, fmt, plot=plot)
    else:
        render_layout(chosen, run_dirs, out)
    if fmt == "table":
        print_human_review(summaries, out)


@app.command()
def export(
    run_dir: Annotated[Path, typer.Argument(help="a run folder holding traces.jsonl")],
    fmt: Annotated[str, typer.Option("--format", help="parquet | csv")] = "parquet",
    out: Annotated[
        Path | None,
        typer.Option(help="folder for episodes/model_calls/tool_calls files; default RUN_DIR/export"),
    ] = None,
) -> None:
    """Write the run's episodes, model calls and tool calls as typed tables (evals.results)."""
    from restgraph.evals.names import choice_error

    if problem := choice_error("--format", fmt, ("parquet", "csv")):
        raise usage_error(problem)
    if not (run_dir / "traces.jsonl").is_file():
        raise usage_error(f"{run_dir} holds no traces.jsonl")
    from restgraph.evals.results import export as export_frames

    for path in export_frames(run_dir, out or run_dir / "export", fmt):
        Console().print(f"wrote {path}", highlight=False)


@app.command()
def view(
    run_dirs: Annotated[list[Path], typer.Argument(help="run folders to show side by side")],
    host: Annotated[str, typer.Option(help="bind address (loopback by default)")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port; 0 picks a free one")] = 0,
    export: Annotated[
        Path | None,
        typer.Option(
            "--export", help="write a static copy of the viewer into this folder instead of serving"
        ),
    ] = None,
    open_browser: Annotated[
        bool, typer.Option("--open/--no-open", help="open the page in the browser")
    ] = True,
) -> None:
    """Browse runs: episode table (filter, sort), and each episode's graph path, prompts, outputs,
    parse errors, HTTP calls, programs, screenshots, state diff and gold path."""
    missing = [str(d) for d in run_dirs if not (d / "traces.jsonl").is_file()]
    if missing:
        raise usage_error(f"no traces.jsonl in {', '.join(missing)}")
    from restgraph.evals.viewer.server import Viewer, export_site, serve

    viewer = Viewer(run_dirs)
    if export is not None:
        index = export_site(viewer, export)
        print(
            f"wrote {index}; it opens from disk: {index.resolve().as_uri()}"
        )  # print: a path is never folded
        return
    serve(viewer, host=host, port=port, open_browser=open_browser)


@app.command()
def review(
    run_dir: Annotated[Path, typer.Argument(help="the run folder to review")],
    who: Annotated[
        str | None, typer.Option(help="your name, recorded with each verdict; default $USER")
    ] = None,
    port: Annotated[int, typer.Option(help="port on 127.0.0.1; 0 picks a free one")] = 0,
    open_browser: Annotated[
        bool, typer.Option("--open/--no-open", help="open the page in the browser")
    ] = True,
) -> None:
    """Sign off on a run by hand: each episode's query, answer, answer key and the checker's
    verdict, least sure first; p marks pass, f fail (appended to RUN_DIR/reviews.jsonl, which
    `restgraph score` then takes over the checker's verdict)."""
    import getpass
    import os

    if not (run_dir / "traces.jsonl").is_file():
        raise usage_error(f"no traces.jsonl in {run_dir}")
    if who is None:
        try:
            who = os.environ.get("USER") or getpass.getuser()
        except (KeyError, OSError):
            who = ""
    if not who.strip():
        raise usage_error("say who is reviewing: --who NAME (no $USER is set)")
    from restgraph.evals.viewer.server import Viewer, serve

    serve(Viewer([run_dir], reviewer=who.strip()), port=port, open_browser=open_browser)


@app.command("list")
def list_things(
    options: Annotated[
        str | None,
        typer.Option(
            "--options",
            help="show the options of this benchmark, agent or model kind (local, scripted, openai)",
        ),
    ] = None,
) -> None:
    """Show benchmarks, agents and model specs, or the options one of them takes."""
    from restgraph.evals.listing import print_catalogue, print_options
    from restgraph.evals.termtable import table_console

    if options is None:
        print_catalogue(table_console())
    elif not print_options(options, table_console()):
        from restgraph.evals.names import listing_names
        from restgraph.tools.suggest import did_you_mean

        raise usage_error(
            f"nothing is called {options!r}{did_you_mean(options, listing_names())}: name a "
            "benchmark, an agent or a model kind (see `restgraph list`)"
        )


from restgraph.evals.sweep.cli import sweep as _sweep  # noqa: E402  (the command lives with the sweep package)

app.command("sweep")(_sweep)


@models_app.command("pull")
def models_pull(
    name: Annotated[str, typer.Argument(help="'local' (the embedded default)")] = "local",
) -> None:
    """Pre-fetch the embedded model into the user cache."""
    if name != "local":
        raise usage_error("only 'local' can be pulled")
    from restgraph.agents.local_model import ensure_default_gguf

    try:
        path = ensure_default_gguf()
    except Exception as exc:
        console.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(1) from None
    Console().print(f"model ready: {path}")


@sandbox_app.command("serve")
def sandbox_serve(
    name: Annotated[str, typer.Argument(help="sandbox name (tmdb, spotify, web)")],
    host: Annotated[str, typer.Option(help="bind address (loopback by default)")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port")] = 8000,
) -> None:
    """Serve an offline sandbox on loopback; prints its URL, base path and how to authenticate,
    with the API's OpenAPI docs at /docs."""
    from restgraph.evals.sandbox_serve import serve
    from restgraph.tools.sandbox import sandbox_names
    from restgraph.tools.suggest import unknown_name

    if name not in sandbox_names():
        raise usage_error(unknown_name("sandbox", name, sandbox_names()))
    serve(name, host, port)


def main() -> None:  # pragma: no cover
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
