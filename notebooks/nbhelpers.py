"""Small helpers the notebooks share: run folders, running the harness inside Jupyter, drawing graphs.

Why a module: every notebook needs the same three things and the cells should show the research
code, not plumbing. Nothing here is needed outside the notebooks.

- ``run_dir(name)``: a fresh folder under ``$RESTGRAPH_NOTEBOOK_RUNS`` (default ``notebooks/runs``,
  gitignored) so re-running a notebook never trips over an earlier run's ``traces.jsonl``.
- ``run(...)``: ``await EpisodeRunner(...).run()``. Jupyter's kernel already runs an event loop, so
  ``restgraph.evals.runner.run_sync`` (``asyncio.run``) cannot be used from a cell; top-level ``await`` can.
- ``draw_graph(graph)``: the compiled graph's nodes and edges drawn with matplotlib. LangGraph's
  ``draw_mermaid_png`` calls a web service, so it is not usable offline.
"""

from __future__ import annotations

import os
import shutil
from collections import deque
from pathlib import Path
from typing import Any

from restgraph.evals.benchmark import RunOptions
from restgraph.evals.runner import EpisodeRunner
from restgraph.evals.trace import Trace, TraceStore


def data_dir_note() -> str:
    root = os.environ.get("RESTGRAPH_DATA_DIR")
    if root and Path(root).is_dir():
        return f"benchmark data: {root}"
    return "RESTGRAPH_DATA_DIR is not set: the loaders will download the pinned files on first use (needs a network)"


def run_dir(*parts: str) -> Path:
    root = Path(os.environ.get("RESTGRAPH_NOTEBOOK_RUNS", "runs"))
    path = root.joinpath(*parts)
    shutil.rmtree(path, ignore_errors=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


async def run(benchmark: str, agent: str, model: str, out: Path, **options: Any) -> dict[str, Any]:
    """Run ``agent`` with ``model`` on ``benchmark`` into ``out`` and return the run's summary."""
    opts = RunOptions(benchmark=benchmark, agent=agent, model=model, **options)
    return await EpisodeRunner(opts, out, progress=False).run()


def traces(out: Path) -> list[Trace]:
    return TraceStore(out).load().traces


def _layers(nodes: list[str], edges: list[tuple[str, str]]) -> dict[str, int]:
    """Breadth-first depth from ``__start__`` (back edges ignored), ``__end__`` last."""
    depth = {"__start__": 0}
    queue = deque(["__start__"])
    while queue:
        here = queue.popleft()
        for src, dst in edges:
            if src == here and dst not in depth and dst != "__end__":
                depth[dst] = depth[here] + 1
                queue.append(dst)
    last = max(depth.values(), default=0) + 1
    for n in nodes:
        depth.setdefault(n, last)
    # nodes that only lead to __end__ (a "finish" node) go on their own row just above it
    sinks = [n for n in nodes if n not in ("__start__", "__end__") and {d for s, d in edges if s == n} == {"__end__"}]
    inner = max((d for n, d in depth.items() if n not in sinks and n != "__end__"), default=0)
    for n in sinks:
        depth[n] = inner + 1
    depth["__end__"] = inner + (2 if sinks else 1)
    return depth


def draw_graph(graph: Any, path: Path | None = None, title: str | None = None) -> Any:
    """A matplotlib figure of a compiled LangGraph graph: boxes per node, solid = fixed edge,
    dashed = conditional (routed) edge. Saved to ``path`` when given."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyArrowPatch

    g = graph.get_graph()
    nodes = list(g.nodes)
    edges = [(e.source, e.target, bool(e.conditional)) for e in g.edges]
    depth = _layers(nodes, [(s, t) for s, t, _ in edges])
    rows: dict[int, list[str]] = {}
    for n in nodes:
        rows.setdefault(depth[n], []).append(n)
    pos = {}
    for d, members in rows.items():
        for i, n in enumerate(members):
            pos[n] = (i - (len(members) - 1) / 2, -d)
    width = max(len(m) for m in rows.values())
    fig, ax = plt.subplots(figsize=(max(5, 2.6 * width), 0.85 * len(rows) + 1))
    for src, dst, conditional in edges:
        (x1, y1), (x2, y2) = pos[src], pos[dst]
        drop = y1 - y2  # rows travelled downwards; arcs bend left of the direction of travel, so
        # upward (back) edges and downward skips land on opposite sides of the column
        rad = 0.0 if drop == 1 and x1 == x2 else (0.5 if drop <= 0 else 0.18 + 0.08 * drop)
        ax.add_patch(FancyArrowPatch((x1, y1), (x2, y2), arrowstyle="-|>", mutation_scale=14, shrinkA=14, shrinkB=14,
                                     linestyle="--" if conditional else "-", color="tab:gray" if conditional else "black",
                                     connectionstyle=f"arc3,rad={rad}"))
    for n, (x, y) in pos.items():
        special = n.startswith("__")
        ax.text(x, y, n.strip("_").upper() if special else n, ha="center", va="center", fontsize=10,
                bbox={"boxstyle": "round,pad=0.4", "fc": "#eeeeee" if special else "#cfe2f3", "ec": "black"})
    xs = [p[0] for p in pos.values()]
    ax.set_xlim(min(xs) - 1.6, max(xs) + 1.6)
    ax.set_ylim(-len(rows), 0.7)
    ax.axis("off")
    ax.set_title(title or getattr(graph, "name", "graph"))
    fig.tight_layout()
    if path is not None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, dpi=110)
    return fig


def show_figure(fig: Any, path: Path | None = None) -> None:
    """Save (optionally) and display a figure inline whatever matplotlib backend is active
    (the report modules switch to Agg, which would stop ``plt.show()`` from rendering)."""
    import matplotlib.pyplot as plt
    from IPython.display import display

    if path is not None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, dpi=110)
    display(fig)
    plt.close(fig)


def show_png(path: Path, width: int | None = None) -> None:
    from IPython.display import Image, display

    display(Image(filename=str(path), width=width))


def task_key(task_id: str) -> tuple[str, int, str]:
    """Natural order of task ids: ``tmdb/2`` before ``tmdb/10`` (string order puts it after)."""
    prefix, _, rest = task_id.rpartition("/")
    return (prefix, int(rest), "") if rest.isdigit() else (prefix, -1, rest)


def task_order(ids: Any) -> Any:
    """``task_key`` for a pandas ``sort_values(key=...)`` over a column of task ids."""
    return ids.map(lambda task_id: task_key(str(task_id)))
