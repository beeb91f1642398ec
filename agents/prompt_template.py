"""One way to fill a prompt template, strict about placeholders: :func:`fill`.

Prompts come in the syntax of whoever wrote them - upstream Python prompts are ``str.format``
texts (``{query}``, JSON braces doubled as ``{{ }}``), shell-like texts use ``$name``, and texts
full of JSON and braces use ``<<name>>`` - so the syntax is a parameter and the text is filled
exactly as its author's own code would fill it. What does not vary is the check: a placeholder
with no value, or a value the template never uses, raises :class:`TemplateError` naming them,
instead of leaving ``$typo`` in the prompt (``string.Template.safe_substitute``) or silently
dropping a value the role meant to show the model.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Mapping
from typing import Literal

Syntax = Literal["format", "dollar", "angle"]

_ANGLE = re.compile(r"<<([A-Za-z_][A-Za-z0-9_]*)>>")


class TemplateError(ValueError):
    """A template whose placeholders and values do not match (the message names both sides)."""


def placeholders(template: str, syntax: Syntax = "format") -> set[str]:
    """The names a template asks for (``{a.b[0]}`` asks for ``a``; ``{{`` and ``$$`` are literal)."""
    if syntax == "format":
        names = set()
        try:
            for _, field, _, _ in string.Formatter().parse(template):
                if field is not None:
                    if field == "" or field.isdigit():
                        raise TemplateError(f"positional placeholder {{{field}}}: name every placeholder")
                    base = re.split(r"[.\[]", field, maxsplit=1)[0]
                    if not base.isidentifier():
                        raise TemplateError(
                            f"{{{field}...}} is no placeholder name; write literal braces as {{{{ and }}}}"
                        )
                    names.add(base)
        except ValueError as exc:
            if isinstance(exc, TemplateError):
                raise
            raise TemplateError(
                f"not a str.format template ({exc}); write literal braces as {{{{ and }}}}"
            ) from None
        return names
    if syntax == "dollar":
        tmpl = string.Template(template)
        if not tmpl.is_valid():
            raise TemplateError("not a $-template: a '$' must start $name or ${name}, or be doubled as $$")
        return set(tmpl.get_identifiers())
    if syntax == "angle":
        return set(_ANGLE.findall(template))
    raise TemplateError(f"unknown template syntax {syntax!r}; use format, dollar or angle")


def fill(
    template: str,
    values: Mapping[str, object],
    *,
    syntax: Syntax = "format",
    name: str = "template",
    optional: Iterable[str] = (),
) -> str:
    """``template`` with every placeholder replaced by ``str(values[name])``.

    Raises :class:`TemplateError` if a placeholder has no value, or if a value other than those in
    ``optional`` is not used by the template. ``name`` (the template's name) goes in the message.
    """
    wanted = placeholders(template, syntax)
    missing = sorted(wanted - set(values))
    unused = sorted(set(values) - wanted - set(optional))
    if missing or unused:
        parts = []
        if missing:
            parts.append(f"placeholder(s) {', '.join(_show(m, syntax) for m in missing)} have no value")
        if unused:
            parts.append(f"value(s) {', '.join(unused)} have no placeholder")
        raise TemplateError(
            f"prompt template {name!r}: {'; '.join(parts)} (it uses {', '.join(_show(w, syntax) for w in sorted(wanted)) or 'none'})"
        )
    if syntax == "format":
        return template.format_map(values)
    if syntax == "dollar":
        return string.Template(template).substitute({k: str(v) for k, v in values.items()})
    return _ANGLE.sub(lambda m: str(values[m.group(1)]), template)


def _show(placeholder: str, syntax: Syntax) -> str:
    return {"format": "{%s}", "dollar": "$%s", "angle": "<<%s>>"}[syntax] % placeholder
