"""Reading model output the way the original code read it (``model/*.py``), for the upstream pack.

Routing is upstream's: case-sensitive substrings ``Continue`` (checked first) and ``Final Answer``
on the planner's text after every ``Plan step n: `` is removed; ``No API call needed.`` only at the
start of the selector's text after every ``API calling n: `` is removed; the caller's
``Execution Result:`` anywhere, else ``Operation: ... Input: {...}``. The texts stored for later
prompts are upstream's (the whole stripped plan, the whole API plan), so later prompts match.
What upstream did with malformed output (raise and end the run) becomes a recorded parse error.
"""

from __future__ import annotations

import json
import re

from restgraph.agents.parsing import ParseError, extract_json_object
from restgraph.agents.restgpt.protocol import CallerDecision, PlannerDecision, SelectorDecision

_VERBS = ("GET", "POST", "DELETE", "PUT")


def parse_planner(text: str) -> PlannerDecision:
    plan = re.sub(r"Plan step \d+: ", "", text).strip()
    if not plan:
        raise ParseError("empty planner output")
    if re.search("Continue", plan):
        return PlannerDecision(kind="continue", text=plan)
    if re.search("Final Answer", plan):
        return PlannerDecision(
            kind="final_answer", text=plan.split("Final Answer", 1)[1].lstrip(":").strip() or plan
        )
    return PlannerDecision(kind="next_step", text=plan)


def parse_selector(text: str) -> SelectorDecision:
    api_plan = re.sub(r"API calling \d+: ", "", text).strip()
    finished = re.match(r"No API call needed.(.*)", api_plan)
    if finished:
        return SelectorDecision(kind="no_api_call", plan=finished.group(1), text=api_plan)
    if not api_plan:
        raise ParseError("empty selector output")
    return SelectorDecision(kind="api_call", plan=api_plan, text=api_plan)


def _payload(action_input: str) -> dict:
    text = action_input.strip().strip('"').strip(",").strip("`")
    start, end = text.find("{"), text.rfind("}")
    try:
        payload = json.loads(text[start : end + 1]) if start >= 0 else None
    except json.JSONDecodeError:
        payload = None
    if payload is None:
        payload = extract_json_object(text)  # upstream's fix_json_error repaired missing commas; so does this
    if not isinstance(payload, dict) or not isinstance(payload.get("url"), str):
        raise ParseError("the Input JSON needs a 'url'")
    return payload


def parse_caller(text: str) -> CallerDecision:
    if "Execution Result:" in text:
        return CallerDecision(kind="execution_result", result=text.split("Execution Result:")[-1].strip())
    match = re.search(r"Operation:[\s]*(.*?)[\n]*Input:[\s]*(.*)", text, re.DOTALL)
    if not match:
        raise ParseError(f"Could not parse LLM output: `{text[:300]}`")
    action = match.group(1).strip()
    if action not in _VERBS:
        raise ParseError(f"unsupported operation {action!r}; use one of {', '.join(_VERBS)}")
    payload = _payload(match.group(2))
    return CallerDecision(
        kind="operation",
        thought=text[: match.start()].strip(),
        method=action,
        url=payload["url"],
        params=payload.get("params"),
        data=payload.get("data") if action != "GET" else None,
        description=str(payload.get("description", "No description")),
        output_instructions=payload.get("output_instructions"),
    )
