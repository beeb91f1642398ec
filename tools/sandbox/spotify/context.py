"""Per-request context of the sandbox: the caller's session, parsed parameters and body, and the
Spotify-style validation helpers every route shares (limits, ids, markets)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from fastapi import Request

from restgraph.tools.sandbox.spotify.catalogue import Catalogue, is_base62_id
from restgraph.tools.sandbox.spotify.player import SpotifyError
from restgraph.tools.sandbox.spotify.render import Renderer
from restgraph.tools.sandbox.spotify.state import Session

_MARKET = re.compile(r"^[A-Z]{2}$")


@dataclass
class Reply:
    status: int = 200
    body: Any = None


@dataclass
class Ctx:
    request: Request
    session: Session
    cat: Catalogue
    params: dict[str, str]
    body: Any
    returned_uris: list[str] = field(default_factory=list)
    _renderer: Renderer | None = None

    @property
    def state(self):  # noqa: ANN201 - SpotifyState
        return self.session.state

    @property
    def path_params(self) -> dict[str, str]:
        return dict(self.request.path_params)

    @property
    def render(self) -> Renderer:
        if self._renderer is None:
            self._renderer = Renderer(self.cat, self.market())
        return self._renderer

    # ------------------------------------------------------------ parameters
    def market(self) -> str | None:
        market = self.params.get("market")
        if market is None:
            return None
        if market == "from_token":
            return self.state.user.country
        if not _MARKET.match(market):
            raise SpotifyError(400, "Invalid market code")
        return market

    def int_param(self, name: str, default: int, lo: int, hi: int) -> int:
        raw = self.params.get(name)
        if raw is None or raw == "":
            return default
        try:
            value = int(raw)
        except ValueError as exc:
            raise SpotifyError(400, f"Invalid {name}") from exc
        if not lo <= value <= hi:
            raise SpotifyError(400, f"Invalid {name}: must be between {lo} and {hi}")
        return value

    def limit_offset(self, default_limit: int = 20, max_limit: int = 50) -> tuple[int, int]:
        return self.int_param("limit", default_limit, 0, max_limit), self.int_param("offset", 0, 0, 100_000)

    def required(self, name: str) -> str:
        value = self.params.get(name)
        if value is None or value == "":
            raise SpotifyError(400, f"Missing required parameter: {name}")
        return value

    def id_list(
        self, *, query_name: str = "ids", body_key: str = "ids", maximum: int = 50, required: bool = True
    ) -> list[str]:
        """Ids from the query string (comma-separated) or, failing that, the JSON body (Spotify's rule)."""
        raw = self.params.get(query_name)
        if raw:
            ids = [part.strip() for part in raw.split(",") if part.strip()]
        elif isinstance(self.body, dict) and isinstance(self.body.get(body_key), list):
            ids = [str(x).strip() for x in self.body[body_key]]
        else:
            ids = []
        ids = [i.rsplit(":", 1)[-1] if i.startswith("spotify:") else i for i in ids]
        if required and not ids:
            raise SpotifyError(400, f"Missing required parameter: {query_name}")
        if len(ids) > maximum:
            raise SpotifyError(400, f"Too many ids requested (maximum {maximum})")
        for item_id in ids:
            if not is_base62_id(item_id):
                raise SpotifyError(400, f"Invalid base62 id: {item_id}")
        return ids

    def known(self, item_id: str, table: dict[str, Any], kind: str) -> Any:
        if not is_base62_id(item_id):
            raise SpotifyError(400, "Invalid base62 id")
        if item_id not in table:
            raise SpotifyError(404, f"Non existing id: 'spotify:{kind}:{item_id}'")
        return table[item_id]

    def body_dict(self) -> dict[str, Any]:
        if self.body is None:
            return {}
        if not isinstance(self.body, dict):
            raise SpotifyError(400, "Error parsing JSON: expected an object")
        return self.body
