"""ShortcutsBench's original prompts, read at run time from the upstream files (never pasted here).

Two files of the ShortcutsBench repository (Apache-2.0) are read through ``restgraph.tools.datafiles``, from
``$RESTGRAPH_DATA_DIR/shortcutsbench/upstream/experiments/`` or downloaded at a pinned commit and
checked against their sha256:

- ``all_experiments_prompt.py``: the two templates, ``SYSTEM_PROMPT_TEMPLATE`` and
  ``USER_PROMPT_TEMPLATE`` (module-level string constants);
- ``all_experiments.py``: how the script fills them. From its syntax tree we take the candidate
  line (the f-string of ``APIBasedAgent.__init__``), the separator that joins those lines, the
  ``json.dumps`` arguments of the history, which expression fills each ``.format`` slot, and the
  single-turn text Gemini-style providers receive (``send_message("System: " + ...)``).

Both files are parsed with ``ast``, never imported or executed. ``all_experiments.py`` uses
Python 3.12's multi-line f-strings, which 3.11's parser rejects, so it is parsed one statement at a
time: the ``APIBasedAgent`` class block, and each statement that fills a template or sends a
message (the shortest run of whole lines from its first line that parses). When upstream's code
does not have the expected shape, ``UpstreamPromptError`` says which part changed.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from restgraph.tools.datafiles import DataFile, resolve

BENCH = "shortcutsbench"
#: the two files are pinned where each has the content of the recorded reference copy (the
#: experiment script changed after the prompt file last did)
COMMIT = "5c2e07d0b20bb306f17e0e57895ce8863685250c"
ASSEMBLY_COMMIT = "0e39ddcdb4f6b794e678ab13af9996f2a30aae74"
_REPO = "https://raw.githubusercontent.com/EachSheep/ShortcutsBench"
_RAW = f"{_REPO}/{COMMIT}/experiments"
PROMPT_FILE = DataFile(
    BENCH,
    "upstream/experiments/all_experiments_prompt.py",
    f"{_RAW}/all_experiments_prompt.py",
    "b5703c22563ca1e64d02c4b5c174f563d5dd8a653819a267909a884b7d036fde",
)
ASSEMBLY_FILE = DataFile(
    BENCH,
    "upstream/experiments/all_experiments.py",
    f"{_REPO}/{ASSEMBLY_COMMIT}/experiments/all_experiments.py",
    "f30801e2564910702ab280918cbfef79b8266de98b5d10ef39b073e6d24bc392",
)

SYSTEM_TEMPLATE = "SYSTEM_PROMPT_TEMPLATE"
USER_TEMPLATE = "USER_PROMPT_TEMPLATE"
#: what each ``.format`` slot of upstream is filled with, by the filling expression's last name
_SLOT_SOURCES = {
    "all_api_descs": "listing",
    "all_api_names": "names",
    "get_history_action_str": "history",
    "query": "query",
}


class UpstreamPromptError(ValueError):
    """The upstream files do not have the shape this reader knows (a changed upstream)."""


@dataclass(frozen=True)
class UpstreamPrompts:
    system_template: str
    user_template: str
    #: the candidate line as parts: literal text, or one of ``("index", offset)``, ``"id"``, ``"text"``
    line_parts: tuple[Any, ...]
    line_separator: str
    history_dumps_kwargs: dict[str, Any]
    #: ``{template: {slot: source}}`` with sources ``listing`` / ``names`` / ``history`` / ``query``
    slots: dict[str, dict[str, str]]
    #: the single user turn of Gemini-style providers: literal text or ``"system"`` / ``"user"``
    single_turn_parts: tuple[str | tuple[str], ...]

    def listing(self, table: Mapping[str, str]) -> str:
        def line(index: int, api: str, text: str) -> str:
            out = []
            for part in self.line_parts:
                if isinstance(part, str):
                    out.append(part)
                elif part[0] == "index":
                    out.append(str(index + part[1]))
                else:
                    out.append(api if part[0] == "id" else text)
            return "".join(out)

        return self.line_separator.join(line(i, api, text) for i, (api, text) in enumerate(table.items()))

    def _fill(self, name: str, template: str, values: Mapping[str, Any]) -> str:
        return template.format(**{slot: values[source] for slot, source in self.slots[name].items()})

    def system(self, table: Mapping[str, str]) -> str:
        return self._fill(
            SYSTEM_TEMPLATE, self.system_template, {"listing": self.listing(table), "names": list(table)}
        )

    def user(self, query: str, history: Sequence[Mapping[str, Any]]) -> str:
        return self._fill(
            USER_TEMPLATE,
            self.user_template,
            {"query": query, "history": json.dumps(list(history), **self.history_dumps_kwargs)},
        )

    def single_turn(self, system: str, user: str) -> str:
        return "".join(
            system if part == ("system",) else user if part == ("user",) else part
            for part in self.single_turn_parts
        )


def _fail(what: str) -> UpstreamPromptError:
    return UpstreamPromptError(
        f"upstream ShortcutsBench code changed shape: {what} (read from {ASSEMBLY_FILE.name} / {PROMPT_FILE.name})"
    )


def _templates(tree: ast.Module) -> dict[str, str]:
    out = {}
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            out[node.targets[0].id] = node.value.value
    for name in (SYSTEM_TEMPLATE, USER_TEMPLATE):
        if name not in out:
            raise _fail(f"no string constant {name}")
    return out


def _find(tree: ast.AST, kind: type, test: Callable[[Any], bool], what: str) -> Any:
    for node in ast.walk(tree):
        if isinstance(node, kind) and test(node):
            return node
    raise _fail(what)


def _self_assign(attr: str) -> Callable[[Any], bool]:
    return lambda n: (
        len(n.targets) == 1 and isinstance(n.targets[0], ast.Attribute) and n.targets[0].attr == attr
    )


def _line_parts(init: ast.AST) -> tuple[Any, ...]:
    """The f-string of ``[f"..." for i, (name, desc) in enumerate(d.items())]`` as render parts."""
    comp = _find(
        init, ast.Assign, _self_assign("all_api_descs_list"), "APIBasedAgent.all_api_descs_list"
    ).value
    if not (
        isinstance(comp, ast.ListComp) and isinstance(comp.elt, ast.JoinedStr) and len(comp.generators) == 1
    ):
        raise _fail("the candidate listing is not a list comprehension over an f-string")
    target = comp.generators[0].target
    try:
        index, (api, text) = target.elts[0].id, (e.id for e in target.elts[1].elts)
    except (AttributeError, ValueError, TypeError):
        raise _fail("the candidate listing does not unpack (index, (id, text))") from None
    names = {api: ("id",), text: ("text",)}
    parts: list[Any] = []
    for value in comp.elt.values:
        if isinstance(value, ast.Constant):
            parts.append(value.value)
            continue
        expr = (
            value.value
            if isinstance(value, ast.FormattedValue) and value.conversion == -1 and value.format_spec is None
            else None
        )
        if isinstance(expr, ast.Name) and expr.id in names:
            parts.append(names[expr.id])
        elif isinstance(expr, ast.Name) and expr.id == index:
            parts.append(("index", 0))
        elif (
            isinstance(expr, ast.BinOp)
            and isinstance(expr.op, ast.Add)
            and isinstance(expr.left, ast.Name)
            and expr.left.id == index
            and isinstance(expr.right, ast.Constant)
        ):
            parts.append(("index", int(expr.right.value)))
        else:
            raise _fail(f"unknown field {ast.unparse(value)} in the candidate line")
    return tuple(parts)


def _separator(init: ast.AST) -> str:
    call = _find(init, ast.Assign, _self_assign("all_api_descs"), "APIBasedAgent.all_api_descs").value
    if (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr == "join"
        and isinstance(call.func.value, ast.Constant)
    ):
        return call.func.value.value
    raise _fail("all_api_descs is not '<separator>'.join(...)")


def _dumps_kwargs(cls: ast.ClassDef) -> dict[str, Any]:
    method = _find(
        cls,
        ast.FunctionDef,
        lambda n: n.name == "get_history_action_str",
        "APIBasedAgent.get_history_action_str",
    )
    call = _find(
        method,
        ast.Call,
        lambda n: isinstance(n.func, ast.Attribute) and n.func.attr == "dumps",
        "json.dumps in get_history_action_str",
    )
    return {kw.arg: ast.literal_eval(kw.value) for kw in call.keywords}


def _slots(tree: ast.Module) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "format"
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id in (SYSTEM_TEMPLATE, USER_TEMPLATE)
        ):
            slots = {}
            for kw in node.keywords:
                expr = kw.value.func if isinstance(kw.value, ast.Call) else kw.value
                key = (
                    expr.attr
                    if isinstance(expr, ast.Attribute)
                    else expr.id
                    if isinstance(expr, ast.Name)
                    else None
                )
                if key not in _SLOT_SOURCES:
                    raise _fail(f"{node.func.value.id}.format fills {kw.arg} with {ast.unparse(kw.value)}")
                slots[kw.arg] = _SLOT_SOURCES[key]
            out[node.func.value.id] = slots
    if set(out) != {SYSTEM_TEMPLATE, USER_TEMPLATE}:
        raise _fail("the templates are not both filled with .format(...)")
    return out


def _concat(node: ast.AST, names: dict[str, tuple[str]]) -> list[Any]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _concat(node.left, names) + _concat(node.right, names)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Name) and node.id in names:
        return [names[node.id]]
    raise _fail(f"unknown part {ast.unparse(node)} of the single-turn message")


def _single_turn(tree: ast.Module) -> tuple[Any, ...]:
    call = _find(
        tree,
        ast.Call,
        lambda n: isinstance(n.func, ast.Attribute) and n.func.attr == "send_message" and len(n.args) == 1,
        "chat.send_message(...)",
    )
    return tuple(_concat(call.args[0], {"system_prompt": ("system",), "user_prompt": ("user",)}))


#: a statement longer than this many lines is not one upstream wrote (bounded search)
MAX_STATEMENT_LINES = 60


def _statement_at(lines: list[str], start: int) -> ast.Module:
    """The statement beginning at ``lines[start]``, re-indented to column 0 and parsed."""
    indent = len(lines[start]) - len(lines[start].lstrip())
    chunk: list[str] = []
    for line in lines[start : start + MAX_STATEMENT_LINES]:
        chunk.append(line[indent:] if not line[:indent].strip() else line.lstrip())
        try:
            return ast.parse("\n".join(chunk))
        except SyntaxError:
            continue
    raise _fail(f"no statement parses from line {start + 1}")


def _statements(source: str, marker: str) -> list[ast.Module]:
    lines = source.split("\n")
    found = [
        _statement_at(lines, i)
        for i, line in enumerate(lines)
        if marker in line and not line.lstrip().startswith("#")
    ]
    if not found:
        raise _fail(f"no statement containing {marker!r}")
    return found


def _class_block(source: str, name: str) -> ast.ClassDef:
    lines = source.split("\n")
    start = next((i for i, line in enumerate(lines) if line.startswith(f"class {name}")), None)
    if start is None:
        raise _fail(f"no class {name}")
    end = next(
        (j for j in range(start + 1, len(lines)) if lines[j][:1] not in ("", " ", "\t", "#")), len(lines)
    )
    return ast.parse("\n".join(lines[start:end])).body[0]


def parse_upstream(prompt_source: str, assembly_source: str) -> UpstreamPrompts:
    templates = _templates(ast.parse(prompt_source))
    cls = _class_block(assembly_source, "APIBasedAgent")
    init = _find(cls, ast.FunctionDef, lambda n: n.name == "__init__", "APIBasedAgent.__init__")
    fills = ast.Module(
        body=[
            node
            for marker in (f"{SYSTEM_TEMPLATE}.format(", f"{USER_TEMPLATE}.format(")
            for tree in _statements(assembly_source, marker)
            for node in tree.body
        ],
        type_ignores=[],
    )
    sends = _statements(assembly_source, ".send_message(")
    return UpstreamPrompts(
        system_template=templates[SYSTEM_TEMPLATE],
        user_template=templates[USER_TEMPLATE],
        line_parts=_line_parts(init),
        line_separator=_separator(init),
        history_dumps_kwargs=_dumps_kwargs(cls),
        slots=_slots(fills),
        single_turn_parts=_single_turn(sends[0]),
    )


@cache
def load_upstream_prompts() -> UpstreamPrompts:
    """The parsed upstream prompts (read once per process)."""
    return parse_upstream(
        resolve(PROMPT_FILE).read_text(encoding="utf-8"), resolve(ASSEMBLY_FILE).read_text(encoding="utf-8")
    )
