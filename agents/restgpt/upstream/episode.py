"""What upstream-pack roles read of the episode beyond the protocol: upstream's own reduction of the
spec, the official base URL, and templates with the user's overrides.

Functions of a ``RoleContext``, shared by the roles (``roles.py``), the response parser
(``parser.py``) and the baselines' planning prompts (``baselines.py``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from restgraph.agents.restgpt.context import RoleContext
from restgraph.agents.restgpt.llm import RoleReply
from restgraph.agents.restgpt.upstream import assembly, source
from restgraph.agents.restgpt.upstream.reduce import UpstreamEndpoint, endpoint_listing, reduce_upstream

_REDUCED: dict[tuple[Any, ...], list[UpstreamEndpoint]] = {}


def upstream_endpoints(spec: dict[str, Any], scenario: str) -> list[UpstreamEndpoint]:
    """Upstream's reduction of the environment's spec, once per process and spec (Spotify merges ``allOf``)."""
    info = spec.get("info") or {}
    key = (scenario, info.get("title"), info.get("version"), tuple(spec.get("paths", {})))
    if key not in _REDUCED:
        if len(_REDUCED) > 16:
            _REDUCED.clear()
        _REDUCED[key] = reduce_upstream(spec, merge_allof=scenario == "spotify")
    return _REDUCED[key]


def endpoints(ep: RoleContext) -> list[UpstreamEndpoint]:
    return upstream_endpoints(ep.env.spec, ep.scenario)


def listing(ep: RoleContext, only: Collection[str] | None = None) -> str:
    """The selector's ``{endpoints}`` (``only``: these ``METHOD /path`` keys, in the spec's order)."""
    shown = endpoints(ep) if only is None else [e for e in endpoints(ep) if e.name in only]
    return endpoint_listing(shown)


def docs(ep: RoleContext, name: str) -> dict[str, Any]:
    return next((e.docs for e in endpoints(ep) if e.name == name), {"description": None})


def api_url(ep: RoleContext) -> str:
    """The official base URL the original deployment showed (the HTTP tool maps it onto the sandbox)."""
    servers = ep.spec.servers or [{"url": ep.base_url}]
    return str(servers[0].get("url") or ep.base_url)


def override(ep: RoleContext, variable: str) -> str | None:
    """The user's text for upstream template ``variable``, if any."""
    return ep.config.prompts.get(variable) and ep.config.prompt_override(variable)


def template(ep: RoleContext, file: str, variable: str, **values: Any) -> str:
    return assembly.fill(override(ep, variable) or source.template(file, variable), **values)


async def ask(
    ep: RoleContext,
    role: str,
    prompt: str,
    *,
    schema: Any = None,
    text_parser: Any = None,
    stop: Sequence[str] = (),
) -> RoleReply:
    """One upstream-style call: the whole prompt as one user message, RestGPT's text protocol unless
    ``structured=1``."""
    return await ep.call(
        role,
        "",
        prompt,
        structured=bool(ep.config.structured),
        schema=schema,
        text_parser=text_parser,
        stop=stop,
    )
