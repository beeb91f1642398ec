"""The generator against the spec: exact strings, the shipped files' published facts, bugs and fixes."""

from __future__ import annotations

import hashlib
import json
import random
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from restgraph.tools.synthetic_api import DEFAULT_REGISTRY, Fixes, Registry, get_example, library_from_json
from restgraph.tools.synthetic_api.noise import derange, intersperse, rename

FILES = ("argument_fixing", "chaining", "distractors_and_positioning", "name_description")


def load(data_dir: Path, name: str) -> dict:
    return json.loads((data_dir / "api_use" / f"{name}.json").read_text())


def listed(prompt: str) -> list[str]:
    return re.findall(r"^def (\S+)\(", prompt.split("\n\n")[1], re.M)


def test_builtin_tables_match_the_shipped_dumps(data_dir: Path) -> None:
    assert DEFAULT_REGISTRY.dump() == json.loads((data_dir / "api_use" / "libraries.json").read_text())
    assert list(DEFAULT_REGISTRY.dump()) == list(
        json.loads((data_dir / "api_use" / "libraries.json").read_text())
    )
    assert library_from_json(data_dir / "api_use" / "image.json") == DEFAULT_REGISTRY["image"]


def test_spec_example_byte_for_byte(data_dir: Path) -> None:
    tc = get_example(**load(data_dir, "distractors_and_positioning")["solids-volume_of_cone-2-1"])
    doc = "Calculates the {} of a {} with the given radius and the given height."
    assert tc.prompt == (
        "Consider the following functions:\n\n"
        f"def solids.volume_of_prism(radius, height):\n    {doc.format('volume', 'prism')}\n"
        f"def solids.volume_of_cone(radius, height):\n    {doc.format('volume', 'cone')}\n"
        f"def solids.surface_area_of_cylinder(radius, height):\n    {doc.format('surface area', 'cylinder')}\n\n"
        "Write a function that gets the volume of a cone with the given radius and height.\n[BEGIN]\nimport solids\n"
        "def get_volume_of_cone(radius, height):\n    "
    )
    assert tc.target == "return solids.volume_of_cone(radius, height)"
    assert tc.test == (
        "# signature = def get_volume_of_cone(radius, height):\n# indent = '    '\nsolids = Dummy()\n# style = 'import_style'\n"
        'x = get_volume_of_cone(radius="dummy_radius_0", height="dummy_height_1")\n'
        'y = solids.volume_of_cone("dummy_radius_0", "dummy_height_1")\n'
        "assert x == y, f'Test failure: {x} != {y}'"
    )


def test_all_952_cases_generate_with_the_published_facts(data_dir: Path) -> None:
    """Counts, prompt lengths 307-2015, B3 duplicates (345 = 332 + 13) and B2 (all 35 swap cases)."""
    sizes, lengths, duplicated = {}, [], Counter()
    swap_cases = swap_targets_with_cone_doc = 0
    for name in FILES:
        cases = load(data_dir, name)
        sizes[name] = len(cases)
        for options in cases.values():
            tc = get_example(**options)
            lengths.append(len(tc.prompt))
            names = listed(tc.prompt)
            duplicated[name] += len(names) != len(set(names))
            if options.get("function_noise_type") == "swap":
                swap_cases += 1
                target_fn = re.search(r"solids\.(\w+)\(", tc.target).group(1)
                doc = re.search(rf"^def solids\.{target_fn}\(.*\n\s*(.*)$", tc.prompt, re.M).group(1)
                swap_targets_with_cone_doc += "volume of a cone" in doc
    assert sizes == {
        "argument_fixing": 581,
        "chaining": 160,
        "distractors_and_positioning": 36,
        "name_description": 175,
    }
    assert (min(lengths), max(lengths)) == (307, 2015)
    assert duplicated == Counter({"argument_fixing": 332, "chaining": 13})
    assert swap_cases == 35 and swap_targets_with_cone_doc == 0


