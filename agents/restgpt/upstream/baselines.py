"""The planning baselines' prompts under the upstream pack, built from RestGPT's own pieces.

The paper published no prompts for Offline and DEPS. So that neither is handicapped by a weaker
prompt than RestGPT's, their planning roles (``offline_plan``, ``deps_plan``, ``deps_select``)
see what RestGPT's API selector sees, cut from its original template at run time: its
introduction, its list of endpoints, its per-scenario worked examples and its note on path
variables. Only the format section (what to write) is the baseline's own. The prompt is one user
message, like every upstream-pack prompt; the query and progress follow ``Begin!``.
(ReAct and Reflexion are RestGPT's selector itself: ``restgpt-no-planner``.)
"""

from __future__ import annotations

from restgraph.agents.restgpt.context import RoleContext
from restgraph.agents.restgpt.upstream import assembly, source
from restgraph.agents.restgpt.upstream.episode import listing

_STEP_LINES = (
    "one API call per line, in the order they must run, written like the API calling lines of the examples below: "
    '"METHOD /path to <purpose>"'
)
#: the format section of each planning role ({{ }} are literal braces, as in the upstream templates)
FORMATS = {
    "offline_plan": "Starting below, write the complete plan of API calls for the user query BEFORE anything is executed; it will be executed "
    f"step by step without any change: {_STEP_LINES}. Where a value (an id) will come from an earlier step, keep the "
    "{{variable}} in the path and say in the purpose which earlier step provides it. Write the plan and nothing else.",
    "deps_plan": "Starting below, you are given the user query, a description of what has been done so far and, if the last step failed, "
    f"an explanation. Write the REMAINING plan: {_STEP_LINES}; replace each {{{{variable}}}} with a concrete value when it is known. "
    'If the user query has been fulfilled, write one line: "Final Answer: " followed by the answer.',
    "deps_select": "Starting below, you are given the user query, what has been done so far and the current plan. Write the next step to "
    'execute as ONE line "METHOD /concrete/path to <purpose>" with every {{variable}} replaced by a concrete value from what '
    'has been done, or "Final Answer: " followed by the answer if the user query has been fulfilled.',
}


def selector_pieces() -> tuple[str, str, str]:
    """RestGPT's selector template cut into its introduction, its endpoint section and its note."""
    text = source.template(assembly.SELECTOR, "API_SELECTOR_PROMPT")
    parts = text.split("\n\n----\n\n")
    if len(parts) != 3 or "\n\n\nNote, " not in parts[2]:
        raise source.UpstreamSourceError(
            "API_SELECTOR_PROMPT no longer has its intro / endpoints / format+note sections"
        )
    note = "Note, " + parts[2].split("\n\n\nNote, ", 1)[1].split("\n\nBegin!", 1)[0]
    return parts[0], parts[1], note


def planning_prompt(role: str, scenario: str, endpoints: str, live: str) -> str:
    intro, listing, note = selector_pieces()
    frame = (
        "\n\n----\n\n".join([intro, listing, FORMATS[role]])
        + "\n\nExamples of API calls in this API:\n\n{icl_examples}\n\n"
        + note
        + "\n\nBegin!\n\n"
    )
    return (
        assembly.fill(frame, endpoints=endpoints, icl_examples=source.examples(assembly.SELECTOR, scenario))
        + live
    )


def upstream_frame(ep: RoleContext, role: str, user: str) -> tuple[str, str]:
    """A planning role's prompt under the upstream pack: one user message, no system message."""
    return "", planning_prompt(role, ep.scenario, listing(ep), user)
