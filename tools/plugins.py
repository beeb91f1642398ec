"""Name -> plugin registries fed by entry points: how agents, benchmarks and scripted policies are found.

A plugin comes from one of three places, tried in this order:

1. registered in this process (``register_agent(...)`` in a notebook or a test);
2. an entry point of the registry's group (``restgraph.agents``, ``restgraph.benchmarks``,
   ``restgraph.scripted``) declared by any installed distribution - restgraph's own built-ins in its
   ``pyproject.toml``, an out-of-tree package in its own. Entry points give names without importing
   anything; the one asked for is loaded on first use, so a run imports only what it runs;
3. the built-in modules (``builtins``), imported only when the owning distribution (restgraph)
   declares no entry point of the group: an editable install made before the entry points existed
   still finds its built-ins (``pip install -e .`` refreshes the metadata).

An entry point may name a module that registers the plugin on import (``chat = "restgraph.graphs.chat"``)
or the plugin object itself (``my-agent = "mypkg.agent:SPEC"``), which ``adopt`` turns into a
registration. It lives at the lowest layer because the scripted-model registry (``agents``) uses it
as well as the agent (``graphs``) and benchmark (``evals``) registries.
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable, Iterable
from importlib import import_module
from importlib.metadata import EntryPoint, entry_points
from typing import Any, Generic, TypeVar

from restgraph.tools.suggest import unknown_name

T = TypeVar("T")


class PluginLoadError(RuntimeError):
    """An entry point that names a missing module or object, or an object that is no plugin."""


def import_all(modules: Iterable[str]) -> None:
    for module in modules:
        import_module(module)


@functools.cache
def _all_declared() -> Any:
    """Every installed distribution's entry points, read once per process: a read scans all their
    metadata (~5 ms) whatever the group, and a run asks for three groups (benchmarks, agents,
    scripted policies). (Python 3.11 returns ``SelectableGroups``, 3.12+ ``EntryPoints``; both
    ``select``.)"""
    return entry_points()


@functools.cache
def _declared(group: str) -> tuple[EntryPoint, ...]:
    """``group``'s entry points (a listing asks a few times per registry)."""
    return tuple(_all_declared().select(group=group))


def declared_names(group: str) -> list[str]:
    """The names the installed distributions declare in ``group`` (nothing imported)."""
    return sorted({ep.name for ep in _declared(group)})


class Registry(Generic[T]):
    """Plugins of one kind by name. ``adopt(name, obj)`` returns the plugin an entry point's object
    stands for (or None if the object is a module that registered itself on import)."""

    def __init__(
        self,
        group: str,
        what: str,
        *,
        adopt: Callable[[str, Any], T | None],
        builtins: Callable[[], None] | None = None,
        owner: str = "restgraph",
    ):
        self.group, self.what, self.owner = group, what, owner
        self._adopt = adopt
        self._builtins = builtins
        self._builtins_loaded = False
        self._items: dict[str, T] = {}

    # -- discovery -------------------------------------------------------------------------------
    def entry_points(self) -> dict[str, EntryPoint]:
        """Declared names -> entry points (nothing imported). The first declaration of a name wins."""
        found: dict[str, EntryPoint] = {}
        for ep in _declared(self.group):
            found.setdefault(ep.name, ep)
        return found

    def _stale(self, declared: dict[str, EntryPoint]) -> bool:
        """The owner's own metadata declares nothing here: it predates the entry points."""
        return not any(ep.dist is not None and ep.dist.name == self.owner for ep in declared.values())

    def owned_entry_points(self) -> dict[str, str]:
        """Names the owner's own metadata declares -> their entry-point values (nothing imported)."""
        return {
            name: ep.value
            for name, ep in self.entry_points().items()
            if ep.dist is not None and ep.dist.name == self.owner
        }

    def loaded(self, name: str) -> T | None:
        """The plugin if it is already loaded or registered in this process (never loads one)."""
        return self._items.get(name)

    def register(self, name: str, plugin: T) -> T:
        self._items[name] = plugin
        return plugin

    def names(self) -> list[str]:
        """Every known name, without importing any plugin (unless the metadata is stale)."""
        declared = self.entry_points()
        if self._stale(declared):
            self.load_builtins()
        return sorted(set(self._items) | set(declared))

    # -- loading ---------------------------------------------------------------------------------
    def get(self, name: str) -> T:
        """The plugin called ``name``, loading its entry point (or the built-ins) on first use.

        Raises ``KeyError`` with a one-line message listing the known names.
        """
        if name in self._items:
            return self._items[name]
        declared = self.entry_points()
        if name in declared:
            self._load(name, declared[name])
        elif self._stale(declared):
            self.load_builtins()
        if name not in self._items:
            self._unknown(name)
        return self._items[name]

    def check(self, name: str) -> None:
        """``get``'s ``KeyError`` for a name nobody declares or registered, without loading any plugin
        (the CLI rejects a misspelt name before paying for imports)."""
        if name not in self._items and name not in self.names():
            self._unknown(name)

    def _unknown(self, name: str) -> None:
        raise KeyError(unknown_name(self.what, name, self.names()))

    def load_all(self) -> dict[str, T]:
        """Every plugin loaded (for listings); a broken entry point raises ``PluginLoadError``."""
        declared = self.entry_points()
        for name, ep in declared.items():
            if name not in self._items:
                self._load(name, ep)
        if self._stale(declared):
            self.load_builtins()
        return dict(sorted(self._items.items()))

    def load_builtins(self) -> None:
        if self._builtins is not None and not self._builtins_loaded:
            self._builtins_loaded = True
            self._builtins()

    def _load(self, name: str, ep: EntryPoint) -> None:
        try:
            obj = ep.load()
        except Exception as exc:
            raise PluginLoadError(
                f"{self.what} {name!r}: entry point {ep.value!r} ({self.group}) does not load: {type(exc).__name__}: {exc}"
            ) from exc
        plugin = None if isinstance(obj, types.ModuleType) else self._adopt(name, obj)
        if plugin is not None:
            self._items[name] = plugin
        if name not in self._items:
            raise PluginLoadError(
                f"{self.what} {name!r}: entry point {ep.value!r} ({self.group}) neither is one nor registers one"
            )