def test_generation_is_independent_of_hash_seed_and_global_rng(data_dir: Path) -> None:
    script = (
        "import hashlib, json, sys\nfrom tools.synthetic_api import get_example\n"
        f"cases = json.load(open({str(data_dir / 'api_use' / 'chaining.json')!r}))\n"
        "h = hashlib.sha256()\n"
        "for o in cases.values():\n    t = get_example(**o)\n    h.update((t.prompt + t.target + t.test).encode())\n"
        "print(h.hexdigest())"
    )
    digests = {
        subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).parents[2],
            env={"PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin"},
        ).stdout
        for seed in ("0", "12345")
    }
    assert len(digests) == 1
    random.seed(7)
    before = random.random()
    random.seed(7)
    get_example("solids2.volume_of_cone()", "x", num_distractors=3, function_noise_type="swap")
    assert random.random() == before


def test_signature_compilation_chains_nested_calls_and_class_style() -> None:
    tc = get_example(
        "image.rotate(degrees=d).distort(pixels=image.get_width()).blur()", "does things", func_name="g"
    )
    assert tc.target == "return image.rotate(d).distort(image.get_width()).blur(pixels)"
    assert tc.prompt.endswith("def g(image, d, pixels):\n    ")
    assert 'x = g(d="dummy_degrees_0", pixels="dummy_pixels_2", image=image)' in tc.test
    assert 'y = image.rotate("dummy_degrees_0").distort(image.get_width()).blur("dummy_pixels_2")' in tc.test
    dup = get_example("image.blur().blur(pixels=3).blur()", "blurs", func_name="b")
    assert dup.target == "return image.blur(pixels1).blur(3).blur(pixels2)"
    chained = get_example(
        "molecule.get_atom_with_atomic_weight(atomic_weight=75).get_atomic_num()", "gets it"
    )
    assert chained.target == "return molecule.get_atom_with_atomic_weight(75).get_atomic_num()"
    with pytest.raises(AssertionError):
        get_example("solids2.volume_of_torus()", "x")
    with pytest.raises(AssertionError):
        get_example("solids2.volume_of_cone(depth=3)", "x")


def test_options_formatting() -> None:
    tc = get_example(
        "solids2.volume_of_cone(height='7')",
        "gets a volume",
        func_name="f(r)",
        indent="\t",
        use_quotes=True,
        intro="Functions:",
        begin_token="<code>",
        task_description_preamble="Please ",
        joiner="\n--\n",
    )
    assert tc.prompt == (
        'Functions:\n\ndef solids.volume_of_cone(radius, height):\n\t"""Calculates the volume of a cone with the given radius and '
        'the given height."""\n\nPlease gets a volume.\n<code>\nimport solids\ndef f(r):\n\t'
    )
    assert tc.target == 'return solids.volume_of_cone(radius, "7")'
    numbered = get_example(
        "solids3.volume_of_cone()", "v", arg_noise_type="number", description_noise_type="none"
    )
    assert (
        "def solids.volume_of_cone(arg0, arg1, arg2):\n    Calculates the volume of a cone with the length arg0, the width arg1 and the height arg2."
        in numbered.prompt
    )
    empty = get_example("solids2.volume_of_cone()", "v", description_noise_type="empty", num_distractors=1)
    assert "Calculates" not in empty.prompt and re.search(
        r"^def solids\.\w+\(radius, height\)$", empty.prompt, re.M
    )
    ordered = get_example("solids3.volume_of_cone()", "v", arg_order=[2, 0, 1])
    assert ordered.prompt.endswith("def func(height, length, width):\n    ")
    custom = get_example("solids2.volume_of_cone()", "v", format_function=lambda f: f"* {f.name}{f.args}")
    assert "* volume_of_cone('radius', 'height')" in custom.prompt


