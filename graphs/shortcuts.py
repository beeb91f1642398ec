"""ShortcutsBench agents: single-step graphs the benchmark invokes fresh for every scored action.

- ``shortcuts-next-action``: one ``propose`` node, one stateless model call on the cleaned gold
  history it is handed. It keeps nothing between invocations (no checkpointer, no message list),
  which is what the teacher-forced protocol requires.
- ``replay``: no model; returns the prediction an experiment log stored for this position, so
  upstream logs are re-scored by exactly the code that scores our own runs.

Input state: ``instruction`` (the query), ``candidates`` (id-sorted table), ``history`` and
``position`` (raw index of the gold action); output ``prediction`` (a ``bseqs`` entry) and
``status`` (``finished`` or ``error:context_overflow`` when the prompt cannot be run).
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

from langchain_core.language_models import BaseChatModel
from langgraph.graph import END, START, StateGraph
from pydantic import Field

from restgraph.agents.shortcuts.next_action import (
    PROMPT_PACKS,
    PromptTooLong,
    build_messages,
    propose_next_action,
)
from restgraph.agents.shortcuts.request import (
    GOOGLE_STYLE,
    describe_request,
    provider_style,
    upstream_request,
)
from restgraph.graphs.episode_context import EpisodeContext, episode
from restgraph.graphs.registry import register_agent
from restgraph.tools.options import Options
from restgraph.tools.shortcuts.output import is_context_error

CONTEXT_OVERFLOW = "error:context_overflow"


class NextActionState(TypedDict):
    instruction: str
    task_id: NotRequired[str]
    candidates: NotRequired[dict[str, str]]
    history: NotRequired[list[dict[str, Any]]]
    position: NotRequired[int]
    gold: NotRequired[dict[str, Any]]
    prediction: NotRequired[dict[str, Any] | None]
    final_answer: NotRequired[str | None]
    status: NotRequired[str]
    error: NotRequired[str | None]


def _single_node(name: str, node: Any) -> Any:
    graph = StateGraph(NextActionState, context_schema=EpisodeContext)
    graph.add_node(name, node)
    graph.add_edge(START, name)
    graph.add_edge(name, END)
    return graph.compile()


class NextActionOptions(Options):
    prompts: Literal[PROMPT_PACKS] = Field(  # type: ignore[valid-type]
        "upstream", description="upstream: ShortcutsBench's own prompt texts; restgraph: this project's"
    )
    structured: bool = Field(
        False, description="0: free-form replies parsed as upstream does; 1: a JSON-schema request"
    )
    request: Literal["upstream", "as_built"] = Field(
        "upstream",
        description="upstream: only what upstream sends; as_built: the model as the harness built it",
    )
    max_prompt_tokens: int | None = Field(
        None,
        ge=1,
        description="refuse prompts longer than this (chars/4 estimate) as a context overflow; unset = no cap",
    )


def build_next_action(model: BaseChatModel | None, env: Any, options: dict[str, Any]) -> Any:
    """Options: :class:`NextActionOptions`. Compiled once per run: the episode's model (its request
    shaped once per episode) comes from the runtime context."""
    opts = NextActionOptions.model_validate(options)
    pack, request, structured, max_prompt_tokens = (
        opts.prompts,
        opts.request,
        opts.structured,
        opts.max_prompt_tokens,
    )
    fallback = EpisodeContext(model, env)

    def shaped(ctx: EpisodeContext) -> tuple[BaseChatModel, bool]:
        chat = ctx.need_model("shortcuts-next-action")
        if request == "upstream":
            chat = upstream_request(chat)
        return chat, request == "upstream" and provider_style(chat) == GOOGLE_STYLE

    async def propose(state: NextActionState) -> dict[str, Any]:
        model, single_turn = episode(fallback).part("shaped", shaped)
        messages = build_messages(
            state["instruction"],
            state.get("candidates") or {},
            state.get("history") or [],
            pack=pack,
            single_turn=single_turn,
        )
        try:
            step = await propose_next_action(
                model, messages, structured=structured, max_prompt_tokens=max_prompt_tokens
            )
        except PromptTooLong as exc:
            return {"prediction": None, "status": CONTEXT_OVERFLOW, "error": str(exc)}
        except Exception as exc:
            if is_context_error(exc):
                return {
                    "prediction": None,
                    "status": CONTEXT_OVERFLOW,
                    "error": f"{type(exc).__name__}: {exc}"[:1000],
                }
            raise
        return {"prediction": step.model_dump(), "final_answer": str(step.aseq)[:2000], "status": "finished"}

    return _single_node("propose", propose)


def build_replay(model: Any, env: Any, options: dict[str, Any]) -> Any:
    """Returns ``gold["bseqs"][position]``; a position the log never ran is a context overflow."""

    def replay(state: NextActionState) -> dict[str, Any]:
        bseqs = (state.get("gold") or {}).get("bseqs")
        if bseqs is None:
            raise ValueError(
                "the replay agent needs a task from an experiment log (--source experiment_res_*.jsonl)"
            )
        position = int(state.get("position", 0))
        if position >= len(bseqs):
            return {
                "prediction": None,
                "status": CONTEXT_OVERFLOW,
                "error": f"the log stops at action {len(bseqs)}",
            }
        return {"prediction": bseqs[position], "status": "finished"}

    return _single_node("replay", replay)


register_agent(
    "shortcuts-next-action",
    build_next_action,
    env_kind="shortcuts",
    description=(
        "teacher-forced next action: one fresh model call per gold action (-A "
        "prompts=upstream|restgraph, -A structured=0|1, -A request=upstream|as_built, -A "
        "max_prompt_tokens=N)"
    ),
    describe=describe_request,
    options=NextActionOptions,
    per_run=True,
)
register_agent(
    "replay",
    build_replay,
    env_kind="shortcuts",
    needs_model=False,
    needs_gold=True,
    per_run=True,
    description="re-scores the predictions stored in an experiment log (no model)",
)
