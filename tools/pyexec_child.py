"""Bootstrap that runs inside the sandbox (``restgraph.tools.codebox``) for ``restgraph.tools.pyexec.run_python``.

Executed with ``python -I -S`` as a script, never imported by the host. Containment is the
operating system's (namespaces, unprivileged uid, rlimits): nothing here is a security boundary.
The import allowlist is a policy on what model code may use (the RestGPT parser allows json, re
and math), not a wall.

The host decides success from the exit status alone: 0 after the code ran to its end, 1 after an
uncaught exception (whose text follows a per-run nonce on the last stderr line, used only to word
the error). The exit function is bound before the code runs, so rebinding ``os._exit`` or
``sys.exit`` changes nothing; code that ends the process itself with status 0 has simply finished.
"""

import builtins
import contextlib
import json
import os
import sys

_exit = os._exit
_write = os.write


def _guarded_import(allowed, real):
    def importer(name, globals=None, locals=None, fromlist=(), level=0):
        if allowed is not None and level == 0 and name.split(".")[0] not in allowed:
            raise ImportError(
                f"sandbox: import of {name} is not allowed (allowed: {', '.join(sorted(allowed))})"
            )
        return real(name, globals, locals, fromlist, level)

    return importer


def main() -> None:
    job = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    nonce = job.pop("nonce")
    allowed = frozenset(job["allowed_modules"]) if job.get("allowed_modules") is not None else None
    user_builtins = dict(vars(builtins))
    user_builtins["__import__"] = _guarded_import(allowed, builtins.__import__)
    namespace = {"__name__": "__main__", "__builtins__": user_builtins, **(job.get("inputs") or {})}
    code = compile(job.pop("code"), "<sandbox>", "exec")
    del job
    error = None
    try:
        exec(code, namespace)
    except SystemExit as exc:
        if exc.code not in (None, 0):
            error = f"SystemExit: {exc.code}"
    except BaseException as exc:  # noqa: BLE001 - everything the user code raises is a result
        try:
            error = f"{type(exc).__name__}: {exc}"[:4000]
        except BaseException:  # noqa: BLE001 - an exception whose str() raises
            error = "an exception whose text could not be read"
    with contextlib.suppress(BaseException):  # a closed or replaced stdout loses only output
        sys.stdout.flush()
    if error is None:
        _exit(0)
    try:
        _write(2, ("\n" + nonce + " " + json.dumps(error) + "\n").encode("utf-8", "replace"))
    finally:
        _exit(1)


if __name__ == "__main__":
    main()
