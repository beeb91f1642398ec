"""Synthetic libraries: function signatures plus English documentation, with no implementation.

The registry maps a *registry id* (``solids2``, ``image``, ...) to an ``APITask``. Several ids may
share one ``library_name`` (``solids1``..``solids4`` are all ``solids`` in code and prompts).
``Function.return_type`` names a registry id; chained calls resolve in it.

The built-in tables are constructed here from the spec (api_use.md section 1.2) rather than read
from a data folder, so generation does not depend on the working directory (upstream read
``api_use_tasks/json_tasks`` relative to the cwd). ``tests/api_use`` checks them against the
shipped ``libraries.json`` and ``image.json``. Upstream bug B6 (melody functions named
``get_atom_with_*`` returning ``atom``) is reproduced unless ``fixed_melody`` is asked for.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel


class Function(NamedTuple):
    """One API function. ``args`` is always a tuple; ``return_type`` is a registry id."""

    name: str
    definition: str
    args: tuple[str, ...]
    return_type: str
    library_name: str


class APITask(BaseModel):
    """A synthetic library: ``style`` is ``import`` (module functions) or ``class`` (methods)."""

    id: str
    library_name: str
    functions: list[Function]
    style: Literal["import", "class"]

    def get(self, name: str) -> Function | None:
        return next((f for f in self.functions if f.name == name), None)


SOLIDS = {
    "solids1": (("tetrahedron", "cube", "octahedron", "sphere", "prism"), ("radius",)),
    "solids2": (("cylinder", "capsule", "cone", "prism", "parallelepiped"), ("radius", "height")),
    "solids3": (("cylinder", "capsule", "cone", "prism", "parallelepiped"), ("length", "width", "height")),
    "solids4": (
        ("cylinder", "capsule", "cone", "prism", "parallelepiped"),
        ("length", "width", "height", "depth"),
    ),
}
ATOM_ATTRS = (
    "atomic_num",
    "atomic_weight",
    "quantum_number",
    "electronegativity",
    "ionization_energy",
    "affinity",
)
NOTE_ATTRS = ("pitch", "volume", "velocity", "articulation", "length", "tuning")


def _join_and(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _solids(rid: str) -> APITask:
    solids, args = SOLIDS["solids2" if rid == "solids" else rid]
    placeholders = _join_and([f"[{a}|{a}]" for a in args])
    functions = [
        Function(
            f"{kind.replace(' ', '_')}_of_{solid}",
            f"Calculates the {kind} of a {solid} with {placeholders}.",
            args,
            "float",
            "solids",
        )
        for kind in ("volume", "surface area")
        for solid in solids
    ]
    return APITask(id=rid, library_name="solids", functions=functions, style="import")


def _container(rid: str, item: str, attrs: tuple[str, ...], *, fixed: bool) -> APITask:
    """``molecule``/``melody``: ``get_<item>_with_<attr>(<attr>)``; the melody names are B6."""
    if rid == "molecule" or fixed:
        name, ret, article = item, item, "an" if item[0] in "aeiou" else "a"
    else:  # B6: melody functions carry the molecule names and return ``atom``
        name, ret, article = "atom", "atom", "a"
    functions = []
    for attr in attrs:
        spaced = attr.replace("_", " ")
        placeholder = attr if fixed else "attr"  # B7: upstream used the id ``attr``, not the argument name
        functions.append(
            Function(
                f"get_{name}_with_{attr}",
                f"Returns {article} {item} in the {rid} with [{spaced}|{placeholder}].",
                (attr,),
                ret,
                rid,
            )
        )
    return APITask(id=rid, library_name=rid, functions=functions, style="class")


def _getters(rid: str, attrs: tuple[str, ...]) -> APITask:
    functions = [
        Function(f"get_{a}", f"Returns the {a.replace('_', ' ')} of the {rid}.", (), "float", rid)
        for a in attrs
    ]
    return APITask(id=rid, library_name=rid, functions=functions, style="class")


IMAGE_JSON: dict[str, Any] = {
    "id": "image",
    "library_name": "image",
    "style": "class",
    "functions": [
        {"function_name": n, "documentation": d, "arglist": a, "return_type": r}
        for n, d, a, r in (
            ("rotate", "returns the image rotated by [number of degrees|degrees]", ["degrees"], "image"),
            ("flip_horizontal", "returns the image flipped horizontally", [], "image"),
            ("flip_vertical", "returns the image flipped vertically", [], "image"),
            ("blur", "returns the image blurred by [number of pixels|pixels]", ["pixels"], "image"),
            ("distort", "returns the image distorted by [number of pixels|pixels]", ["pixels"], "image"),
            ("get_width", "gets the width of the image", [], "float"),
            ("get_height", "gets the height of the image", [], "float"),
            ("compress", "returns a compressed version of the image", [], "image"),
        )
    ],
}


def library_from_json(obj: dict[str, Any] | str | Path) -> APITask:
    """A library in the upstream JSON form (``image.json``): function_name/documentation/arglist."""
    data: dict[str, Any] = obj if isinstance(obj, dict) else json.loads(Path(obj).read_text(encoding="utf-8"))
    try:
        functions = [
            Function(
                f["function_name"],
                f["documentation"],
                tuple(f["arglist"]),
                f["return_type"],
                data["library_name"],
            )
            for f in data["functions"]
        ]
        return APITask(
            id=data["id"], library_name=data["library_name"], functions=functions, style=data["style"]
        )
    except KeyError as exc:
        raise ValueError(
            f"library JSON is missing the field {exc}; expected id, library_name, style, "
            "functions[function_name, documentation, arglist, return_type]"
        ) from exc


def builtin_libraries(*, fixed_melody: bool = False) -> dict[str, APITask]:
    """The ten built-in registry entries, in upstream registration order."""
    libs = [
        _container("molecule", "atom", ATOM_ATTRS, fixed=fixed_melody),
        _getters("atom", ATOM_ATTRS),
        _container("melody", "note", NOTE_ATTRS, fixed=fixed_melody),
        _getters("note", NOTE_ATTRS),
        _solids("solids1"),
        _solids("solids2"),
        _solids("solids"),
        _solids("solids3"),
        _solids("solids4"),
        library_from_json(IMAGE_JSON),
    ]
    return {lib.id: lib for lib in libs}


class Registry:
    """Registry id -> library. Users add their own with ``add`` (JSON dict/path or ``APITask``)."""

    def __init__(self, libraries: Iterable[APITask] | None = None, *, fixed_melody: bool = False):
        self._libs = (
            builtin_libraries(fixed_melody=fixed_melody)
            if libraries is None
            else {lib.id: lib for lib in libraries}
        )

    def add(self, library: APITask | dict[str, Any] | str | Path) -> APITask:
        lib = library if isinstance(library, APITask) else library_from_json(library)
        self._libs[lib.id] = lib
        return lib

    def __getitem__(self, rid: str) -> APITask:
        if rid not in self._libs:
            raise KeyError(f"unknown synthetic library id {rid!r}; known: {', '.join(self._libs)}")
        return self._libs[rid]

    def __contains__(self, rid: object) -> bool:
        return rid in self._libs

    def ids(self) -> list[str]:
        return list(self._libs)

    def dump(self) -> dict[str, Any]:
        """The ``libraries.json`` form: id -> {library_name, style, functions[name, documentation, args, return_type]}."""
        return {
            rid: {
                "library_name": lib.library_name,
                "style": lib.style,
                "functions": [
                    {
                        "name": f.name,
                        "documentation": f.definition,
                        "args": list(f.args),
                        "return_type": f.return_type,
                    }
                    for f in lib.functions
                ],
            }
            for rid, lib in self._libs.items()
        }


DEFAULT_REGISTRY = Registry()
FIXED_MELODY_REGISTRY = Registry(fixed_melody=True)
