"""``get_example``: build a Synthetic API Use problem (prompt, target, test) from a signature.

Re-implemented from the spec (``docs/api_use.md`` section 2), not from upstream code. Faithful
mode (the default) reproduces upstream's strings byte for byte, bugs included, with two
documented exceptions: target functions are ordered by sorting their records instead of by set
iteration (B4, which made upstream depend on ``PYTHONHASHSEED``), and the RNG is a private
``random.Random(random_seed)`` drawing in upstream's order (distractor samples per library, then
the name derangement, then the description derangement) instead of reseeding the global one.
``Fixes`` switches individual upstream bugs off; ``fixed=True`` switches all of them off.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel, Field

from restgraph.tools.synthetic_api.library import DEFAULT_REGISTRY, FIXED_MELODY_REGISTRY, Function, Registry
from restgraph.tools.synthetic_api.noise import apportion, derange, intersperse, rename, require
from restgraph.tools.synthetic_api.signature import ArgOrder, Compiled, compile_signature, outer_arglist

PLACEHOLDER = re.compile(r"\[([^\]]*)\|([^\]]*)\]")


class Fixes(BaseModel):
    """Upstream bugs to correct (spec section 6). All off = faithful mode."""

    true_derangement: bool = False  # B1
    simultaneous_rename: bool = False  # B2
    exclude_fewshot_from_distractors: bool = False  # B3
    first_use_target_order: bool = False  # B4 (faithful already sorts; this orders by first use)
    rename_fewshot_targets: bool = False  # B5
    largest_remainder_distractors: bool = False  # B8
    dict_distractors_keep_targets: bool = False  # B9
    fixed_melody: bool = False  # B6, B7
    kwargs_aware_checker: bool = False  # B12

    @classmethod
    def all(cls) -> Fixes:
        return cls(**dict.fromkeys(cls.model_fields, True))

    def on(self) -> list[str]:
        return [name for name, value in self.model_dump().items() if value]


class TestCase(BaseModel):
    """A generated problem. ``api_args`` (listed name -> listed args) feeds the kwargs-aware checker."""

    __test__ = False  # not a pytest test class

    prompt: str
    target: str
    test: str
    api_args: dict[str, list[str]] = Field(default_factory=dict)
    fixes: list[str] = Field(default_factory=list)


def _resolve_fixes(fixed: bool | Fixes | dict[str, bool] | None) -> Fixes:
    if isinstance(fixed, Fixes):
        return fixed
    if isinstance(fixed, dict):
        unknown = set(fixed) - set(Fixes.model_fields)
        if unknown:
            raise ValueError(f"unknown fix flags {sorted(unknown)}; known: {sorted(Fixes.model_fields)}")
        return Fixes(**fixed)
    return Fixes.all() if fixed else Fixes()


def _render_doc(fn: Function, arg_names: dict[str, str] | None) -> str:
    """``[text|arg]`` -> ``the given text`` (no arg noise) or ``the text argK`` (numbered args)."""
    if arg_names is None:
        return PLACEHOLDER.sub(lambda m: f"the given {m.group(1)}", fn.definition)
    return PLACEHOLDER.sub(lambda m: f"the {m.group(1)} {arg_names[m.group(2)]}", fn.definition)


def _task_section(
    compiled: Compiled,
    description: str,
    func_name: str,
    arg_order: ArgOrder,
    preamble: str,
    begin_token: str,
    indent: str,
) -> tuple[str, str, str]:
    """(task text from preamble to trailing indent, bare function name, arglist)."""
    name, arglist = outer_arglist(compiled, func_name, arg_order)
    imports = f"import {compiled.root_name}\n" if compiled.style == "import" else ""
    return (
        f"{preamble}{description}.\n{begin_token}\n{imports}def {name}({arglist}):\n{indent}",
        name,
        arglist,
    )


def _distractor_counts(
    num_distractors: int | dict[str, int], lib_ids: list[str], main_counts: dict[str, int], fixes: Fixes
) -> dict[str, int]:
    """library id -> number of distractors; ids missing from a faithful dict are dropped (B9)."""
    if isinstance(num_distractors, dict):
        if fixes.dict_distractors_keep_targets:
            return {rid: int(num_distractors.get(rid, 0)) for rid in lib_ids}
        for rid in num_distractors:
            if rid not in main_counts:
                raise TypeError(
                    f"num_distractors lists {rid!r}, which the main signature does not call (upstream TypeError, B9)"
                )
        return {rid: int(k) for rid, k in num_distractors.items()}
    weights = [main_counts.get(rid, 0) for rid in lib_ids]
    return dict(
        zip(
            lib_ids,
            apportion(int(num_distractors), weights, largest_remainder=fixes.largest_remainder_distractors),
            strict=True,
        )
    )


def _place(
    targets: list[Function], sampled: list[Function], location: int | float, rid: str
) -> tuple[list[Function], int | float]:
    """Put a library's targets among its distractors; a float location leaks as an int (B10)."""
    if isinstance(location, dict):
        raise AssertionError("dict target_func_location is not supported (upstream assert False, B10)")
    if isinstance(location, float):
        location = int(location * len(sampled))
    if location == -1:
        return intersperse(targets, sampled), location
    require(
        len(targets) == 1,
        f"an integer target_func_location needs exactly one target in {rid}, got {len(targets)}",
    )
    placed = list(sampled)
    placed.insert(location, targets[0])
    return placed, location


