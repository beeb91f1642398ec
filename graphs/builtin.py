"""Imports every agent module of ``graphs`` so that each registers its agents."""

import importlib
import pkgutil

import graphs

for _module in pkgutil.walk_packages(graphs.__path__, prefix="graphs."):
    if _module.name not in ("graphs.builtin", "graphs.registry"):
        importlib.import_module(_module.name)
