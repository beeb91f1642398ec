"""The two ready-made role sets (``UPSTREAM``, ``RESTGRAPH``) and how an episode's set is chosen.

``roles_for(config, roles)`` is the set an episode runs: start from ``config.prompt_pack``'s set
(or from ``roles`` when it is a whole :class:`RoleSet`); a template override moves the one role
that template belongs to onto the template's pack (``template_names.py``), nothing else; then the
user's roles (a mapping of name -> ``Role`` or ``act`` function) replace theirs. ``record(...)``
is what config.json and each trace say about it: per role, its pack and name, and a hash of every
custom act and overridden template, so two runs' differences can be read from their records.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import partial
from typing import Any

from restgraph.agents.restgpt import baseline_roles, parser, roles
from restgraph.agents.restgpt.config import RestGPTConfig
from restgraph.agents.restgpt.role import Role, RoleFn, RoleSet, as_role
from restgraph.agents.restgpt.template_names import ROLE_NAMES, template_name
from restgraph.agents.restgpt.upstream import roles as upstream
from restgraph.agents.restgpt.upstream.baselines import upstream_frame


def _pack(name: str, acts: Mapping[str, RoleFn], **conventions: Any) -> RoleSet:
    return RoleSet(
        {
            role: Role(act, pack=name, name=f"{name}.{role}", custom=False, **conventions)
            for role, act in acts.items()
        }
    )


_BASELINES = (
    "reflect",
    "deps_plan",
    "deps_select",
    "deps_describe",
    "deps_explain",
    "offline_plan",
    "offline_answer",
)
_PLANNING = ("deps_plan", "deps_select", "offline_plan")

#: this project's roles (``prompts/*.txt``)
RESTGRAPH = _pack(
    "restgraph",
    {
        "planner": roles.planner,
        "selector": roles.selector,
        "caller": roles.caller,
        "parser": parser.parse,
        **{name: getattr(baseline_roles, name) for name in _BASELINES},
    },
)

#: RestGPT's own prompts, assembly and conventions (``upstream/``); the baselines' planning roles
#: framed from RestGPT's selector, every baseline role on RestGPT's text protocol
UPSTREAM = _pack(
    "upstream",
    {
        "planner": upstream.planner,
        "selector": upstream.selector,
        "caller": upstream.caller,
        "parser": upstream.parse,
        **{
            name: partial(
                getattr(baseline_roles, name),
                text_protocol=True,
                **({"frame": upstream_frame} if name in _PLANNING else {}),
            )
            for name in _BASELINES
        },
    },
    match=upstream.match,
    transcript=upstream.transcript,
    accepts=upstream.accepts,
)

PACKS: dict[str, RoleSet] = {"upstream": UPSTREAM, "restgraph": RESTGRAPH}


def _moved(config: RestGPTConfig) -> dict[str, str]:
    """role -> the pack its overridden templates belong to (an error if they name both packs)."""
    out: dict[str, str] = {}
    for key in config.prompts:
        name = template_name(key)
        if out.setdefault(name.role, name.pack) != name.pack:
            raise ValueError(
                f"prompts override the {name.role} role's templates of both packs ({key} is {name.pack}'s); "
                "give the templates of one pack"
            )
    return out


def roles_for(config: RestGPTConfig, custom: RoleSet | Mapping[str, Role | RoleFn] | None = None) -> RoleSet:
    """The role set of an episode whose config is resolved for its scenario (``for_scenario``)."""
    if config.prompt_pack is None:
        raise ValueError("resolve the config for the episode's scenario first (RestGPTConfig.for_scenario)")
    base = custom if isinstance(custom, RoleSet) else PACKS[config.prompt_pack]
    replaced = {} if isinstance(custom, RoleSet) else dict(custom or {})
    unknown = sorted(set(replaced) - set(ROLE_NAMES))
    if unknown:
        raise ValueError(f"no role {', '.join(unknown)}; RestGPT-family roles: {', '.join(ROLE_NAMES)}")
    chosen = dict(base.roles)
    for role, pack in _moved(config).items():
        current = chosen.get(role)
        if current is None or current.pack == pack:
            continue
        if current is not PACKS.get(current.pack, RoleSet()).roles.get(role):
            raise ValueError(
                f"the {role} role is {current.label()}, not a {pack} role: a {pack} template cannot override it"
            )
        chosen[role] = PACKS[pack][role]
    for role, value in replaced.items():
        chosen[role] = as_role(value, chosen.get(role) or PACKS[config.prompt_pack][role])
    return RoleSet(chosen)


def record(config: RestGPTConfig, role_set: RoleSet, used: Iterable[str]) -> dict[str, Any]:
    """Per used role: its pack, its name, and the hash of a custom act and of each overridden template."""
    overridden: dict[str, dict[str, str]] = {}
    for key, text in config.prompts.items():
        name = template_name(key)
        overridden.setdefault(name.role, {})[name.name] = config.prompt_override(name.name) or text
    return {role: role_set[role].record(overridden.get(role, {})) for role in used if role in role_set}
