"""Compile a ``get_example`` signature (a Python call chain) into the call string the test expects.

``solids2.volume_of_cone(radius=5)`` compiles to ``solids.volume_of_cone(5, "dummy_height_1")``:
every API argument gets a quoted dummy ``"dummy_<arg>_<n>"`` (the counter ``n`` runs over every
argument, fixed or not, in post-order), fixed keyword values are rendered in place, and unfixed
arguments become parameters of the function the model must write (spec section 2.1).
Positional arguments in the signature are ignored, as upstream did. Upstream used ``ast.Str`` /
``ast.Num`` (gone in Python 3.14, B18); this reads ``ast.Constant``.
"""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from restgraph.tools.synthetic_api.library import Function, Registry
from restgraph.tools.synthetic_api.noise import require


@dataclass
class Param:
    """An unfixed argument: the outer parameter's base name and the dummy standing for it."""

    name: str
    dummy: str


@dataclass
class Compiled:
    """A compiled signature: call string with dummies, its parameters and the functions it uses."""

    call: str
    params: list[Param]
    root_id: str
    root_name: str
    style: str
    #: library id -> functions called there, in first-use order (upstream kept a ``set``)
    targets: dict[str, list[Function]] = field(default_factory=dict)
    #: library id -> number of calls (nested calls included)
    call_counts: dict[str, int] = field(default_factory=dict)
    outer_names: list[str] = field(default_factory=list)

    def readable(self) -> str:
        """The human-readable target: every dummy replaced by its outer parameter name."""
        text = self.call
        for param, name in zip(self.params, self.outer_names, strict=True):
            text = text.replace(param.dummy, name)
        return text


class _Compiler:
    def __init__(self, registry: Registry):
        self.registry = registry
        self.counter = 0
        self.params: list[Param] = []
        self.targets: dict[str, list[Function]] = {}
        self.call_counts: dict[str, int] = {}

    def root_of(self, node: ast.expr) -> str:
        while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            node = node.func.value
        if not isinstance(node, ast.Name):
            raise ValueError(
                f"a signature must be a call chain rooted at a library id, got {ast.unparse(node)!r}"
            )
        return node.id

    def call(self, node: ast.expr) -> tuple[str, str]:
        """Compile one call; returns (compiled text, registry id of its return type)."""
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            raise ValueError(f"expected a call like lib.function(...), got {ast.unparse(node)!r}")
        receiver = node.func.value
        if isinstance(receiver, ast.Name):
            lib = self.registry[receiver.id]
            parent = lib.library_name
        else:
            parent, lib_id = self.call(receiver)
            lib = self.registry[lib_id]
        fn = lib.get(node.func.attr)
        if fn is None:  # upstream's assert, immune to python -O (and it narrows the type)
            raise AssertionError(f"{node.func.attr} is not a function of library {lib.id}")
        keywords = {k.arg: k.value for k in node.keywords}
        for name in keywords:
            require(name in fn.args, f"{name} is not an argument of {lib.id}.{fn.name}{fn.args}")
        values = []
        for arg in fn.args:
            dummy = f'"dummy_{arg}_{self.counter}"'
            self.counter += 1
            values.append(self.value(arg, dummy, keywords.get(arg)))
        used = self.targets.setdefault(lib.id, [])
        if fn not in used:
            used.append(fn)
        self.call_counts[lib.id] = self.call_counts.get(lib.id, 0) + 1
        return f"{parent}.{fn.name}({', '.join(values)})", fn.return_type

    def value(self, arg: str, dummy: str, node: ast.expr | None) -> str:
        if node is None:
            self.params.append(Param(arg, dummy))
            return dummy
        if isinstance(node, ast.Name):
            self.params.append(Param(node.id, dummy))
            return dummy
        if isinstance(node, ast.Constant):
            return f'"{node.value}"' if isinstance(node.value, str) else str(node.value)
        if isinstance(node, ast.Call):
            return self.call(node)[0]
        raise ValueError(
            f"unsupported keyword value {ast.unparse(node)!r} for {arg}: use a literal, a name or a library call"
        )


def suffix_duplicates(names: Sequence[str]) -> list[str]:
    """A name used k > 1 times becomes name1..namek, in order of appearance."""
    totals, seen = Counter(names), Counter[str]()
    out = []
    for name in names:
        if totals[name] > 1:
            seen[name] += 1
            out.append(f"{name}{seen[name]}")
        else:
            out.append(name)
    return out


def compile_signature(signature: str, registry: Registry) -> Compiled:
    """Parse and compile ``signature``; the dummy counter starts at 0 for every call."""
    try:
        tree = ast.parse(signature, mode="eval")
    except SyntaxError as exc:
        raise ValueError(f"signature is not a Python expression: {signature!r} ({exc.msg})") from exc
    compiler = _Compiler(registry)
    root_id = compiler.root_of(tree.body)
    root = registry[root_id]
    call, _ = compiler.call(tree.body)
    compiled = Compiled(
        call, compiler.params, root_id, root.library_name, root.style, compiler.targets, compiler.call_counts
    )
    compiled.outer_names = suffix_duplicates([p.name for p in compiled.params])
    return compiled


ArgOrder = Sequence[int] | Callable[[list[str]], Sequence[int]] | None


def outer_arglist(compiled: Compiled, func_name: str, arg_order: ArgOrder) -> tuple[str, str]:
    """(function name, arglist text) of the function to write (spec section 2.1, outer parameters)."""
    if "(" in func_name:
        require(arg_order is None, "func_name with an explicit arglist cannot be combined with arg_order")
        name, rest = func_name.split("(", 1)
        return name, rest.split(")", 1)[0]
    outer = list(compiled.outer_names)
    if compiled.style == "class":
        outer = [compiled.root_name, *outer]
    if arg_order is not None:
        order = list(arg_order(outer) if callable(arg_order) else arg_order)
        require(len(set(order)) == len(order), f"arg_order {order} has duplicates")
        require(len(order) == len(outer), f"arg_order {order} must have {len(outer)} entries")
        require(not order or max(order) == len(order) - 1, f"arg_order {order} is not a permutation")
        outer = [outer[i] for i in order]
    return func_name, ", ".join(outer)
