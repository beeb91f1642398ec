"""restgraph: API-using agents as LangGraph graphs, and the harness that scores them.

The four layers live in the repository's top-level folders (``agents/``, ``graphs/``, ``tools/``,
``evals/``, as the project's design card lays them out) and install under this one import name:
``restgraph.agents``, ``restgraph.graphs``, ``restgraph.tools``, ``restgraph.evals``. In a checkout the
subpackages here are symbolic links to those folders, so editable installs, mypy and import-linter see
the same tree as an installed wheel; a generic top-level name (``tools``, ``agents``) next to a notebook
can never shadow them.
"""