def _listing(
    main: Compiled,
    shots: list[Compiled],
    options: dict[str, Any],
    rng: random.Random,
    fixes: Fixes,
    registry: Registry,
) -> list[Function]:
    """Targets plus sampled distractors, per library in order of first touch (spec 2.3)."""
    target_sets: dict[str, list[Function]] = {rid: list(fns) for rid, fns in main.targets.items()}
    for shot in shots:  # fewshot_style='combine': merge the few-shot targets into the same sets
        for rid, fns in shot.targets.items():
            bucket = target_sets.setdefault(rid, [])
            bucket.extend(f for f in fns if f not in bucket)
    counts = _distractor_counts(options["num_distractors"], list(target_sets), main.call_counts, fixes)
    location = options["target_func_location"]
    listed: list[Function] = []
    for rid, k in counts.items():
        targets = target_sets[rid] if fixes.first_use_target_order else sorted(target_sets[rid])
        excluded = set(targets) if fixes.exclude_fewshot_from_distractors else set(main.targets.get(rid, []))
        pool = sorted(set(registry[rid].functions) - excluded)
        require(
            k <= len(pool),
            f"{k} distractors requested from {rid}, which has only {len(pool)} other functions",
        )
        sampled = rng.sample(pool, k)
        placed, location = _place(targets, sampled, location, rid)
        listed.extend(placed)
    return listed