def test_placement_and_distractor_counts() -> None:
    assert intersperse(["T1", "T2"], list("abcde")) == ["a", "T1", "b", "T2", "c", "d", "e"]
    assert intersperse(["T"], []) == ["T"]
    for i in range(4):
        tc = get_example("solids2.volume_of_cone()", "v", num_distractors=3, target_func_location=i)
        assert listed(tc.prompt)[i] == "solids.volume_of_cone"
    floated = get_example("solids2.volume_of_cone()", "v", num_distractors=4, target_func_location=0.5)
    assert listed(floated.prompt)[2] == "solids.volume_of_cone"
    with pytest.raises(AssertionError):
        get_example("solids2.volume_of_cone()", "v", num_distractors=10)


def test_documented_bugs_raise_like_upstream() -> None:
    with pytest.raises(AssertionError):  # B6: melody functions return atom, so .get_pitch() is not found
        get_example("melody.get_atom_with_pitch().get_pitch()", "x")
    with pytest.raises(KeyError):  # B7: placeholder id 'attr' is not an argument name
        get_example("molecule.get_atom_with_affinity()", "x", arg_noise_type="number")
    with pytest.raises(AssertionError):  # B10 dict location
        get_example("solids2.volume_of_cone()", "x", target_func_location={"solids2": 0})
    with pytest.raises(AssertionError):  # B10: int location with two targets
        get_example("image.rotate().blur()", "x", target_func_location=0)
    with pytest.raises(AssertionError):  # B11
        get_example("solids2.volume_of_cone()", "x", function_noise_type="semantic_shuffle")
    with pytest.raises(ValueError):  # B11
        get_example("solids2.volume_of_cone()", "x", fewshot_style="repeat")
    with pytest.raises(TypeError):  # B9: a few-shot-only id in a dict num_distractors
        get_example(
            "solids2.volume_of_cone()",
            "x",
            num_distractors={"image": 1},
            fewshot=[{"signature": "image.compress()", "description": "c"}],
        )
    # B9: libraries missing from the dict lose their targets from the prompt
    lost = get_example("solids2.volume_of_cone()", "x", num_distractors={}, fewshot=[])
    assert listed(lost.prompt) == []
    kept = get_example(
        "solids2.volume_of_cone()", "x", num_distractors={}, fixed={"dict_distractors_keep_targets": True}
    )
    assert listed(kept.prompt) == ["solids.volume_of_cone"]


def test_fixed_mode_corrects_the_bugs(data_dir: Path) -> None:
    fixed_melody = get_example("melody.get_note_with_pitch(pitch=3).get_pitch()", "x", fixed=True)
    assert fixed_melody.target == "return melody.get_note_with_pitch(3).get_pitch()"
    numbered = get_example(
        "molecule.get_atom_with_affinity()", "x", arg_noise_type="number", fixed=Fixes(fixed_melody=True)
    )
    assert "the affinity arg0" in numbered.prompt
    for options in load(data_dir, "name_description").values():
        if options.get("function_noise_type") == "swap":  # B1 + B2 fixed: target's listed doc is the cone's
            tc = get_example(**options, fixed=True)
            target_fn = re.search(r"solids\.(\w+)\(", tc.target).group(1)
            assert "volume of a cone" in re.search(
                rf"^def solids\.{target_fn}\(.*\n\s*(.*)$", tc.prompt, re.M
            ).group(1)
            assert tc.fixes == sorted(Fixes.model_fields) or set(tc.fixes) == set(Fixes.model_fields)
    for options in load(data_dir, "argument_fixing").values():  # B3 fixed: no function listed twice
        names = listed(get_example(**options, fixed={"exclude_fewshot_from_distractors": True}).prompt)
        assert len(names) == len(set(names))


