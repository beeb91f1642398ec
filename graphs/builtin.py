"""Imports every agent module of ``graphs`` so that each registers its agents."""

import importlib
import pkgutil

from restgraph import graphs

for _module in pkgutil.walk_packages(graphs.__path__, prefix="restgraph.graphs."):
    if _module.name not in ("restgraph.graphs.builtin", "restgraph.graphs.registry"):
        importlib.import_module(_module.name)