def get_example(
    signature: str,
    description: str,
    func_name: str = "func",
    num_distractors: int | dict[str, int] = 0,
    target_func_location: int | float = -1,
    arg_order: ArgOrder = None,
    task_description_preamble: str = "Write a function that ",
    fewshot: Sequence[dict[str, Any]] = (),
    fewshot_style: str = "combine",
    function_noise_type: str = "none",
    arg_noise_type: str = "none",
    description_noise_type: str = "none",
    indent: int | str = 4,
    use_quotes: bool = False,
    joiner: str = "\n",
    section_joiner: str = "\n\n",
    intro: str = "Consider the following functions:",
    format_function: Callable[[Function], str] | None = None,
    begin_token: str = "[BEGIN]",
    random_seed: int = 229,
    return_test_case: Any = None,
    *,
    fixed: bool | Fixes | dict[str, bool] | None = None,
    registry: Registry | None = None,
) -> TestCase:
    """Generate one problem. Keyword names and defaults are upstream's (spec 2.2); ``fixed`` and
    ``registry`` are ours. ``return_test_case`` is accepted and ignored, as upstream did."""
    fixes = _resolve_fixes(fixed)
    registry = registry or (FIXED_MELODY_REGISTRY if fixes.fixed_melody else DEFAULT_REGISTRY)
    if fewshot_style != "combine":
        raise ValueError(f"fewshot_style {fewshot_style!r} is not supported; only 'combine' exists (B11)")
    if function_noise_type not in ("none", "number", "swap"):
        raise AssertionError(
            f"function_noise_type {function_noise_type!r} is not supported (upstream assert False, B11)"
        )
    if arg_noise_type not in ("none", "number"):
        raise AssertionError(f"arg_noise_type {arg_noise_type!r} is not supported")
    if description_noise_type not in ("none", "swap", "empty"):
        raise AssertionError(f"description_noise_type {description_noise_type!r} is not supported")
    indent_text = " " * indent if isinstance(indent, int) else str(indent)
    rng = random.Random(random_seed)

    main = compile_signature(signature, registry)
    task, name, arglist = _task_section(
        main, description, func_name, arg_order, task_description_preamble, begin_token, indent_text
    )
    shots, shot_blocks = [], []
    for shot in fewshot:
        compiled = compile_signature(shot["signature"], registry)
        text, _, _ = _task_section(
            compiled,
            shot["description"],
            shot.get("func_name", "func"),
            shot.get("arg_order", arg_order),
            shot.get("task_description_preamble", task_description_preamble),
            shot.get("begin_token", begin_token),
            _indent(shot.get("indent", indent)),
        )
        shots.append(compiled)
        shot_blocks.append((text, compiled.readable()))

    listed = _listing(
        main,
        shots,
        {"num_distractors": num_distractors, "target_func_location": target_func_location},
        rng,
        fixes,
        registry,
    )

    # name noise: the rename map is built by position (later duplicates win)
    names = [f.name for f in listed]
    if function_noise_type == "number":
        new_names = [f"func{i}" for i in range(len(listed))]
    elif function_noise_type == "swap":
        new_names = derange(names, rng, true_derangement=fixes.true_derangement)
    else:
        new_names = names
    mapping = (
        {old: new for old, new in zip(names, new_names, strict=True)} if function_noise_type != "none" else {}
    )

    arg_maps = [
        {a: f"arg{i}" for i, a in enumerate(f.args)} if arg_noise_type == "number" else None for f in listed
    ]
    docs = [_render_doc(f, m) for f, m in zip(listed, arg_maps, strict=True)]
    if description_noise_type == "swap":
        docs = derange(docs, rng, true_derangement=fixes.true_derangement)
    quote = '"""' if use_quotes else ""
    lines, api_args = [], {}
    for fn, new_name, doc, amap in zip(listed, new_names, docs, arg_maps, strict=True):
        args = [amap[a] for a in fn.args] if amap is not None else list(fn.args)
        api_args[new_name] = args
        shown = Function(new_name, doc, tuple(args), fn.return_type, fn.library_name)
        if format_function is not None:
            lines.append(format_function(shown))
        elif description_noise_type == "empty":
            lines.append(f"def {fn.library_name}.{new_name}({', '.join(args)})")
        else:
            lines.append(
                f"def {fn.library_name}.{new_name}({', '.join(args)}):\n{indent_text}{quote}{doc}{quote}"
            )

    simultaneous = fixes.simultaneous_rename
    sections = [f"{intro}\n\n{joiner.join(lines)}"]
    for text, shot_target in shot_blocks:
        shot_target = (
            rename(shot_target, mapping, simultaneous=simultaneous)
            if fixes.rename_fewshot_targets
            else shot_target
        )
        sections.append(f"{text}return {shot_target}\n[END]")
    prompt = section_joiner.join([*sections, task])

    target = "return " + rename(main.readable(), mapping, simultaneous=simultaneous)
    calls = [f"{p}={d.dummy}" for p, d in zip(main.outer_names, main.params, strict=True)]
    if main.style == "class":
        calls.append(f"{main.root_name}={main.root_name}")
    test = "\n".join(
        [
            f"# signature = def {name}({arglist}):",
            f"# indent = '{indent_text}'",
            f"{main.root_name} = Dummy()",
            f"# style = '{'import_style' if main.style == 'import' else 'class_style'}'",
            f"x = {name}({', '.join(calls)})",
            f"y = {rename(main.call, mapping, simultaneous=simultaneous)}",
            "assert x == y, f'Test failure: {x} != {y}'",
        ]
    )
    return TestCase(prompt=prompt, target=target, test=test, api_args=api_args, fixes=fixes.on())


def _indent(indent: int | str) -> str:
    return " " * indent if isinstance(indent, int) else str(indent)
