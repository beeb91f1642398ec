"""Gold-reading scripted policies (``scripted:restgpt-oracle``, ``scripted:browser-oracle``).

They read ``task.gold``, so they belong to the evaluation side: an agent must never be able to
import the answers. Each one raises ``UnknownRoleError`` when it is asked by a role it does not
know, instead of answering from the gold: a wiring bug then fails loudly rather than scoring as
a success. Importing a module registers its policy (each is a ``restgraph.scripted`` entry point);
``import_builtins`` registers them all. The package itself imports none of them: ``restgpt-oracle``
alone used to pay for the browser oracle's imports (~0.4 s of a TMDB run's start-up).
"""

import importlib

from restgraph.evals.oracles.errors import UnknownRoleError

MODULES = ("browser", "paper_baselines", "restgpt", "seeplanact")


def import_builtins() -> None:
    """Register every gold-reading scripted policy (the fallback for stale entry points)."""
    for name in MODULES:
        importlib.import_module(f"{__name__}.{name}")


__all__ = ["MODULES", "UnknownRoleError", "import_builtins"]
