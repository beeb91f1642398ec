"""The README's commands: every ``restgraph`` line in its code blocks parses (each option exists and
takes its value), the ones that can run offline do run (a scripted model standing in where the README
names a real one, one task each), and every ``--option`` the prose names is a real option of some
``restgraph`` command or of the foreign tool named beside it. A renamed option or a dropped command
fails here, not in a newcomer's terminal."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import click
import pytest
import typer.main
from typer.testing import CliRunner

from restgraph.evals.cli import app

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
COMMAND = typer.main.get_command(app)

#: options the README names that belong to another tool, each with where it appears
FOREIGN = {
    "--head": "ray start --head",
    "--address": "ray start --address (also restgraph sweep's)",
    "--limt": "the README's example of a mistyped option",
    "--price-in": "python -m restgraph.evals.reports.table4",
    "--price-out": "python -m restgraph.evals.reports.table4",
    "--checker": "bench/answer_validity.py",
    "--episodes": "bench/runner_throughput.py",
    "--latency": "bench/runner_throughput.py",
    "--seccomp": "bubblewrap's own option",
    "--busy": "bench/quickstart_time.py",
    "--compare": "bench/quickstart_time.py",
    "--repeat": "bench/quickstart_time.py",
    "--only": "bench/startup_time.py",
    "--runs": "bench/startup_time.py",
    "--repeats": "bench/harness_ab.py",
    "--no-browser": "langgraph dev",
    "--system-site-packages": "python -m venv",
}

#: what stands in for a real model in a README command, by benchmark
SCRIPTED = {
    "restbench-tmdb": "scripted:restgpt-oracle",
    "restbench-spotify": "scripted:restgpt-oracle",
    "api-use": "scripted:api-use-target",
    "assistantbench-local": "scripted:paper-oracle",
}


def readme_commands() -> list[list[str]]:
    commands = []
    for block in re.findall(r"```bash\n(.*?)```", README, re.S):
        for line in block.splitlines():
            if line.strip().startswith("restgraph "):
                commands.append(shlex.split(line.split(" #", 1)[0]))
    return commands


def _resolve(args: list[str]) -> tuple[click.Command, list[str]]:
    """The click command a ``restgraph`` argument list names, and its own arguments."""
    command: click.Command = COMMAND
    while hasattr(command, "commands") and args and not args[0].startswith("-"):
        command, args = command.commands[args[0]], args[1:]
    return command, args


def all_options(command: click.Command = COMMAND) -> set[str]:
    names = {
        opt
        for param in command.params
        for opt in getattr(param, "opts", []) + getattr(param, "secondary_opts", [])
    }
    if hasattr(command, "commands"):
        for sub in command.commands.values():
            names |= all_options(sub)
    return names


@pytest.mark.parametrize("argv", readme_commands(), ids=lambda argv: " ".join(argv[1:4]))
def test_every_readme_command_parses(argv: list[str]) -> None:
    command, args = _resolve(argv[1:])
    args = [a.replace("$RESTGRAPH_DATA_DIR", "/data").replace("<run>", "run") for a in args]
    with command.make_context(argv[0], args, resilient_parsing=False):
        pass  # an unknown option, a missing value or a bad choice raises a UsageError here


def test_readme_names_only_options_that_exist() -> None:
    named = set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]+", README))
    unknown = sorted(named - all_options() - set(FOREIGN) - {"--help"})
    assert not unknown, f"the README names options no restgraph command has: {unknown}"


def _offline(argv: list[str], out: Path) -> list[str] | None:
    """``argv`` made to run offline on one task (None: not a command that can run here)."""
    args = argv[1:]
    if args[0] != "run" or "--base-url" in args:
        return None
    bench = args[1]
    if "--model" in args:
        i = args.index("--model")
        args = args[:i] + args[i + 2 :]
    if "--limit" in args:
        i = args.index("--limit")
        args = args[:i] + args[i + 2 :]
    agent = args[args.index("--agent") + 1] if "--agent" in args else "restgpt"
    model = [] if agent in ("oracle", "replay") else ["--model", SCRIPTED[bench]]
    return [*args, *model, "--limit", "1", "--out", str(out), "--quiet", "--no-preflight"]


def test_readme_commands_that_can_run_offline_do_run(tmp_path: Path, data_dir: Path) -> None:
    runner = CliRunner()
    ran = []
    for i, argv in enumerate(readme_commands()):
        if argv[1] == "list":
            result = runner.invoke(app, argv[1:])
            assert result.exit_code == 0, (argv, result.output)
            ran.append(" ".join(argv))
            continue
        args = _offline([a.replace("$RESTGRAPH_DATA_DIR", str(data_dir)) for a in argv], tmp_path / f"run{i}")
        if args is None:
            continue
        result = runner.invoke(app, args)
        assert result.exit_code == 0, (argv, args, result.output[-2000:])
        ran.append(" ".join(argv))
    run_dirs = sorted(p for p in tmp_path.iterdir() if (p / "traces.jsonl").exists())
    for command in (
        ["score", str(run_dirs[0])],
        ["report", *map(str, run_dirs[:3]), "--out", str(tmp_path / "report")],
    ):
        result = runner.invoke(app, command)
        assert result.exit_code == 0, (command, result.output[-2000:])
    assert len(ran) >= 10, ran
