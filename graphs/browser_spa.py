"""SeePlanAct (``spa``) and SeeAct (``seeact``): the AssistantBench paper's browsing agents.

One graph node per SeePlanAct step, looping until the model terminates, the step limit (30) or
the no-op limit (2 consecutive steps without an executable operation) is reached, or the page has
no interactive element. Each step (``restgraph.agents.browser.seeplanact_*``): extract the interactive
elements and take the cropped screenshot; call the model with SPA's system prompt and the
step's question (task, previous actions, original plan, history, refined plan) plus the
screenshot; update the plan and memory from its reply; call it again with its reply and the
multiple-choice grounding prompt; parse ``ELEMENT / ACTION / VALUE`` and run the operation.

``seeact`` is the same loop with SeeAct's online prompts from the same upstream file and no plan
or memory. SeeAct has no answer protocol (the paper read its answers from the model's thoughts by
hand); ``answer_instruction=1`` (default) appends SPA's "Task answer:" sentences to its question,
``0`` keeps SeeAct's text as is (it then answers only if the model volunteers "Task answer:").

The answer is the latest ``Task answer:`` the model wrote (``restgraph.agents.browser.seeplanact_parse``).
Status: ``finished`` when the model terminated (or the page had no elements), ``budget_exhausted``
at the step or no-op limit (the answer written so far is still reported), so an ``X->cb``
ensemble falls back on any limit.

Agent options (``-A k=v``): ``max_op`` (30), ``max_continuous_no_op`` (2: the paper's config;
upstream's script hard-codes 3, with which the limit can never trigger), ``screenshot``
(``auto``: an image when the model's profile says it takes images, else ``text``; ``image``;
``text``: the text rendering of ``restgraph.agents.browser.seeplanact_observe``), ``goto_urls``
(``upstream`` | ``resolve``), ``answer_instruction`` (seeact only).
"""

from __future__ import annotations

import time
from typing import Any, Literal, NotRequired, TypedDict

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command
from pydantic import Field

from restgraph.agents.browser.seeplanact_act import Resolved, execute, resolve
from restgraph.agents.browser.seeplanact_observe import TEXT_RENDERING_HEADER, observe
from restgraph.agents.browser.seeplanact_parse import (
    history_entry,
    original_plan,
    parse_grounding,
    refined_plan,
    task_answer,
)
from restgraph.agents.browser.seeplanact_prompt import build_prompt
from restgraph.agents.browser.seeplanact_source import COMMIT, FORMAT_FILE, PROMPTS_FILE, REPO, load_texts
from restgraph.graphs.registry import register_agent
from restgraph.tools.browser.env import BrowserEnv
from restgraph.tools.events import parse_outcome
from restgraph.tools.options import Options

LIMIT_OUTCOMES = ("budget", "noop_limit")


class SeePlanActState(TypedDict):
    instruction: str
    task_id: NotRequired[str]
    taken_actions: NotRequired[list[str]]
    original_plan: NotRequired[str | None]
    history: NotRequired[str]
    refined_plan: NotRequired[str | None]
    time_step: NotRequired[int]
    no_op_count: NotRequired[int]
    #: the latest "Task answer:" the model wrote (None: never)
    answer: NotRequired[str | None]
    final_answer: NotRequired[str | None]
    status: NotRequired[str]
    error: NotRequired[str | None]
    answer_source: NotRequired[str]
    #: terminated | no_elements | budget | noop_limit
    browse_outcome: NotRequired[str]
    screenshot_mode: NotRequired[str]


class SeePlanActOptions(Options):
    max_op: int = Field(30, ge=1, description="steps per episode (the paper's limit: 30)")
    max_continuous_no_op: int = Field(
        2,
        ge=1,
        description="consecutive steps without an executable operation before stopping (paper config: 2)",
    )
    screenshot: Literal["auto", "image", "text"] = Field(
        "auto",
        description="image: the screenshot as an image block; text: a text rendering instead; auto: by the model's profile",
    )
    goto_urls: Literal["upstream", "resolve"] = Field(
        "upstream",
        description="upstream: prefix https://www. as SeePlanAct does; resolve: absolute URLs as given, /paths against the page",
    )


class SeeActOptions(SeePlanActOptions):
    answer_instruction: bool = Field(
        True,
        description="append SPA's 'Task answer:' instruction to SeeAct's question (SeeAct has no answer protocol)",
    )


def wants_image(model: BaseChatModel, mode: str) -> bool:
    if mode != "auto":
        return mode == "image"
    profile = getattr(model, "profile", None)
    return bool(isinstance(profile, dict) and profile.get("image_inputs"))


def _text(reply: Any) -> str:
    content = reply.content
    if isinstance(content, str):
        return content
    return "".join(b.get("text", "") if isinstance(b, dict) else str(b) for b in content)


