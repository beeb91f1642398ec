"""The AssistantBench paper's published results with GPT-4-Turbo, as a cited table of figures.

Source: Yoran et al., "AssistantBench: Can Web Agents Solve Realistic and Time-Consuming Tasks?",
arXiv 2407.15711 (v2), Table 1 (test set, 181 tasks) and Table 8 (development set, 33 tasks);
the figures are percentages: accuracy, answer rate, precision, exact match. Only the numbers are
kept here (no text of the paper); ``tests/assistantbench/test_report.py`` checks them against the
paper's text when a copy is at hand.

``system_of(agent)`` maps a restgraph agent name to the paper's system it implements
(``spa``, ``seeact``, ``cb-inst``, ``cb-1s``, ``ralm-inst``, ``ralm-1s`` and their ``X->cb``
ensembles, spelt ``X+cb``, ``X->cb`` or ``X-cb``); other agents (the aria-snapshot ``browser``
agent and its own closed-book prompt) implement none and get no paper numbers.
"""

from __future__ import annotations

import re
from typing import NamedTuple

CITATION = "Yoran et al. 2024, AssistantBench, arXiv 2407.15711"


class PaperRow(NamedTuple):
    accuracy: float
    answer_rate: float
    precision: float
    exact_match: float


#: the paper's systems in Table 1's order, with its type column
SYSTEMS: list[tuple[str, str]] = [
    ("Closed-book LMs", "CB-INST"),
    ("Closed-book LMs", "CB-1S"),
    ("Retrieval-augmented LMs", "RALM-INST"),
    ("Retrieval-augmented LMs", "RALM-1S"),
    ("Web agents", "SeeAct"),
    ("Web agents", "SPA"),
    ("Ensembles", "RALM-INST→CB"),
    ("Ensembles", "RALM-1S→CB"),
    ("Ensembles", "SeeAct→CB"),
    ("Ensembles", "SPA→CB"),
]

#: Table 1: test set, GPT-4-Turbo
TABLE1: dict[str, PaperRow] = {
    "CB-INST": PaperRow(16.5, 53.6, 30.7, 6.1),
    "CB-1S": PaperRow(22.2, 89.5, 24.8, 8.3),
    "RALM-INST": PaperRow(11.8, 60.2, 19.5, 5.5),
    "RALM-1S": PaperRow(10.7, 48.1, 22.4, 3.9),
    "SeeAct": PaperRow(4.1, 15.5, 26.3, 2.2),
    "SPA": PaperRow(11.1, 35.9, 30.9, 5.5),
    "RALM-INST→CB": PaperRow(18.7, 93.9, 19.9, 6.6),
    "RALM-1S→CB": PaperRow(19.5, 92.8, 21.0, 6.1),
    "SeeAct→CB": PaperRow(23.4, 89.5, 26.1, 9.4),
    "SPA→CB": PaperRow(25.2, 91.7, 27.5, 9.9),
}
#: Table 8: development set, GPT-4-Turbo
TABLE8: dict[str, PaperRow] = {
    "CB-INST": PaperRow(18.1, 42.4, 42.6, 6.1),
    "CB-1S": PaperRow(23.7, 90.9, 26.1, 9.1),
    "RALM-INST": PaperRow(15.5, 54.5, 28.4, 9.1),
    "RALM-1S": PaperRow(13.6, 42.4, 32.1, 6.1),
    "SeeAct": PaperRow(0.0, 3.0, 0.0, 0.0),
    "SPA": PaperRow(12.7, 24.2, 52.6, 9.1),
    "RALM-INST→CB": PaperRow(28.1, 93.9, 29.9, 12.1),
    "RALM-1S→CB": PaperRow(25.1, 93.9, 26.7, 9.1),
    "SeeAct→CB": PaperRow(23.7, 93.9, 25.3, 9.1),
    "SPA→CB": PaperRow(29.3, 90.9, 32.3, 12.1),
}
TABLES = {"Table 1": TABLE1, "Table 8": TABLE8}

_BASES = {
    "cbinst": "CB-INST",
    "cb1s": "CB-1S",
    "ralminst": "RALM-INST",
    "ralm1s": "RALM-1S",
    "seeact": "SeeAct",
    "spa": "SPA",
}
_ENSEMBLE = re.compile(r"^(?P<base>.+?)(?:\+|->|→|-|_|2)cb$")


def system_of(agent: str) -> str | None:
    """The paper system an agent name implements (``spa+cb`` -> ``SPA→CB``), or None."""
    name = agent.strip().lower()
    match = _ENSEMBLE.match(name)
    base = _BASES.get(re.sub(r"[^a-z0-9]", "", match.group("base") if match else name))
    if base is None:
        return None
    return f"{base}→CB" if match else base


def table_for(benchmark: str, split: str | None) -> str:
    """Which published table a run sits beside: Table 8 for the dev split of the real benchmark,
    Table 1 (the headline, test set) otherwise."""
    return "Table 8" if benchmark == "assistantbench" and split in ("validation", "dev") else "Table 1"
