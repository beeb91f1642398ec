"""Agent registry: agent name -> graph builder.

A builder takes the chat model, the episode's environment and the run's agent options, and
returns a compiled LangGraph graph whose state has ``instruction`` as input and
``final_answer`` / ``status`` as output. ``env_kind`` says what environment the agent acts on
(``openapi``, ``browser``, ``shortcuts``, ``synthetic_api``, ``none``); a benchmark accepts the
agents whose kind it serves.

Agents are found by name through the ``restgraph.agents`` entry points (``restgraph.tools.plugins``): the
built-ins are declared in ``pyproject.toml``, and an installed package adds its own the same way.
Each agent declares its ``-A`` options as a ``restgraph.tools.options.Options`` model (``options=``); the
harness validates a run's agent options against it before any episode starts, and
``restgraph list --options NAME`` prints it. An agent registered without one takes no options.

Users add variants in a notebook with ``register_agent("my-planner", builder, env_kind=...)``
without touching the package.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from restgraph.tools.options import NoOptions, Options, validate_options
from restgraph.tools.plugins import Registry

if TYPE_CHECKING:  # the CLI reads names and options without loading LangChain or LangGraph
    from langchain_core.language_models import BaseChatModel
    from langgraph.graph.state import CompiledStateGraph

#: returns the compiled graph (``graph.compile()``); the environment is whatever the agent's ``env_kind`` provides
Builder = Callable[["BaseChatModel | None", Any, dict[str, Any]], "CompiledStateGraph"]


@dataclass(frozen=True)
class AgentSpec:
    name: str
    builder: Builder
    env_kind: str
    description: str = ""
    #: False for agents that never call a model (oracle, replay)
    needs_model: bool = True
    #: True for agents that read ``task.gold`` (oracle, replay); the runner puts it in ``state["gold"]``
    needs_gold: bool = False
    defaults: dict[str, Any] = field(default_factory=dict)
    #: the LangGraph step budget an episode needs for the given agent options (None: the runner's default)
    step_budget: Callable[[dict[str, Any]], int] | None = None
    #: ``describe(options, model_spec, model_options)``: what the agent sends, for ``config.json``
    describe: Callable[[dict[str, Any], str, dict[str, Any]], dict[str, Any]] | None = None
    #: the ``-A`` options it takes (names, types, defaults, help)
    options_model: type[Options] = NoOptions
    #: compiled once per run (``build(None, None, options)``); each episode's model and
    #: environment arrive through the runtime context (``restgraph.graphs.episode_context``)
    per_run: bool = False

    def check_options(self, values: dict[str, Any] | None) -> Options:
        """The run's agent options validated (``restgraph.tools.options.OptionError`` names a bad key)."""
        return validate_options(
            self.options_model, {**self.defaults, **(values or {})}, what=f"agent {self.name}"
        )

    def settings(
        self, options: dict[str, Any] | None, model_spec: str, model_options: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """The options the agent runs with (defaults filled in) and, if it says, its requests."""
        merged = {
            **self.options_model.model_validate({**self.defaults, **(options or {})}).model_dump(mode="json"),
            **self.defaults,
            **(options or {}),
        }
        return {**merged, **(self.describe(merged, model_spec, model_options or {}) if self.describe else {})}

    def build(
        self, model: BaseChatModel | None, env: Any, options: dict[str, Any] | None = None
    ) -> CompiledStateGraph:
        return self.builder(model, env, {**self.defaults, **(options or {})})


def _adopt(name: str, obj: Any) -> AgentSpec | None:
    """An entry point naming an ``AgentSpec`` object registers it under the entry point's name."""
    return dataclasses.replace(obj, name=name) if isinstance(obj, AgentSpec) else None


def _load_builtins() -> None:
    import restgraph.graphs.builtin  # noqa: F401  (imports every agent module of the package)


_AGENTS: Registry[AgentSpec] = Registry("restgraph.agents", "agent", adopt=_adopt, builtins=_load_builtins)


def register_agent(
    name: str,
    builder: Builder,
    *,
    env_kind: str,
    description: str = "",
    needs_model: bool = True,
    needs_gold: bool = False,
    defaults: dict[str, Any] | None = None,
    step_budget: Callable[[dict[str, Any]], int] | None = None,
    describe: Callable[[dict[str, Any], str, dict[str, Any]], dict[str, Any]] | None = None,
    options: type[Options] = NoOptions,
    per_run: bool = False,
) -> AgentSpec:
    return _AGENTS.register(
        name,
        AgentSpec(
            name,
            builder,
            env_kind,
            description,
            needs_model,
            needs_gold,
            dict(defaults or {}),
            step_budget,
            describe,
            options,
            per_run,
        ),
    )


def agent_names(env_kind: str | None = None) -> list[str]:
    """Every agent's name (entry points and registrations, nothing imported); with ``env_kind``,
    the agents of that kind (which loads them all)."""
    if env_kind is None:
        return _AGENTS.names()
    return [n for n, s in _AGENTS.load_all().items() if s.env_kind == env_kind]


def all_agents() -> dict[str, AgentSpec]:
    """Every agent loaded, by name (for listings)."""
    return _AGENTS.load_all()


def check_agent(name: str) -> None:
    """``KeyError`` (naming the known ones) if no agent is called ``name``; nothing imported."""
    _AGENTS.check(name)


def get_agent(name: str) -> AgentSpec:
    """The agent called ``name``, importing only its module; ``KeyError`` names the known ones."""
    return _AGENTS.get(name)