def test_noise_helpers() -> None:
    rng = random.Random(0)
    assert all(a != b for a, b in zip("abcde", derange("abcde", rng, true_derangement=True), strict=True))
    assert derange(["x"], rng) == ["x"]
    with pytest.raises(ValueError):  # upstream loops forever here (B15)
        derange(["a", "a"], rng)
    cascade = {"volume_of_cone": "surface_area_of_prism", "surface_area_of_prism": "surface_area_of_cone"}
    assert rename("s.volume_of_cone()", cascade) == "s.surface_area_of_cone()"
    assert rename("s.volume_of_cone()", cascade, simultaneous=True) == "s.surface_area_of_prism()"


def test_user_defined_library() -> None:
    registry = Registry()
    registry.add(
        {
            "id": "bank",
            "library_name": "bank",
            "style": "import",
            "functions": [
                {
                    "function_name": "deposit",
                    "documentation": "puts [money|amount] in",
                    "arglist": ["amount"],
                    "return_type": "float",
                },
                {
                    "function_name": "withdraw",
                    "documentation": "takes [money|amount] out",
                    "arglist": ["amount"],
                    "return_type": "float",
                },
            ],
        }
    )
    tc = get_example("bank.deposit(amount=5)", "deposits five", registry=registry, num_distractors=1)
    assert listed(tc.prompt) == ["bank.withdraw", "bank.deposit"] or listed(tc.prompt) == [
        "bank.deposit",
        "bank.withdraw",
    ]
    assert "puts the given money in" in tc.prompt and tc.target == "return bank.deposit(5)"


def _upstream_derange(items: list, rng: random.Random) -> list:
    """Upstream's loop as the spec (B1) and the issue describe it: copy once, then shuffle that same
    copy in place until its first item differs from the original's first item."""
    if len(items) == 1:
        return items
    randomized = items[:]
    while True:
        rng.shuffle(randomized)
        if randomized[0] != items[0]:
            return randomized


def _fresh_copy_derange(items: list, rng: random.Random) -> list:
    """The pre-fix behaviour (a fresh copy per try), kept here only to show the test discriminates."""
    while True:
        shuffled = items[:]
        rng.shuffle(shuffled)
        if shuffled[0] != items[0]:
            return shuffled


@pytest.mark.parametrize("size", [2, 3, 4, 5, 8])
def test_faithful_derange_is_upstreams_in_place_reshuffle(size: int) -> None:
    items = [f"f{i}" for i in range(size)]
    differs_from_fresh_copy = 0
    for seed in range(2000):
        ours, ref, fresh = random.Random(seed), random.Random(seed), random.Random(seed)
        assert derange(items, ours) == _upstream_derange(items, ref), seed
        assert ours.random() == ref.random(), seed  # the same number of draws: later draws stay aligned
        differs_from_fresh_copy += derange(items, random.Random(seed)) != _fresh_copy_derange(items, fresh)
    if size > 2:  # with 2 items every shuffle that moves the first item is the same swap
        assert differs_from_fresh_copy > 0


#: sha256 over (key, prompt, target, test) of every published case, recorded before the in-place
#: derange fix and unchanged by it (regression guard: the shipped cases must never move)
PUBLISHED_DIGESTS = {
    "argument_fixing": "7d81cc15ec6c0e34a7246acbde68127e191d95a5120b37f32711fca239317c11",
    "chaining": "ef058383d6e17301a16a2731e1b8212466fd16ecd6d389c0db69829761716751",
    "distractors_and_positioning": "2a542449dfefc2c6002fe10e0726ec26526e1e17b1495ed8d027fdae6af0e848",
    "name_description": "3fba739262f344ca5c9ddf99d64ef440f8ae24a585756caa5d163dc145257151",
}


def test_published_cases_stay_byte_identical(data_dir: Path) -> None:
    for name, expected in PUBLISHED_DIGESTS.items():
        digest = hashlib.sha256()
        for key, options in load(data_dir, name).items():
            tc = get_example(**options)
            digest.update(json.dumps([key, tc.prompt, tc.target, tc.test]).encode())
        assert digest.hexdigest() == expected, name
