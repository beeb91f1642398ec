"""The program every sandbox mode runs to show the seccomp filter (``tests/isolation/test_syscall_filter.py``).

``probe_program()`` returns Python source that attempts one call per denied family with harmless
arguments and prints (or raises, for the checker) ``{family: errno}`` as JSON: 0 means the call
went through. Syscall numbers are resolved on the host by libseccomp, not written here."""

from __future__ import annotations

import json

#: family -> (syscall, arguments); each would succeed (or fail with a different errno) without the filter
CALLS: dict[str, tuple[str, tuple[int, ...]]] = {
    "keyring add_key": ("add_key", ()),  # arguments filled in by the program (pointers)
    "keyring keyctl": ("keyctl", (0, -4, 0, 0, 0)),  # KEYCTL_GET_KEYRING_ID of the user keyring
    "keyring request_key": ("request_key", ()),
    "unshare user namespace": ("unshare", (0x10000000,)),
    "unshare mount namespace": ("unshare", (0x00020000,)),
    "clone new user namespace": ("clone", (0x10000000 | 17, 0, 0, 0, 0)),
    "clone new network namespace": ("clone", (0x40000000 | 17, 0, 0, 0, 0)),
    "clone3": ("clone3", (0, 0)),
    "setns": ("setns", (-1, 0)),
    "mount": ("mount", (0, 0, 0, 0, 0)),
    "umount2": ("umount2", (0, 0)),
    "pivot_root": ("pivot_root", (0, 0)),
    "fsopen": ("fsopen", (0, 0)),
    "ptrace": ("ptrace", (0, 0, 0, 0)),  # PTRACE_TRACEME
    "process_vm_readv": ("process_vm_readv", (1, 0, 0, 0, 0, 0)),
    "process_vm_writev": ("process_vm_writev", (1, 0, 0, 0, 0, 0)),
    "bpf": ("bpf", (0, 0, 0)),
    "perf_event_open": ("perf_event_open", (0, 0, -1, -1, 0)),
    "userfaultfd": ("userfaultfd", (0,)),
    "io_uring_setup": ("io_uring_setup", (1, 0)),
    "io_uring_enter": ("io_uring_enter", (-1, 0, 0, 0, 0, 0)),
    "io_uring_register": ("io_uring_register", (-1, 0, 0, 0)),
    "inotify_init": ("inotify_init", ()),
    "inotify_init1": ("inotify_init1", (0,)),
    "fanotify_init": ("fanotify_init", (0, 0)),
    "kexec_load": ("kexec_load", (0, 0, 0, 0)),
    "kexec_file_load": ("kexec_file_load", (-1, -1, 0, 0, 0)),
    "init_module": ("init_module", (0, 0, 0)),
    "finit_module": ("finit_module", (-1, 0, 0)),
    "personality ADDR_NO_RANDOMIZE": ("personality", (0x0040000,)),
    "personality READ_IMPLIES_EXEC": ("personality", (0x0400000,)),
    "prlimit64 on the parent": ("prlimit64", ()),  # pid filled in by the program
}
#: calls that must still work under the filter (the program needs them, or they harm nothing)
ALLOWED = {
    "personality query": ("personality", (0xFFFFFFFF,)),
    "prlimit64 on itself": ("prlimit64", (0, 7, 0, 0)),
}

BODY = r"""  # a function: the checker execs with separate globals and locals
def probe():
    import ctypes, json, os
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    NUMBERS = __NUMBERS__
    CALLS = __CALLS__
    desc, payload, keyring = b"rg-probe", b"x", -4  # KEY_SPEC_USER_KEYRING
    buf = ctypes.create_string_buffer(64)
    results = {}
    for name, (syscall, args) in CALLS.items():
        if syscall == "add_key":
            args = (ctypes.c_char_p(b"user"), ctypes.c_char_p(desc), ctypes.c_char_p(payload), 1, keyring)
        elif syscall == "request_key":
            args = (ctypes.c_char_p(b"user"), ctypes.c_char_p(desc), None, 0)
        elif syscall == "prlimit64" and not args:
            args = (os.getppid(), 7, None, ctypes.byref(buf))
        else:
            args = tuple(ctypes.c_long(a) for a in args)
        ctypes.set_errno(0)
        got = libc.syscall(ctypes.c_long(NUMBERS[syscall]), *args)
        if got == 0 and syscall == "clone":
            os._exit(0)  # a child made in spite of the filter: the parent reports it
        results[name] = ctypes.get_errno() if got == -1 else 0
    return results


import json

results = probe()
__EMIT__
"""


def probe_program(
    calls: dict[str, tuple[str, tuple[int, ...]]], emit: str = "print(json.dumps(results))"
) -> str:
    """The probe's source for ``calls``, with syscall numbers resolved by libseccomp for this machine."""
    import pyseccomp

    arch = pyseccomp.system_arch()
    numbers = {syscall: pyseccomp.resolve_syscall(arch, syscall) for syscall, _ in calls.values()}
    return (
        BODY.replace("__NUMBERS__", repr(numbers)).replace("__CALLS__", repr(calls)).replace("__EMIT__", emit)
    )


def parse(text: str) -> dict[str, int]:
    start = text.index("{")
    return json.loads(text[start : text.rindex("}") + 1])
