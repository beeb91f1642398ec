"""A run's ``-A/-B/-M`` options checked against what its agent, benchmark and model kind declare.

Called by the CLI before anything starts (a bad key is a usage error, exit 2) and by the runner
for runs started from Python, so no episode ever sees an option nobody reads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from restgraph.agents.model_options import model_kind, model_options_model
from restgraph.tools.options import OptionError, recorded, validate_options

if TYPE_CHECKING:
    from restgraph.evals.benchmark import Benchmark, RunOptions
    from restgraph.graphs.registry import AgentSpec


def check_run_options(options: RunOptions, benchmark: Benchmark, agent: AgentSpec) -> RunOptions:
    """A copy whose option dicts hold the validated values (typed, as recorded in config.json).

    Raises ``restgraph.tools.options.OptionError`` (one line naming the bad key and the valid ones).
    """
    update = {
        "bench_options": recorded(benchmark.check_options(options.bench_options)),
        "agent_options": recorded(agent.check_options(options.agent_options)),
    }
    if agent.needs_model:
        kind = model_options_model(options.model)
        update["model_options"] = recorded(
            validate_options(kind, options.model_options, what=f"model {model_kind(options.model)}")
        )
    check_workers(options, agent.needs_model)
    return options.model_copy(update=update)


def check_workers(options: RunOptions, needs_model: bool) -> None:
    """``--workers N``: what N processes cannot share is refused before any work."""
    if options.workers == 1:
        return
    if needs_model and options.model.split(":", 1)[0] == "local":
        raise OptionError(
            f"--workers {options.workers}: each worker would start its own embedded model server; a local "
            "model's server is the limit, not the harness: use --workers 1"
        )
    if options.max_connections is not None and options.max_connections < options.workers:
        raise OptionError(
            f"--workers {options.workers} needs --max-connections of at least {options.workers} "
            f"(each worker holds its share of the {options.max_connections})"
        )
