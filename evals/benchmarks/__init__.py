"""Built-in benchmarks, one module each, found through the ``restgraph.benchmarks`` entry points.

Importing this package imports none of them (a run loads only its own benchmark);
``import_builtins`` imports them all, the fallback for an install whose metadata is stale.
"""

import importlib
import pkgutil


def import_builtins() -> None:
    for module in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{module.name}")
