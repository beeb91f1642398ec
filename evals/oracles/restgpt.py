"""``scripted:restgpt-oracle``: a task-aware decision policy for every RestGPT-family role.

It knows the task's ``reference_calls`` and ``reference_answer`` (``task.gold``) and plays each
role the way a perfect model would: the planner asks for one reference call per step, the selector
names it with a concrete path, the caller issues it, the parser writes *code* (run in the sandbox)
that prints the values later calls and the answer need, and the planner finally writes the answer.
Values therefore flow only through the graph (parser output -> caller result -> background ->
next prompt), never through the policy's memory: reaching the oracle's score proves the wiring,
the parser path and the executor. The JMESPath parser role (``JMESPath:`` prompts) gets a
multiselect hash that selects the same values. It answers in JSON when the prompt asks for it (structured
output) and in the text protocol otherwise, so both paths are exercised. A prompt from a role it
does not play raises ``UnknownRoleError``: answering it from the gold would let an agent that
never calls the API score as a success.
"""

from __future__ import annotations

import json
import re
from typing import Any

import partial_json_parser
from langchain_core.messages import BaseMessage
from partial_json_parser import Allow

from restgraph.agents.restgpt.llm import message_role
from restgraph.agents.scripted import register_scripted
from restgraph.evals.oracles.errors import UnknownRoleError
from restgraph.tools.trace_schema import Task

_VALUE = re.compile(r"^\[(\d+(?:\.[^\]\s]+)*)\] = (.+)$", re.MULTILINE)
_PLACEHOLDER = re.compile(r"\$\{(\d+)((?:\.[^.}]+)*)\}")
_HINT = "\n(Reply with a JSON object"
_BEGIN = "\nBegin!\n"

CODE = """import json
KEYS = {keys}
def pick(value, parts):
    for part in parts:
        value = value[int(part)] if isinstance(value, list) else value[part]
    return value
print("reference call {number} done")
for key in KEYS:
    try:
        print("[" + key + "] = " + json.dumps(pick(data, key.split(".")[1:])))
    except (KeyError, IndexError, TypeError, ValueError):
        print("[" + key + "] = null")
"""


def _read_json(body: str) -> Any:
    """The JSON a careful reader sees in ``body``, or None when there is none.

    The no-parser ablation shows the model the raw response cut at a token budget, so the text usually
    stops mid-object: a perfect reader still reads every value that is there in full (a half-cut
    string or number is not read), and only what the cut removed is lost. Giving up on any cut body
    (as this oracle did) made the ablation's row the oracle's limitation: TMDB queries whose needed
    value sat in the first lines of a long response failed too.
    """
    try:
        return json.loads(body)
    except json.JSONDecodeError:
        pass
    try:
        return partial_json_parser.loads(body, Allow.ALL & ~Allow.STR & ~Allow.NUM)
    except Exception:  # noqa: BLE001 - whatever the partial parser makes of non-JSON text, it is unreadable
        return None


def jmespath_expression(keys: list[str], number: int) -> str:
    """A JMESPath multiselect hash naming each value the way the parser code prints it
    (``[1.results.0.id]``), so the JMESPath parser's ``name = value`` lines carry the values on."""

    def path(key: str) -> str:
        expr = ""
        for part in key.split(".")[1:]:
            expr += f"[{part}]" if re.fullmatch(r"-?\d+", part) else ("." if expr else "") + json.dumps(part)
        return expr or "@"

    fields = [f"{json.dumps(f'reference call {number}')}: 'done'"]
    fields += [f"{json.dumps(f'[{key}]')}: {path(key)}" for key in keys]
    return "{" + ", ".join(fields) + "}"


def _values(text: str) -> dict[str, Any]:
    out = {}
    for match in _VALUE.finditer(text):
        try:
            out[match.group(1)] = json.loads(match.group(2))
        except json.JSONDecodeError:
            continue
    return out


def _fill(obj: Any, values: dict[str, Any], placeholder: str | None = None) -> Any:
    """Resolve ``${N.a.b}`` from values seen in the prompt (``placeholder`` replaces unknown ones)."""
    if isinstance(obj, str):
        whole = _PLACEHOLDER.fullmatch(obj)
        if whole and f"{whole.group(1)}{whole.group(2)}" in values:
            return values[f"{whole.group(1)}{whole.group(2)}"]

        def one(m: re.Match[str]) -> str:
            key = f"{m.group(1)}{m.group(2)}"
            return str(values[key]) if key in values else (placeholder or m.group(0))

        return _PLACEHOLDER.sub(one, obj)
    if isinstance(obj, dict):
        return {k: _fill(v, values, placeholder) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_fill(v, values, placeholder) for v in obj]
    return obj


