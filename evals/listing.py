"""What ``restgraph list`` prints: the benchmarks, agents and model kinds, and with ``--options NAME``
the typed options one of them takes (name, type, default, help)."""

from __future__ import annotations

import os

from rich.console import Console

from restgraph.evals.termtable import View, print_fitted
from restgraph.tools.options import Options, describe


def option_sets(name: str) -> list[tuple[str, type[Options]]]:
    """``(title, options model)`` for every benchmark, agent or model kind called ``name``."""
    from restgraph.agents.model_options import MODEL_KINDS, model_options_model
    from restgraph.evals.benchmark import benchmark_names, get_benchmark
    from restgraph.graphs.registry import agent_names, get_agent

    found: list[tuple[str, type[Options]]] = []
    if name in benchmark_names():
        found.append((f"benchmark {name} (-B key=value)", get_benchmark(name).options_model))
    if name in agent_names():
        found.append((f"agent {name} (-A key=value)", get_agent(name).options_model))
    if name in MODEL_KINDS or ":" in name:
        found.append((f"model {name} (-M key=value)", model_options_model(name)))
    return found


def print_options(name: str, out: Console) -> bool:
    """Print the option tables for ``name``; False if nothing has that name."""
    sets = option_sets(name)
    for title, model in sets:
        out.print(f"[bold]{title}[/bold]")
        doc = " ".join((model.__doc__ or "").split())
        if doc and model.__doc__ != Options.__doc__ and model.model_fields:
            out.print(f"  {doc}", markup=False, highlight=False)
        rows = describe(model)
        if not rows:
            out.print("  takes no options")
            continue
        if not out.is_terminal and not os.environ.get("COLUMNS"):  # piped: one whole line per option
            for row in rows:
                out.print("  " + "\t".join(row), markup=False, highlight=False, soft_wrap=True)
            continue
        print_fitted(
            out, [[View(None, ["option", "type", "default", "help"], [list(r) for r in rows], wrap={3})]]
        )
    return bool(sets)


def print_catalogue(out: Console) -> None:
    """The catalogue from ``restgraph.evals.catalogue``'s cards: no plugin imported for the built-ins."""
    from restgraph.evals.catalogue import agent_cards, benchmark_cards, scripted_names

    benchmarks = [[name, b.default_agent, ", ".join(b.metric_keys)] for name, b in benchmark_cards().items()]
    agents = [[name, s.env_kind, s.description] for name, s in agent_cards().items()]
    models = [
        ["local", "embedded SmolLM2-135M-Instruct on llama.cpp (smoke-test model)"],
        ["local:/path/model.gguf", "any GGUF on the embedded llama.cpp server"],
        ["openai:<model>", "OpenAI, or any OpenAI-compatible server with --base-url"],
        ["<provider>:<model>", "anything LangChain's init_chat_model knows"],
        ["scripted:<name>", ", ".join(scripted_names())],
    ]
    for view in (
        View("Benchmarks", ["benchmark", "default agent", "metrics"], benchmarks, wrap={2}),
        View("Agents", ["agent", "acts on", "description"], agents, wrap={2}),
        View("Models", ["model spec", "what it is"], models, wrap={1}),
    ):
        print_fitted(out, [[view]])
    out.print("Options of one of them: restgraph list --options NAME")
