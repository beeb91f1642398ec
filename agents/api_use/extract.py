"""Turn a chat model's answer into the body continuation the Synthetic API checker expects.

Completion models continued the prompt directly; chat models answer with prose or fenced code.
The adapter follows spec section 7 step by step (cut at ``[END]``, pick a fence, take the lines
under ``def <func_name>(``, drop imports of the root library, dedent, drop blank lines,
re-indent), then applies upstream's ``clean_decodes``. It never rewrites calls: keyword
arguments stay keyword arguments, and ``uses_keyword_arguments`` lets reports count them.
"""

from __future__ import annotations

import ast
import re
import textwrap

FENCE = re.compile(r"```[ \t]*[\w+-]*[ \t]*\n(.*?)(?:```|\Z)", re.S)


def clean_decode(text: str) -> str:
    """Upstream ``clean_decodes``: cut at ``[END]`` and keep the text before the first blank line."""
    return text.split("[END]", 1)[0].split("\n\n", 1)[0]


def _pick_block(text: str, func_name: str) -> str:
    blocks = FENCE.findall(text)
    if not blocks:
        return text
    for needle in (f"def {func_name}(", "return"):
        for block in blocks:
            if needle in block:
                return block
    return blocks[0]


def _indent_width(line: str) -> int:
    return len(line) - len(line.lstrip())


def _function_body(code: str, func_name: str) -> str:
    lines = code.split("\n")
    header = re.compile(rf"^\s*def {re.escape(func_name)}\s*\(")
    for i, line in enumerate(lines):
        if header.match(line):
            depth = _indent_width(line)
            body = []
            for later in lines[i + 1 :]:
                if later.strip() and _indent_width(later) <= depth:
                    break
                body.append(later)
            return "\n".join(body)
    return code


def extract_body(answer: str, func_name: str, root: str, indent: str = "    ") -> str | None:
    """The continuation (first line unindented, later lines prefixed by ``indent``), or ``None``
    when the answer holds no code (logged as ``no_code``): nothing left, or text that is not Python."""
    text = answer.split("[END]", 1)[0]
    code = _function_body(_pick_block(text, func_name), func_name)
    drop = re.compile(rf"^\s*(import {re.escape(root)}\s*$|from {re.escape(root)} import )")
    kept = [line.rstrip() for line in code.split("\n") if not drop.match(line)]
    lines = [line for line in textwrap.dedent("\n".join(kept)).split("\n") if line.strip()]
    if not lines:
        return None
    body = clean_decode("\n".join([lines[0], *(indent + line for line in lines[1:])]))
    return body if body and is_python_body(body, indent) else None


def is_python_body(body: str, indent: str = "    ") -> bool:
    """Whether ``body`` compiles as a function body. Prose or garbage that survived extraction (no
    fence, no ``def`` line, so the whole text was taken) is "no code", not a code sample that
    happens to fail: otherwise ``no_code_rate`` reads 0.0 for a model that never wrote code."""
    try:
        ast.parse("def _f():\n" + indent + body)
    except (SyntaxError, ValueError):
        return False
    return True


def uses_keyword_arguments(body: str, indent: str = "    ") -> bool:
    """True when some method call in the body passes keyword arguments (these fail in faithful mode)."""
    source = "def _f():\n" + indent + body
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return bool(re.search(r"\.\w+\([^)]*\b\w+\s*=(?!=)", body))
    return any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.keywords for n in ast.walk(tree)
    )
