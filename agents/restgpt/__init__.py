"""RestGPT's roles (planner, API selector, caller, response parser) and the paper's baselines' roles.

Roles are LLM-facing only: each builds its prompt from a template file in ``prompts/``, calls the
model through ``restgraph.agents.restgpt.llm.call_role`` (structured output when the model supports it, a
plain-text protocol with client-side stop markers otherwise) and returns a parsed decision.
The LangGraph wiring lives in ``graphs/restgpt.py`` and ``graphs/restgpt_baselines.py``.
"""

from restgraph.agents.restgpt.config import Budget, BudgetExceeded, RestGPTConfig

__all__ = ["Budget", "BudgetExceeded", "RestGPTConfig"]
