"""Click's own usage errors (a mistyped ``--option``, a missing argument, a bad value) as one line.

Why: restgraph's rule for usage errors is exit 2 with one line saying what is wrong, so scripts can
grep it; typer draws click's errors as a multi-line panel. Click already suggests the close names
("No such option: --limt (Possible options: --limit, ...)", "No such command 'rn'. Did you mean
'run'?"), so the message is kept whole and only its frame changes. ``--help`` and a command called
without arguments still print help.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import typer
from rich.console import Console
from typer.core import TyperGroup

_stderr = Console(stderr=True, soft_wrap=True)
# typer >= 0.2x carries its own copy of click: take click's classes from typer's public BadParameter
_MRO = {cls.__name__: cls for cls in typer.BadParameter.__mro__}
UsageError: type[Exception] = _MRO["UsageError"]
ClickException: type[Exception] = _MRO["ClickException"]


class OneLineUsageErrors(TyperGroup):
    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        try:
            rv = super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        except UsageError as exc:
            if (
                type(exc).__name__ == "NoArgsIsHelpError"
            ):  # `restgraph sandbox`: help, drawn by typer as before
                from typer import rich_utils

                rich_utils.rich_format_error(exc)  # type: ignore[arg-type]
            else:
                ctx = getattr(exc, "ctx", None)
                where = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
                _stderr.print(f"[red]error:[/red] {exc.format_message()}{where}", highlight=False)  # type: ignore[attr-defined]
            sys.exit(exc.exit_code)  # type: ignore[attr-defined]
        except ClickException as exc:
            _stderr.print(f"[red]error:[/red] {exc.format_message()}", highlight=False)  # type: ignore[attr-defined]
            sys.exit(exc.exit_code)  # type: ignore[attr-defined]
        except typer.Abort:
            _stderr.print("Aborted!")
            sys.exit(1)
        sys.exit(rv if isinstance(rv, int) else 0)
