"""A role is a small object replaceable alone: what it does (``act``), where it comes from, and the
executor conventions its pack implies.

``act(ep, **inputs)`` builds the role's prompt from its template, calls the model through
``ep.call`` and returns the parsed decision (a ``RoleReply``; the parser returns the text the
caller reads). ``ep`` is the running episode (``restgraph.agents.restgpt.context.RoleContext``).
A :class:`RoleSet` maps role names to roles; the ready-made sets are in ``packs.py``. A user swaps
one role with ``roles.replace(selector=...)`` or ``build_restgpt(..., roles={"selector": fn})``:
nothing else changes, and the episode's record says which role was whose (:meth:`Role.record`).

Three roles carry a convention the executor follows, so a replacement built with
``dataclasses.replace(pack_role, act=...)`` keeps its pack's: the selector's endpoint matching
(``match``), the caller's transcript entry (``transcript``) and which responses go to the parser
(``accepts``).
"""

from __future__ import annotations

import hashlib
import inspect
import json
import marshal
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from restgraph.agents.restgpt.protocol import CallerDecision, endpoint_in_plan
from restgraph.tools.openapi.client import HttpResult
from restgraph.tools.openapi.matching import match_endpoint

RoleFn = Callable[..., Awaitable[Any]]


def digest(text: str | bytes) -> str:
    """A short content hash for records (12 hex digits of sha256)."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    return hashlib.sha256(data).hexdigest()[:12]


def code_digest(fn: Callable[..., Any]) -> str:
    """A hash of a function's source (its bytecode when the source is not available)."""
    target = inspect.unwrap(getattr(fn, "func", fn))
    try:
        return digest(inspect.getsource(target))
    except (OSError, TypeError):
        code = getattr(target, "__code__", None)
        return digest(marshal.dumps(code) if code is not None else repr(target))


def match_named(plan: str, keys: Sequence[str]) -> str | None:
    """This project's matching: the first ``METHOD /path`` of the plan, matched to a template."""
    call = endpoint_in_plan(plan)
    return match_endpoint(call[0], call[1], keys) if call else None


def transcript_entry(raw: str, decision: CallerDecision | None, observation: str) -> str:
    """How one caller step and what came back appear in this project's caller transcript."""
    if decision is None:
        return f"Thought: {raw[:300]}\nResponse: {observation}\n"
    payload: dict[str, Any] = {
        "url": decision.url,
        "description": decision.description,
        "output_instructions": decision.output_instructions,
    }
    if decision.params:
        payload["params"] = decision.params
    if decision.data is not None:
        payload["data"] = decision.data
    return (
        f"Thought: {decision.thought}\nOperation: {decision.method}\n"
        f"Input: {json.dumps(payload, ensure_ascii=False)}\nResponse: {observation}\n"
    )


def json_responses(ep: Any, result: HttpResult) -> bool:
    """This project's parser reads JSON bodies; anything else goes back to the caller as is."""
    return result.json is not None


@dataclass(frozen=True)
class Role:
    """One role: ``act`` and its provenance. ``pack`` names the ready-made set it comes from (or
    whose conventions it keeps); ``name`` says what it is (``upstream.planner``, or a user's
    function); ``custom`` is True for a user's act (its source is hashed into the record)."""

    act: RoleFn
    pack: str = "custom"
    name: str = ""
    custom: bool = True
    #: the selector's endpoint matching: (plan, endpoint keys) -> key or None
    match: Callable[[str, Sequence[str]], str | None] = match_named
    #: the caller's transcript entry: (raw reply, decision or None, observation) -> text
    transcript: Callable[[str, CallerDecision | None, str], str] = transcript_entry
    #: which successful responses the parser reads: (episode, result) -> bool
    accepts: Callable[[Any, HttpResult], bool] = json_responses

    def label(self) -> str:
        if self.name:
            return self.name
        fn = getattr(self.act, "func", self.act)
        return f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', repr(fn))}"

    def record(self, templates: Mapping[str, str] = {}) -> dict[str, Any]:
        """What an episode's record says of this role: pack, name, and the hash of a custom act
        and of each overridden template (``templates``: name -> text)."""
        out: dict[str, Any] = {"pack": self.pack, "name": self.label()}
        if self.custom:
            out["sha256"] = code_digest(self.act)
        if templates:
            out["templates"] = {name: digest(text) for name, text in sorted(templates.items())}
        return out


def as_role(value: Role | RoleFn, like: Role) -> Role:
    """A user's role: a :class:`Role` as given, or a bare ``act`` function keeping the conventions
    of the role it replaces (``like``)."""
    if isinstance(value, Role):
        return value
    if not callable(value):
        raise TypeError(f"a role must be a Role or an async function act(ep, **inputs), got {value!r}")
    return Role(
        value,
        pack=like.pack,
        name="",
        custom=True,
        match=like.match,
        transcript=like.transcript,
        accepts=like.accepts,
    )


@dataclass(frozen=True)
class RoleSet(Mapping[str, Role]):
    """Role name -> :class:`Role` (immutable; :meth:`replace` returns a new set)."""

    roles: Mapping[str, Role] = field(default_factory=dict)

    def __getitem__(self, name: str) -> Role:
        try:
            return self.roles[name]
        except KeyError:
            raise KeyError(f"no role {name!r} in this role set; it has: {', '.join(self.roles)}") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self.roles)

    def __len__(self) -> int:
        return len(self.roles)

    def replace(self, **roles: Role | RoleFn) -> RoleSet:
        """This set with the named roles swapped (a bare function keeps the replaced role's conventions)."""
        return RoleSet({**self.roles, **{k: as_role(v, self[k]) for k, v in roles.items()}})

    def only(self, names: Iterable[str]) -> RoleSet:
        return RoleSet({k: self.roles[k] for k in names if k in self.roles})
