"""SeePlanAct's prompt texts, read at run time from the upstream files (never pasted here).

Two files of SeePlanAct (``oriyor/assistantbench``, ``SeePlanAct/src/data_utils/``, OpenRAIL-S) are
resolved through ``restgraph.tools.datafiles``: ``$RESTGRAPH_DATA_DIR/assistantbench/upstream/SeePlanAct/...``
first, else a download at ``COMMIT`` checked against the sha256 of the shared copy. The commit is
the one whose ``prompts.py`` the public index holds with the shared copy's length; the sha256 pins
are those of the shared copy (``format_prompt_utils.py`` was not in the index at that commit, so
its pin is the shared copy's digest only).

Both files are parsed with ``ast``, never imported:

- ``prompts.py``: SPA's system prompt and question description (the two string assignments in
  ``generate_prompt``'s ``"SeeAct"`` branch), SeeAct's online system prompt and question
  description (module constants), and ``seeact_choice_prompt_dict``'s referring description,
  element / action / value formats (both agents use these for the grounding call);
- ``format_prompt_utils.py``: what ``generate_new_query_prompt`` adds around the task (the
  ``query_text +=`` literals, the ``Previous Actions:`` header) and the ``.replace`` chains it
  applies on the first step / with a plan / with or without a refined plan, and the f-strings of
  ``format_options`` (one line per choice, the four extra options, the introduction sentence).

f-strings are kept as parts (literal text and the source of each ``{expression}``) and rendered
by ``render(parts, {expression source: value})``. A changed upstream raises
``UpstreamPromptError`` naming what is missing.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cache
from typing import Any

from restgraph.tools.datafiles import DataFile, resolve

BENCH = "assistantbench"
REPO = "oriyor/assistantbench"
COMMIT = "64846ab8a41d372513cf22c19196803711388976"
_RAW = f"https://raw.githubusercontent.com/{REPO}/{COMMIT}/SeePlanAct/src/data_utils"
PROMPTS_FILE = DataFile(
    BENCH,
    "upstream/SeePlanAct/src/data_utils/prompts.py",
    f"{_RAW}/prompts.py",
    "17c6732d1b7c238eaf8543cfe7838e58037c86f704fc123f09d560f33029d7ea",
)
FORMAT_FILE = DataFile(
    BENCH,
    "upstream/SeePlanAct/src/data_utils/format_prompt_utils.py",
    f"{_RAW}/format_prompt_utils.py",
    "dccd1f5d487169d8a216ed1fd495ddff13227a8f7006c101df8dd291256a1aa0",
)

#: an f-string as parts: literal text, or ``Slot(source of the expression)``
Parts = tuple["str | Slot", ...]


class UpstreamPromptError(ValueError):
    """The upstream files do not have the shape this reader knows (a changed upstream)."""


@dataclass(frozen=True)
class Slot:
    source: str


def render(parts: Parts, values: dict[str, Any]) -> str:
    """Fill an f-string's parts; ``values`` maps each ``{expression}``'s source to its value."""
    return "".join(p if isinstance(p, str) else str(values[p.source]) for p in parts)


def _parts(node: ast.expr, where: str) -> Parts:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return (node.value,)
    if isinstance(node, ast.JoinedStr):
        out: list[str | Slot] = []
        for value in node.values:
            if isinstance(value, ast.Constant):
                out.append(str(value.value))
            elif isinstance(value, ast.FormattedValue):
                out.append(Slot(ast.unparse(value.value)))
        return tuple(out)
    raise UpstreamPromptError(f"{where}: expected a string or f-string, found {ast.unparse(node)[:80]}")


def _literal(parts: Parts, where: str) -> str:
    if any(isinstance(p, Slot) for p in parts):
        raise UpstreamPromptError(f"{where}: expected plain text, found placeholders")
    return "".join(str(p) for p in parts)


def _function(tree: ast.Module, name: str, file: str) -> ast.FunctionDef:
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return node
    raise UpstreamPromptError(f"{file}: no function {name}()")


def _replace_chain(node: ast.expr, where: str) -> tuple[tuple[Parts, Parts], ...]:
    """``x.replace(a, b).replace(c, d)`` -> ((a, b), (c, d)) in the order they apply."""
    pairs = []
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "replace":
        pairs.append((_parts(node.args[0], where), _parts(node.args[1], where)))
        node = node.func.value
    if not pairs:
        raise UpstreamPromptError(f"{where}: expected a chain of .replace() calls")
    return tuple(reversed(pairs))


def _augassigns(func: ast.FunctionDef, target: str) -> list[ast.expr]:
    return [
        n.value
        for n in ast.walk(func)
        if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and n.target.id == target
    ]


def _ordered_augassigns(func: ast.FunctionDef, target: str) -> list[ast.expr]:
    return sorted(_augassigns(func, target), key=lambda n: (n.lineno, n.col_offset))


@dataclass(frozen=True)
class QueryTexts:
    """What ``generate_new_query_prompt`` puts around the task and how it edits the description."""

    intro: str
    after_task: str
    previous_header: str
    after_action: str
    after_previous: str
    #: ``original_plan is None``: replacements applied (else branch: with the plan and history)
    first_step: tuple[tuple[Parts, Parts], ...]
    with_plan: tuple[tuple[Parts, Parts], ...]
    #: ``refined_plan is None`` / otherwise
    no_refined: tuple[tuple[Parts, Parts], ...]
    with_refined: tuple[tuple[Parts, Parts], ...]


@dataclass(frozen=True)
class OptionTexts:
    """The f-strings of ``format_options``."""

    choice_line: Parts
    extra_lines: tuple[Parts, ...]
    intro: Parts
    after_options: str


@dataclass(frozen=True)
class SeePlanActTexts:
    spa_system: str
    spa_question: str
    seeact_system: str
    seeact_question: str
    referring: str
    element_format: str
    action_format: str
    value_format: str
    query: QueryTexts
    options: OptionTexts


def _if_branches(func: ast.FunctionDef, variable: str, where: str) -> tuple[list[ast.stmt], list[ast.stmt]]:
    """The body and else-body of ``if <variable> is None:``."""
    for node in ast.walk(func):
        if (
            isinstance(node, ast.If)
            and isinstance(node.test, ast.Compare)
            and isinstance(node.test.left, ast.Name)
            and node.test.left.id == variable
            and isinstance(node.test.ops[0], ast.Is)
        ):
            return node.body, node.orelse
    raise UpstreamPromptError(f"{where}: no `if {variable} is None` branch")


def _chain_in(body: list[ast.stmt], where: str) -> tuple[tuple[Parts, Parts], ...]:
    for stmt in body:
        if isinstance(stmt, ast.Assign):
            return _replace_chain(stmt.value, where)
    raise UpstreamPromptError(f"{where}: no assignment in the branch")


def _query_texts(tree: ast.Module) -> QueryTexts:
    where = "format_prompt_utils.generate_new_query_prompt"
    func = _function(tree, "generate_new_query_prompt", "format_prompt_utils.py")
    adds = [_parts(v, where) for v in _ordered_augassigns(func, "query_text") if isinstance(v, ast.Constant)]
    prev_adds = [
        _parts(v, where)
        for v in _ordered_augassigns(func, "previous_action_text")
        if isinstance(v, ast.Constant)
    ]
    header = next(
        (
            n.value
            for n in ast.walk(func)
            if isinstance(n, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "previous_action_text" for t in n.targets)
        ),
        None,
    )
    if len(adds) < 3 or not prev_adds or header is None:
        raise UpstreamPromptError(f"{where}: the literal parts around the task changed")
    plan_if, plan_else = _if_branches(func, "original_plan", where)
    refined_if, refined_else = _if_branches(func, "refined_plan", where)
    return QueryTexts(
        intro=_literal(adds[0], where),
        after_task=_literal(adds[1], where),
        previous_header=_literal(_parts(header, where), where),
        after_action=_literal(prev_adds[0], where),
        after_previous=_literal(adds[2], where),
        first_step=_chain_in(plan_if, where),
        with_plan=_chain_in(plan_else, where),
        no_refined=_chain_in(refined_if, where),
        with_refined=_chain_in(refined_else, where),
    )


def _option_texts(tree: ast.Module) -> OptionTexts:
    where = "format_prompt_utils.format_options"
    func = _function(tree, "format_options", "format_prompt_utils.py")
    lines = [_parts(v, where) for v in _ordered_augassigns(func, "multi_choice")]
    option_adds = _ordered_augassigns(func, "option_text")
    intro = [v for v in option_adds if isinstance(v, ast.JoinedStr)]
    tail = [v for v in option_adds if isinstance(v, ast.BinOp) and isinstance(v.right, ast.Constant)]
    if len(lines) < 2 or not intro or not tail:
        raise UpstreamPromptError(f"{where}: the option f-strings changed")
    assert isinstance(tail[0], ast.BinOp) and isinstance(tail[0].right, ast.Constant)
    return OptionTexts(
        choice_line=lines[0],
        extra_lines=tuple(lines[1:]),
        intro=_parts(intro[0], where),
        after_options=str(tail[0].right.value),
    )


def _module_strings(tree: ast.Module) -> tuple[dict[str, str], dict[str, dict[str, Parts]]]:
    strings: dict[str, str] = {}
    dicts: dict[str, dict[str, Parts]] = {}
    for node in tree.body:
        if not (
            isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
        ):
            continue
        name = node.targets[0].id
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            strings[name] = node.value.value
        elif isinstance(node.value, ast.Dict):
            dicts[name] = {
                str(k.value): _parts(v, f"prompts.{name}")
                for k, v in zip(node.value.keys, node.value.values, strict=True)
                if isinstance(k, ast.Constant) and isinstance(v, ast.Constant | ast.JoinedStr)
            }
    return strings, dicts


def _spa_branch(tree: ast.Module) -> dict[str, str]:
    """The string assignments of ``generate_prompt``'s branch for the ``"SeeAct"`` split."""
    func = _function(tree, "generate_prompt", "prompts.py")
    for node in ast.walk(func):
        if (
            isinstance(node, ast.If)
            and isinstance(node.test, ast.Compare)
            and isinstance(node.test.comparators[0], ast.List)
        ):
            options = [e.value for e in node.test.comparators[0].elts if isinstance(e, ast.Constant)]
            if "SeeAct" in options:
                return {
                    t.id: s.value.value
                    for s in node.body
                    if isinstance(s, ast.Assign) and isinstance(s.value, ast.Constant)
                    for t in s.targets
                    if isinstance(t, ast.Name) and isinstance(s.value.value, str)
                }
    raise UpstreamPromptError("prompts.generate_prompt: no branch for the 'SeeAct' split")