#: the roles the oracle plays (each is a ``_<role>`` method)
ROLES = (
    "planner",
    "selector",
    "caller",
    "parser",
    "react",
    "reflect",
    "deps_plan",
    "deps_select",
    "deps_describe",
    "deps_explain",
    "offline_plan",
    "offline_answer",
)


class OraclePolicy:
    upstream = False

    def __init__(self, task: Task | None):
        gold = task.gold if task is not None else {}
        gold = (
            gold.get("reference_template") or gold
        )  # TMDB gives its solutions as templates beside the concrete ones
        self.calls: list[dict[str, Any]] = list(gold.get("reference_calls") or gold.get("calls") or [])
        self.answer: str = str(
            gold.get("reference_answer") or gold.get("answer") or "I could not find the answer."
        )
        refs = json.dumps(self.calls) + self.answer
        self.needed: dict[int, list[str]] = {}
        for m in _PLACEHOLDER.finditer(refs):
            key = f"{m.group(1)}{m.group(2)}"
            self.needed.setdefault(int(m.group(1)), [])
            if key not in self.needed[int(m.group(1))]:
                self.needed[int(m.group(1))].append(key)

    # -- helpers ------------------------------------------------------------------------------
    def step(self, k: int, values: dict[str, Any], *, concrete: bool = True) -> str:
        call = self.calls[k]
        path = _fill(call["path"], values, None if concrete else "{value}")
        return f"{call['method']} {path} to carry out reference call {k + 1}"

    def final(self, values: dict[str, Any]) -> str:
        return str(_fill(self.answer, values, "?"))

    # -- the policy -----------------------------------------------------------------------------
    def __call__(self, messages: list[BaseMessage]) -> str:
        role = message_role(messages)
        system = str(messages[0].content) if messages else ""
        user = str(messages[-1].content) if messages else ""
        as_json = _HINT in user
        user = user.split(_HINT)[0]
        values = _values(user)
        if role not in ROLES:
            raise UnknownRoleError(
                f"scripted:restgpt-oracle does not play the role {role or '(untagged prompt)'!r}; it plays: {', '.join(ROLES)}"
            )
        # The upstream pack sends one completion prompt: its format section and examples come
        # first, the live transcript after the last "Begin!".
        self.upstream = _BEGIN in user
        if role in ("planner", "selector", "caller") and self.upstream:
            user = user.rsplit(_BEGIN, 1)[1]
        reply = getattr(self, f"_{role}")(user=user, system=system, values=values)
        if isinstance(reply, tuple):
            text, obj = reply
            return json.dumps(obj) if as_json else text
        return reply

    def _planner(self, user: str, values: dict[str, Any], **_: Any) -> tuple[str, dict[str, Any]]:
        k = user.count("\nAPI response:")
        if k < len(self.calls):
            text = f"Carry out reference step {k + 1}: {self.step(k, values, concrete=False)}"
            return text, {"kind": "next_step", "text": text}
        answer = self.final(values)
        return f"Thought: done\nFinal Answer: {answer}", {"kind": "final_answer", "text": answer}

    def _selector(self, user: str, values: dict[str, Any], **_: Any) -> tuple[str, dict[str, Any]]:
        query = re.search(r"^User query: (.*)$", user, re.MULTILINE)
        marker = re.search(r"reference step (\d+)", query.group(1) if query else "")
        done = user.count("\nAPI response:")
        if marker:
            if done:
                last = user.rsplit("API response:", 1)[1].split("\nAPI calling")[0].strip()
                return f"No API call needed. {last}", {"kind": "no_api_call", "plan": last}
            k = int(marker.group(1)) - 1
        else:
            k = done
        if k >= len(self.calls):
            answer = self.final(values)
            return f"{'No API call needed.' if self.upstream else 'Final Answer:'} {answer}", {
                "kind": "final_answer",
                "plan": answer,
            }
        plan = self.step(k, values)
        return plan, {"kind": "api_call", "plan": plan}

    def _caller(self, user: str, system: str, values: dict[str, Any], **_: Any) -> tuple[str, dict[str, Any]]:
        if "\nResponse:" in user:
            result = user.rsplit("Response:", 1)[1].rsplit("\nThought:", 1)[0].strip()
            return f"I am finished.\nExecution Result: {result}", {
                "kind": "execution_result",
                "result": result,
            }
        plan = re.search(r"^Plan: .*reference call (\d+)", user, re.MULTILINE)
        k = int(plan.group(1)) - 1 if plan else 0
        base = re.search(r"Base (?:URL|url): (\S+)", system)
        # a value it could not read becomes "unknown": URL-safe, so the call still goes to the planned endpoint (and fails there)
        call = _fill(self.calls[min(k, len(self.calls) - 1)], values, "unknown")
        payload: dict[str, Any] = {
            "url": (base.group(1) if base else "") + call["path"],
            "description": f"reference call {k + 1}",
            "output_instructions": f"reference call {k + 1}: print the values later steps need",
        }
        if call.get("params"):
            payload["params"] = call["params"]
        if call.get("body") is not None:
            payload["data"] = call["body"]
        text = f"Thought: execute reference call {k + 1}\nOperation: {call['method']}\nInput: {json.dumps(payload)}"
        return text, {
            "kind": "operation",
            "thought": f"reference call {k + 1}",
            "method": call["method"],
            "params": payload.get("params"),
            "data": payload.get("data"),
            "url": payload["url"],
            "description": payload["description"],
            "output_instructions": payload["output_instructions"],
        }

    def _parser(self, user: str, values: dict[str, Any], **_: Any) -> Any:
        k_match = re.search(r"reference call (\d+)", user)
        k = int(k_match.group(1)) - 1 if k_match else 0
        if user.rstrip().endswith(
            "JMESPath:"
        ):  # the JMESPath parser role (agents/restgpt/jmespath_parser.py)
            expr = jmespath_expression(self.needed.get(k, []), k + 1)
            return expr, {"expression": expr}
        if user.rstrip().endswith("Code:"):
            code = CODE.format(keys=json.dumps(self.needed.get(k, [])), number=k + 1)
            return f"```python\n{code}```", {"code": code}
        if user.rstrip().endswith("Rewritten:"):
            return user.split("Text:", 1)[-1].rsplit("Rewritten:", 1)[0].strip()
        if (
            self.upstream and "\nInput: " in user and user.rstrip().endswith("Output:")
        ):  # upstream POSTPROCESS
            return user.rsplit("\nInput: ", 1)[1].rsplit("\nOutput:", 1)[0].strip()
        if "\nJSON response:\n" in user:  # upstream LLM_PARSING / LLM_SUMMARIZE
            body = user.split("\nJSON response:\n", 1)[1].split("\n\nThe response is about", 1)[0].strip()
        else:
            body = user.split("Response:", 1)[-1].rsplit("\nAnswer:", 1)[0].strip()
        lines = [f"reference call {k + 1} done"]
        data = _read_json(body)
        if data is None:
            return lines[0] + " (the response was cut; values not readable)"
        for key in self.needed.get(k, []):
            value: Any = data
            try:
                for part in key.split(".")[1:]:
                    value = value[int(part)] if isinstance(value, list) else value[part]
            except (KeyError, IndexError, TypeError, ValueError):
                value = None
            lines.append(f"[{key}] = {json.dumps(value)}")
        return "\n".join(lines)

    # -- baselines ------------------------------------------------------------------------------
    def _reflect(self, **_: Any) -> tuple[str, dict[str, Any]]:
        return "Verdict: SUCCESS\nReflection: the reference calls were made.", {
            "success": True,
            "reflection": "the reference calls were made.",
        }

    @staticmethod
    def _done(user: str) -> int:
        section = (
            user.split("Done so far:", 1)[-1].split("\nCurrent plan:", 1)[0].split("\nRemaining plan:", 1)[0]
        )
        return sum(1 for line in section.splitlines() if line.startswith("- "))

    def _deps_plan(self, user: str, values: dict[str, Any], **_: Any) -> tuple[str, dict[str, Any]]:
        k = self._done(user)
        steps = [self.step(i, values, concrete=False) for i in range(k, len(self.calls))] or [
            f"Final Answer: {self.final(values)}"
        ]
        return "\n".join(steps), {"steps": steps}

    def _deps_select(self, user: str, values: dict[str, Any], **_: Any) -> tuple[str, dict[str, Any]]:
        k = self._done(user)
        if k < len(self.calls):
            action = self.step(k, values)
            return action, {"kind": "action", "action": action}
        answer = self.final(values)
        return f"Final Answer: {answer}", {"kind": "final_answer", "answer": answer}

    def _deps_describe(self, user: str, **_: Any) -> str:
        return (
            user.split("Executor report:", 1)[-1]
            .rsplit("\nDescription:", 1)[0]
            .strip()
            .replace("\n", " ; ")
            .replace(" ; [", "\n[")
        )

    def _deps_explain(self, **_: Any) -> str:
        return "The step did not return what was expected; retry it with the values found so far."

    def _offline_plan(self, values: dict[str, Any], **_: Any) -> tuple[str, dict[str, Any]]:
        steps = [self.step(i, values, concrete=False) for i in range(len(self.calls))]
        return "\n".join(steps), {"steps": steps}

    def _offline_answer(self, values: dict[str, Any], **_: Any) -> str:
        return self.final(values)


def _factory(task: Task | None, params: dict[str, str]) -> OraclePolicy:
    return OraclePolicy(task)


register_scripted("restgpt-oracle", _factory)
