"""The roles' decisions: pydantic schemas (structured output) and text-protocol parsers.

The text parsers accept what small and chat models actually write: ``Plan step 3:`` / ``API
calling 2:`` prefixes, markdown bold, any letter case for ``Continue`` / ``Final Answer`` /
``No API call needed.``, fenced or bare JSON after ``Input:``, and trailing punctuation after a
path. Routing never depends on a case-sensitive substring (restbench.md §4 defect 13).
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from pydantic import BaseModel, Field

from restgraph.agents.parsing import ParseError, extract_json_object, strip_fences

_PREFIX = re.compile(r"^\s*(?:plan step|api calling|step)\s*\d*\s*[:.)-]\s*", re.IGNORECASE)
_FINAL = re.compile(r"final\s+answer\s*[:：]?\s*", re.IGNORECASE)
_NO_API = re.compile(r"no\s+api\s+call\s+needed\.?\s*", re.IGNORECASE)
_CONTINUE = re.compile(r"^\s*continue\b", re.IGNORECASE)
_CALL = re.compile(r"\b(GET|POST|PUT|PATCH|DELETE)\s+(/[^\s?]*)", re.IGNORECASE)
_OPERATION = re.compile(r"operation\s*:\s*\**\s*([A-Za-z]+)", re.IGNORECASE)
_EXEC_RESULT = re.compile(r"execution\s+result\s*:\s*", re.IGNORECASE)


def _clean(text: str) -> str:
    text = text.replace("**", "").strip()
    return _PREFIX.sub("", text, count=1).strip()


class PlannerDecision(BaseModel):
    """``next_step``: a new natural-language sub-task; ``continue``: the current one is unfinished;
    ``final_answer``: the query is fulfilled and ``text`` is the answer."""

    kind: Literal["next_step", "continue", "final_answer"]
    text: str = Field(description="the sub-task, the Continue instruction, or the final answer")


def looks_like_prose(text: str) -> bool:
    """False for output that is clearly not a natural-language step: JSON debris, fences, special tokens."""
    stripped = text.strip()
    if not stripped or stripped[0] in "{}[]`" or "<|" in stripped:
        return False
    return len(re.findall(r"[A-Za-z]{2,}", stripped)) >= 2


def parse_planner(text: str) -> PlannerDecision:
    text = _clean(text)
    if not text:
        raise ParseError("empty planner output")
    if not looks_like_prose(text):
        raise ParseError(f"planner output is not a step, Continue or Final Answer: {text[:200]!r}")
    final = _FINAL.search(text)
    if final:
        return PlannerDecision(kind="final_answer", text=text[final.end() :].strip())
    if _CONTINUE.match(text):
        return PlannerDecision(kind="continue", text=text)
    return PlannerDecision(
        kind="next_step", text=text.split("\n")[0].strip() if "\n" in text and len(text) > 400 else text
    )


class SelectorDecision(BaseModel):
    """``api_call``: ``plan`` is one line ``METHOD /concrete/path ... purpose``; ``no_api_call``: ``plan``
    is the answer read from the background; ``final_answer`` (only without a planner): the query's answer."""

    kind: Literal["api_call", "no_api_call", "final_answer"]
    plan: str
    #: the selector's whole routed output, when it differs from ``plan`` (upstream keeps it in its history)
    text: str = ""


def parse_selector(text: str) -> SelectorDecision:
    text = _clean(text)
    if not text:
        raise ParseError("empty selector output")
    no_api = _NO_API.search(text)
    if no_api:
        return SelectorDecision(kind="no_api_call", plan=text[no_api.end() :].strip())
    final = _FINAL.search(text)
    if final and not _CALL.search(text[: final.start()]):
        return SelectorDecision(kind="final_answer", plan=text[final.end() :].strip())
    call = _CALL.search(text)
    if call:
        line = text[call.start() :].split("\n")[0].strip()
        return SelectorDecision(kind="api_call", plan=line)
    raise ParseError(
        f"no 'METHOD /path', 'No API call needed.' or 'Final Answer:' in selector output: {text[:200]!r}"
    )


def call_start(text: str) -> int | None:
    """Where the first 'METHOD /path' starts in ``text`` (None if there is none)."""
    call = _CALL.search(text)
    return call.start() if call else None


