"""Reflexion on RestGPT's executor: ReAct (``restgpt-no-planner``) plus self-reflection between trials.

After a trial ends (an answer, or ``agent_steps`` spent) the ``reflect`` node asks the model to
judge it. On failure its lesson is shown to the next trial's selector (in its background, the
place RestGPT's selector reads earlier findings from), the trial's results are cleared, and the
environment goes back to its initial state unless ``-A reflexion_reset=0`` (then trial 2 acts on
trial 1's Spotify mutations, as it would on a live account). At most ``budget.reflexion_trials``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from restgraph.agents.restgpt.config import RestGPTConfig
from restgraph.agents.restgpt.context import Episode
from restgraph.agents.restgpt.meter import Meter
from restgraph.graphs.restgpt_executor import RestState


def with_lessons(background: str, reflections: Sequence[str], has_results: bool) -> str:
    """The selector's background with the lessons of earlier trials in front."""
    if not reflections:
        return background
    lessons = "Lessons from earlier attempts at this query: " + " ".join(reflections)
    return f"{lessons}\n{background}" if has_results else lessons


def reflect_node(config: RestGPTConfig) -> Any:
    async def reflect(state: RestState, ep: Episode, meter: Meter) -> dict[str, Any]:
        trial = state.get("trial", 0) + 1
        if trial >= config.budget.reflexion_trials:
            return {"trial": trial, "route": "finish"}
        transcript = [
            (f"Action: {r.get('api_plan', '')}", r.get("result", "")) for r in state.get("results") or []
        ]
        reply = await ep.run(
            "reflect", query=state["instruction"], transcript=transcript, answer=state.get("final_answer")
        )
        if reply.ok and reply.parsed.success and state.get("final_answer"):
            return {"trial": trial, "route": "finish"}
        lesson = (
            reply.parsed.reflection
            if reply.ok
            else "The previous attempt did not clearly answer the query; check each id with an API call."
        )
        meter.reset("agent_steps")
        meter.reset("selector_retries")
        if config.reflexion_reset:
            ep.env.reset_state()  # the next trial starts from the initial state, not trial 1's mutations
        return {
            "trial": trial,
            "reflections": [*(state.get("reflections") or []), lesson],
            "results": [],
            "subtask_start": 0,
            "final_answer": None,
            "selector_failures": [],
            "selector_feedback": None,
            "route": "selector",
        }

    return reflect