@cache
def load_texts() -> SeePlanActTexts:
    prompts_tree = ast.parse(resolve(PROMPTS_FILE).read_text(encoding="utf-8"), filename="prompts.py")
    format_tree = ast.parse(
        resolve(FORMAT_FILE).read_text(encoding="utf-8"), filename="format_prompt_utils.py"
    )
    strings, dicts = _module_strings(prompts_tree)
    spa = _spa_branch(prompts_tree)
    choice = dicts.get("seeact_choice_prompt_dict")
    needed = ("seeact_online_sys_prompt", "seeact_online_question_description_new_exp4")
    if (
        choice is None
        or any(n not in strings for n in needed)
        or not {"system_prompt_input", "question_description_input"} <= spa.keys()
    ):
        raise UpstreamPromptError("prompts.py: SeeAct's online prompts or SPA's branch are missing")

    def field(key: str) -> str:
        if key not in choice:
            raise UpstreamPromptError(f"prompts.seeact_choice_prompt_dict: no {key!r}")
        return render(choice[key], strings)

    return SeePlanActTexts(
        spa_system=spa["system_prompt_input"],
        spa_question=spa["question_description_input"],
        seeact_system=strings["seeact_online_sys_prompt"],
        seeact_question=strings["seeact_online_question_description_new_exp4"],
        referring=field("referring_description"),
        element_format=field("element_format"),
        action_format=field("action_format"),
        value_format=field("value_format"),
        query=_query_texts(format_tree),
        options=_option_texts(format_tree),
    )
