"""Built-in benchmarks. Every module in this package registers its benchmark(s) on import."""

import importlib
import pkgutil

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")
