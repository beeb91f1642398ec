"""Which Synthetic API samples are *inert*: they cannot reach any state shared between samples.

The checker runs each sample in a fresh forked process so nothing one sample does can carry over
to the next (rebinding ``str``, patching modules, rewriting the harness through frames). Forking
costs a millisecond or more per sample; most model answers are a few calls on the library object.
A sample whose syntax tree stays inside this allowlist can only touch its own fresh globals and
locals, its string arguments, the program's own ``Dummy`` objects and pure builtins, so it runs
in the checker's process without a fork (still inside the sandbox, verdict still computed outside).

Refused (the sample then gets its own process): imports, ``global``/``nonlocal`` other than the
program's own ``global Dummy``/root lines, classes, ``with``, ``del``, ``yield``, ``await``,
``match``, attribute stores, any attribute whose name starts with ``_`` or names a frame, code,
traceback or generator internal (``f_``, ``co_``, ``tb_``, ``gi_``, ``cr_``, ``ag_``, ``mro``), any
name starting with ``_``, builtins outside a pure allowlist (no ``open``, ``exec``, ``eval``,
``getattr``, ``globals``, ``vars``, ``type``, ``object``...), and exception handlers that could
swallow the per-sample timeout (bare ``except:``, ``BaseException``).
"""

from __future__ import annotations

import ast
import builtins
import re

SAFE_BUILTINS = frozenset(
    {
        "abs",
        "all",
        "any",
        "ascii",
        "bin",
        "bool",
        "callable",
        "chr",
        "dict",
        "divmod",
        "enumerate",
        "filter",
        "float",
        "format",
        "frozenset",
        "hash",
        "hex",
        "int",
        "isinstance",
        "issubclass",
        "iter",
        "len",
        "list",
        "map",
        "max",
        "min",
        "next",
        "oct",
        "ord",
        "pow",
        "print",
        "range",
        "repr",
        "reversed",
        "round",
        "set",
        "slice",
        "sorted",
        "str",
        "sum",
        "tuple",
        "zip",
        "True",
        "False",
        "None",
        "NotImplemented",
        "Ellipsis",
    }
)
_BUILTIN_NAMES = frozenset(dir(builtins))
_EXCEPTIONS = frozenset(
    n
    for n in _BUILTIN_NAMES
    if isinstance(getattr(builtins, n), type) and issubclass(getattr(builtins, n), Exception)
)
_BAD_ATTR = re.compile(r"^(_|f_|co_|tb_|gi_|cr_|ag_)|^mro$")
_SWALLOWS_TIMEOUT = frozenset({"BaseException", "KeyboardInterrupt", "SystemExit", "GeneratorExit"})

_ALLOWED = (
    ast.Module,
    ast.FunctionDef,
    ast.arguments,
    ast.arg,
    ast.Return,
    ast.Assign,
    ast.AugAssign,
    ast.Expr,
    ast.If,
    ast.For,
    ast.While,
    ast.Break,
    ast.Continue,
    ast.Pass,
    ast.Try,
    ast.ExceptHandler,
    ast.Raise,
    ast.Assert,
    ast.Global,
    ast.Call,
    ast.keyword,
    ast.Constant,
    ast.JoinedStr,
    ast.FormattedValue,
    ast.BinOp,
    ast.UnaryOp,
    ast.BoolOp,
    ast.Compare,
    ast.IfExp,
    ast.List,
    ast.Tuple,
    ast.Dict,
    ast.Set,
    ast.Subscript,
    ast.Slice,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
    ast.comprehension,
    ast.Starred,
    ast.Lambda,
    ast.NamedExpr,
    ast.Name,
    ast.Attribute,
    ast.Load,
    ast.Store,
    ast.operator,
    ast.unaryop,
    ast.boolop,
    ast.cmpop,
    ast.expr_context,
)


def is_inert(program: str, *, own_globals: frozenset[str]) -> bool:
    """``True`` when ``program`` (without the trusted ``Dummy`` source) provably stays in its own state.

    ``own_globals``: the names the program itself declares global (``Dummy`` and the library root)."""
    try:
        tree = ast.parse(program)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return False
    try:
        return all(_node_ok(node, own_globals) for node in ast.walk(tree))
    except RecursionError:
        return False


def _node_ok(node: ast.AST, own_globals: frozenset[str]) -> bool:
    if not isinstance(node, _ALLOWED):
        return False
    if isinstance(node, ast.FunctionDef):
        return not node.decorator_list and node.returns is None
    if isinstance(node, ast.arg):
        return node.annotation is None and not node.arg.startswith("_")
    if isinstance(node, ast.Global):
        return set(node.names) <= own_globals
    if isinstance(node, ast.Attribute):
        return isinstance(node.ctx, ast.Load) and not _BAD_ATTR.search(node.attr)
    if isinstance(node, ast.Name):
        if node.id.startswith("_"):
            return False
        return (
            node.id not in _BUILTIN_NAMES
            or node.id in SAFE_BUILTINS
            or node.id in _EXCEPTIONS
            or not isinstance(node.ctx, ast.Load)
        )
    if isinstance(node, ast.ExceptHandler):
        return node.type is not None and not _names(node.type) & _SWALLOWS_TIMEOUT
    return True


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
