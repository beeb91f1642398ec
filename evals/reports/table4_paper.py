"""The RestGPT paper's Table 4 (arXiv 2306.06624; restbench.md §7), cited as reference rows.

Why a module of its own: these numbers are a citation, not a measurement. They are always shown
beside our rows (text-davinci-003 for every method; the paper's other models where a run used one
of them), labelled as the paper's and as judged by hand: the paper's Success and Correct Path were
read by people, ours are scored automatically, so the two line up in layout, not in method.
"""

from __future__ import annotations

#: the paper's scenarios (its table's columns), by our benchmark name
SCENARIOS = {"restbench-tmdb": "TMDB", "restbench-spotify": "Spotify"}

DAVINCI = "text-davinci-003"
#: who judged the paper's Success and Correct Path
PAPER_JUDGED = "hand-judged"
PAPER_CITATION = "RestGPT (Song et al. 2023, arXiv 2306.06624), Table 4"
#: the paper ran every query of RestBench: its rows' n (their intervals are Wilson's from % and n)
PAPER_N = {"TMDB": 100, "Spotify": 57}

#: (agent, paper model) -> per scenario (Success %, Correct Path %, ΔSolution Len); None: the paper's "–"
PAPER: dict[tuple[str, str], dict[str, tuple[float, float, float | None]]] = {
    ("offline", DAVINCI): {"TMDB": (29.0, 33.0, 1.52), "Spotify": (14.5, 36.4, 1.10)},
    ("deps", DAVINCI): {"TMDB": (38.0, 43.0, 1.20), "Spotify": (19.3, 43.8, 1.74)},
    ("react", DAVINCI): {"TMDB": (44.0, 57.0, 0.76), "Spotify": (54.5, 49.1, 0.31)},
    # Spotify Δ uncertain (restbench.md §7)
    ("reflexion", DAVINCI): {"TMDB": (52.0, 59.0, 1.37), "Spotify": (59.6, 61.4, 1.68)},
    ("restgpt", DAVINCI): {"TMDB": (75.0, 79.0, 0.55), "Spotify": (72.7, 74.5, 0.25)},
    ("restgpt-no-planner", DAVINCI): {"TMDB": (44.0, 57.0, 0.76), "Spotify": (54.5, 49.1, 0.31)},
    ("restgpt-no-parser", DAVINCI): {"TMDB": (46.0, 53.0, 0.60), "Spotify": (47.3, 52.7, 0.24)},
    ("restgpt", "gpt-3.5-turbo-0301"): {"TMDB": (68.0, 65.0, 0.72), "Spotify": (69.1, 72.3, 0.28)},
    ("restgpt", "Llama2-13B"): {"TMDB": (0.0, 0.0, None), "Spotify": (0.0, 0.0, None)},
    ("restgpt", "Vicuna-13B"): {"TMDB": (9.0, 15.0, 1.21), "Spotify": (12.7, 20.6, 1.52)},
}

#: the paper's method names, in its row order (agents of ours outside it follow, by name)
METHODS: dict[str, str] = {
    "offline": "Offline",
    "deps": "DEPS",
    "react": "ReAct",
    "reflexion": "Reflexion",
    "restgpt": "RestGPT",
    "restgpt-no-planner": "RestGPT w/o Planner",
    "restgpt-no-parser": "RestGPT w/o Parser",
}
AGENT_ORDER = list(METHODS)

#: how a model spec names each of the paper's models (lower case, "-" and "_" dropped)
_PAPER_MODELS = {
    "textdavinci003": DAVINCI,
    "gpt3.5turbo0301": "gpt-3.5-turbo-0301",
    "llama213b": "Llama2-13B",
    "vicuna13b": "Vicuna-13B",
}


def method_name(agent: str) -> str:
    """The paper's name for an agent (``restgpt-no-planner`` -> ``RestGPT w/o Planner``), else the agent id."""
    return METHODS.get(agent, agent)


def paper_model(model: str) -> str | None:
    """The paper's model a run's model spec is (``openai:gpt-3.5-turbo-0301``, ``.../Llama-2-13b-chat``...), if any."""
    flat = model.lower().replace("-", "").replace("_", "")
    return next((name for key, name in _PAPER_MODELS.items() if key in flat), None)


def paper_row(agent: str, model: str) -> dict[str, tuple[float, float, float | None]] | None:
    """The paper's numbers for this agent *and* this run's model; None when the paper has no such row."""
    name = paper_model(model)
    return PAPER.get((agent, name)) if name else None


def reference_models(agent: str, models: list[str]) -> list[str]:
    """The paper's models shown beside ``agent``'s rows: text-davinci-003 always (when the paper ran
    the agent), then each other paper model one of ``models`` is."""
    used = {paper_model(m) for m in models}
    return [name for a, name in PAPER if a == agent and (name == DAVINCI or name in used)]  # paper order