def endpoint_in_plan(plan: str) -> tuple[str, str] | None:
    """The (METHOD, path) an API plan names, path stripped of query and trailing punctuation."""
    call = _CALL.search(plan)
    if not call:
        return None
    return call.group(1).upper(), call.group(2).rstrip(".,;:)'\"`")


class CallerDecision(BaseModel):
    """``operation``: one HTTP request; ``execution_result``: the API plan is done, ``result`` says
    what was found (with the API that was called)."""

    kind: Literal["operation", "execution_result"]
    thought: str = ""
    method: str | None = None
    url: str | None = None
    params: dict[str, Any] | None = None
    data: dict[str, Any] | None = None
    description: str = ""
    #: None when the model gave none (upstream then reads the whole JSON with the LLM)
    output_instructions: str | None = ""
    result: str = ""


def parse_caller(text: str) -> CallerDecision:
    text = text.replace("**", "")
    if not text.strip():
        raise ParseError("empty caller output")
    result = _EXEC_RESULT.search(text)
    op = _OPERATION.search(text)
    if result and (op is None or result.start() < op.start()):
        return CallerDecision(kind="execution_result", result=text[result.end() :].strip())
    if op is None:
        raise ParseError(f"neither 'Operation:' nor 'Execution Result:' in caller output: {text[:200]!r}")
    thought = text[: op.start()].replace("Thought:", "").strip()
    after = text[op.end() :]
    try:
        payload = extract_json_object(after)
    except ParseError as exc:
        raise ParseError(f"'Input:' after 'Operation: {op.group(1)}' is not a JSON object: {exc}") from exc
    return decision_from_input(op.group(1), payload, thought)


def decision_from_input(method: str, payload: dict[str, Any], thought: str = "") -> CallerDecision:
    if not isinstance(payload.get("url"), str) or not payload["url"].strip():
        raise ParseError("the Input JSON needs a 'url'")
    params = payload.get("params")
    data = payload.get("data", payload.get("body"))
    if params is not None and not isinstance(params, dict):
        raise ParseError("'params' must be a JSON object")
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as exc:
            raise ParseError("'data' must be a JSON object") from exc
    return CallerDecision(
        kind="operation",
        thought=thought,
        method=method.upper(),
        url=payload["url"].strip(),
        params=params,
        data=data,
        description=str(payload.get("description", "")),
        output_instructions=str(payload.get("output_instructions", "")),
    )


class ParserCode(BaseModel):
    """Python over ``data`` (the parsed JSON response) that prints the requested information."""

    code: str


def parse_code(text: str) -> ParserCode:
    code = strip_fences(text)
    if not code.strip():
        raise ParseError("no code in parser output")
    if "print" not in code:
        raise ParseError("the parser code prints nothing")
    return ParserCode(code=code)


class StepList(BaseModel):
    """Offline planner / DEPS planner: the remaining API plan, one ``METHOD /path purpose`` per step."""

    steps: list[str]


def parse_steps(text: str) -> StepList:
    steps = []
    for line in text.splitlines():
        line = _clean(re.sub(r"^\s*(?:\d+[.)]|[-*])\s*", "", line))
        if _CALL.search(line) or _FINAL.search(line):
            steps.append(line)
    if not steps:
        raise ParseError(f"no 'METHOD /path' step in plan: {text[:200]!r}")
    return StepList(steps=steps)


class Reflection(BaseModel):
    """Reflexion's self-evaluation of a finished trial and the lesson for the next one."""

    success: bool
    reflection: str = ""


def parse_reflection(text: str) -> Reflection:
    clean = text.strip()
    if not clean:
        raise ParseError("empty reflection")
    verdict = re.search(r"\b(success|succeeded|failure|failed)\b", clean, re.IGNORECASE)
    if verdict is None:
        raise ParseError("the reflection must say SUCCESS or FAILURE")
    ok = verdict.group(1).lower().startswith("succ")
    lesson = re.split(r"reflection\s*:\s*", clean, flags=re.IGNORECASE)
    return Reflection(success=ok, reflection=(lesson[1] if len(lesson) > 1 else clean).strip())
