"""The checker: every shipped case's target passes its own test, a wrong function fails, and the
upstream Dummy semantics (B12) hold in faithful mode while the kwargs-aware mode fixes them."""

from __future__ import annotations

import asyncio
import json
import re
import time
from pathlib import Path

from restgraph.tools.synthetic_api import build_program, execute, execute_batch, get_example
from restgraph.tools.synthetic_api.checker import execute_batch_async

FILES = ("argument_fixing", "chaining", "distractors_and_positioning", "name_description")


def wrong_function(target: str, listed: list[str]) -> str:
    """The target with its first call renamed to another listed function (or a non-existent one)."""
    name = re.search(r"\.(\w+)\(", target).group(1)
    other = next((n for n in listed if n != name), name + "_other")
    return target.replace(f".{name}(", f".{other}(", 1)


def test_all_952_targets_pass_and_wrong_functions_fail(data_dir: Path) -> None:
    items, keys = [], []
    for name in FILES:
        for key, options in json.loads((data_dir / "api_use" / f"{name}.json").read_text()).items():
            tc = get_example(**options)
            items += [(tc.target, tc.test), (wrong_function(tc.target, list(tc.api_args)), tc.test)]
            keys.append(f"{name}/{key}")
    assert len(keys) == 952
    started = time.monotonic()
    results = execute_batch(items)
    elapsed = time.monotonic() - started
    failed_targets = [k for k, (ok, _) in zip(keys, results[0::2], strict=True) if not ok]
    passed_wrong = [k for k, (ok, _) in zip(keys, results[1::2], strict=True) if ok]
    assert failed_targets == [] and passed_wrong == []
    assert all(err and err.startswith("Test failure: D<main.") for _, err in results[1::2])
    print(f"checked {len(items)} programs in {elapsed:.1f}s")


def test_faithful_dummy_semantics() -> None:
    tc = get_example("solids2.volume_of_cone(height=5)", "v", func_name="f")
    bodies = [
        "return solids.volume_of_cone(radius, 5)",  # exact
        "return solids.volume_of_cone(radius, '5')",  # str() compare: '5' == 5
        "v = solids.volume_of_cone(radius, 5)\n    print('noise')\n    return v",  # extra statements are fine
        "return solids.volume_of_cone(radius, 5.0)",  # 5.0 != 5
        "return solids.volume_of_cone(radius=radius, height=5)",  # keywords dropped (B12)
        "return solids.volume_of_cone(5, radius)",  # order matters
        "return 3",  # not a Dummy: comparing raises
        "return solids.volume_of_cone(radius,",  # syntax error
    ]
    results = execute(bodies, tc.test)
    assert [ok for ok, _ in results] == [True, True, True, False, False, False, False, False]
    assert (
        results[4][1] == "Test failure: D<main.volume_of_cone()> != D<main.volume_of_cone(dummy_radius_0,5)>"
    )
    assert results[6][1].startswith("AttributeError") and results[7][1].startswith("SyntaxError")


def test_program_layout_matches_the_spec() -> None:
    tc = get_example("solids2.volume_of_cone()", "v", func_name="f")
    program = build_program("return solids.volume_of_cone(radius, height)", tc.test)
    tail = program.split("class Dummy:", 1)[1].split("\nsolids = Dummy()\n", 1)[1]
    assert tail.startswith(
        "def f(radius, height):\n    global Dummy\n    global solids\n    return "
        "solids.volume_of_cone(radius, height)\n\n\n# style = 'import_style'\n"
    )
    image = get_example("image.blur()", "v", func_name="g")
    assert "global image" not in build_program("return image.blur(pixels)", image.test)
    assert execute("return image.blur(pixels)", image.test) == (True, None)


def test_kwargs_aware_checker_maps_keywords_and_numbers() -> None:
    tc = get_example(
        "solids3.volume_of_cone(width=2)", "v", func_name="f", fixed={"kwargs_aware_checker": True}
    )
    bodies = [
        "return solids.volume_of_cone(length=length, width=2, height=height)",
        "return solids.volume_of_cone(length, height=height, width=2.0)",
        "return solids.volume_of_cone(length, 2, height)",
        "return solids.volume_of_cone(length=length, height=height)",
    ]
    results = execute(bodies, tc.test, kwargs_aware=True, api_args=tc.api_args)
    assert [ok for ok, _ in results] == [True, True, True, False]
    assert execute(bodies[0], tc.test)[0] is False  # faithful mode: keywords are dropped


def test_checker_runs_inside_an_event_loop_and_threads() -> None:
    tc = get_example("solids2.volume_of_cone()", "v")

    async def go():
        return await execute_batch_async([(tc.target, tc.test)] * 3), execute(tc.target, tc.test)

    batch, single = asyncio.run(go())
    assert batch == [(True, None)] * 3 and single == (True, None)