def build_seeplanact(
    model: BaseChatModel | None, env: Any, options: dict[str, Any], *, planning: bool = True
) -> Any:
    name = "spa" if planning else "seeact"
    if model is None:
        raise ValueError(f"the {name} agent needs a model")
    if not isinstance(env, BrowserEnv):
        raise ValueError(f"the {name} agent needs a BrowserEnv, got {type(env).__name__}")
    opts = (SeePlanActOptions if planning else SeeActOptions).model_validate(options)
    texts = load_texts()
    image = wants_image(model, opts.screenshot)
    instruct = bool(getattr(opts, "answer_instruction", False))
    env.max_steps = opts.max_op

    async def step(state: SeePlanActState) -> Command[Literal["step", "finish"]]:
        session = await env.session()
        session.max_steps = opts.max_op
        t = state.get("time_step", 0) + 1
        view = await observe(session, image=image, step=t)
        update: dict[str, Any] = {"time_step": t, "screenshot_mode": "image" if image else "text"}
        if not view.elements:
            return Command(
                goto="finish",
                update={
                    **update,
                    "browse_outcome": "no_elements",
                    "error": "no interactive element on the page",
                },
            )
        taken = state.get("taken_actions", [])
        plan, history, refined = (
            state.get("original_plan"),
            state.get("history", ""),
            state.get("refined_plan"),
        )
        resolved, grounding = Resolved(None), None
        if view.screenshot_error is None:
            prompt = build_prompt(
                texts,
                planning=planning,
                task=state["instruction"],
                previous=taken,
                choices=view.choices,
                original_plan=plan,
                history=history,
                refined_plan=refined,
                with_answer_instruction=instruct,
            )
            first = [
                SystemMessage(prompt[0]),
                HumanMessage(content=[{"type": "text", "text": prompt[1]}, view.image_block()]),
            ]
            reply0 = await model.ainvoke(first)
            output0 = _text(reply0)
            if planning:
                if plan is not None:
                    refined = refined_plan(output0)
                if plan is None:
                    plan = original_plan(output0)
                history = (history + history_entry(output0, t)).strip()
            answer = task_answer(output0)
            if answer is not None:
                update["answer"] = answer
            parse_outcome(
                reply0,
                parsed={"task_answer": answer, "refined_plan": refined},
                role="seeplanact_plan" if planning else "seeact_plan",
            )
            reply1 = await model.ainvoke([*first, AIMessage(f"\n\n{output0}"), HumanMessage(prompt[2])])
            grounding = parse_grounding(_text(reply1))
            resolved = resolve(grounding, view)
            parse_outcome(
                reply1,
                parsed={
                    "element": grounding.element,
                    "action": grounding.action,
                    "value": grounding.value,
                    "resolved": resolved.kind,
                },
                role="grounding",
            )
        update.update({"original_plan": plan, "history": history, "refined_plan": refined})
        no_op = state.get("no_op_count", 0) + (1 if resolved.kind is None else 0)
        stop: tuple[str, str | None] | None = None
        if no_op >= opts.max_continuous_no_op:
            stop = ("noop_limit", f"no executable operations for {opts.max_continuous_no_op} times.")
        elif t >= opts.max_op:
            stop = ("budget", f"the agent reached the step limit {opts.max_op}.")
        elif resolved.kind is not None and resolved.action == "TERMINATE":
            stop = ("terminated", None)
        details = {
            "observe_s": round(view.seconds, 6),
            **view.size(),
            "screenshot_mode": update["screenshot_mode"],
        }
        params = (
            {"element": grounding.element, "action": grounding.action, "value": grounding.value}
            if grounding
            else {"screenshot_error": view.screenshot_error}
        )
        observation = "\n".join(f"{c[0]}: {c[1]}" for c in view.choices)
        if stop is not None:
            session.record(
                "stop",
                params,
                error=stop[1],
                observation=observation,
                latency=view.seconds,
                details={**details, "act_s": 0.0},
            )
            return Command(
                goto="finish",
                update={**update, "no_op_count": no_op, "browse_outcome": stop[0], "error": stop[1]},
            )
        started = time.perf_counter()
        line, was_noop = await execute(session, resolved, goto_urls=opts.goto_urls)
        act_s = time.perf_counter() - started
        session.record(
            resolved.kind.lower() if resolved.kind else "none",
            params,
            error=None if not line.startswith("Failed") else line,
            observation=observation,
            latency=view.seconds + act_s,
            details={**details, "act_s": round(act_s, 6), "history_line": line},
        )
        return Command(
            goto="step",
            update={**update, "taken_actions": [*taken, line], "no_op_count": 1 if was_noop else 0},
        )

    async def finish(state: SeePlanActState) -> dict[str, Any]:
        answer = state.get("answer") or ""
        limited = state.get("browse_outcome") in LIMIT_OUTCOMES
        return {
            "final_answer": answer,
            "status": "budget_exhausted" if limited else "finished",
            "answer_source": "browser" if answer else "none",
        }

    graph = StateGraph(SeePlanActState)
    graph.add_node("step", step)
    graph.add_node("finish", finish)
    graph.add_edge(START, "step")
    graph.add_edge("finish", END)
    return graph.compile()


def build_seeact(model: BaseChatModel | None, env: Any, options: dict[str, Any]) -> Any:
    return build_seeplanact(model, env, options, planning=False)


def step_budget(options: dict[str, Any]) -> int:
    return int(options.get("max_op", 30)) + 4


def describe(options: dict[str, Any], model_spec: str, model_options: dict[str, Any]) -> dict[str, Any]:
    return {
        "prompts": f"{REPO}@{COMMIT}: {PROMPTS_FILE.name} ({PROMPTS_FILE.sha256}), {FORMAT_FILE.name} ({FORMAT_FILE.sha256})",
        "screenshot_text_rendering": f"screenshot=text replaces the image with '{TEXT_RENDERING_HEADER}' + the compacted aria snapshot",
        "substitutions": "SEARCH opens the configured search engine's results page (offline: the fixture's) instead of typing into google.com; "
        "post-action pause BrowserConfig.settle_s instead of 3 s; no Google region/language setup page",
    }


register_agent(
    "spa",
    build_seeplanact,
    env_kind="browser",
    description="SeePlanAct (AssistantBench paper): screenshot, plan, memory, multiple-choice grounding",
    options=SeePlanActOptions,
    step_budget=step_budget,
    describe=describe,
)
register_agent(
    "seeact",
    build_seeact,
    env_kind="browser",
    description="SeeAct as run in the AssistantBench paper: SPA without planning and memory",
    options=SeeActOptions,
    step_budget=step_budget,
    describe=describe,
)
