"""Gold-reading scripted policies (``scripted:restgpt-oracle``, ``scripted:browser-oracle``).

They read ``task.gold``, so they belong to the evaluation side: an agent must never be able to
import the answers. Each one raises ``UnknownRoleError`` when it is asked by a role it does not
know, instead of answering from the gold: a wiring bug then fails loudly rather than scoring as
a success. Importing this package registers them.
"""

from restgraph.evals.oracles import browser, paper_baselines, restgpt, seeplanact
from restgraph.evals.oracles.errors import UnknownRoleError

__all__ = ["UnknownRoleError", "browser", "paper_baselines", "restgpt", "seeplanact"]
