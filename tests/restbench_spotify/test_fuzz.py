"""Bounded property-based fuzzing of the sandbox from ``spotify_oas.json``.

Two generators: Schemathesis (from the spec's parameter and body schemas: mostly invalid ids,
odd strings and numbers) and a hypothesis strategy over *valid* catalogue ids and paging values
(so success shapes get fuzzed too). Properties: no 5xx, every documented response validates, and
what one token does never shows in another token's state.
"""

from __future__ import annotations

import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from restgraph.tools.sandbox.spotify.app import create_app
from restgraph.tools.sandbox.spotify.catalogue import load_catalogue
from restgraph.tools.sandbox.spotify.state import initial_state

FUZZ_TOKEN, BYSTANDER = "fuzzer", "bystander"
SETTINGS = {
    "deadline": None,
    "database": None,
    "derandomize": True,
    "suppress_health_check": list(HealthCheck),
}


def _bystander_untouched(client: TestClient) -> None:
    snap = client.app.state.store.snapshot(BYSTANDER)
    assert snap["final_state"] == initial_state().model_dump(mode="json"), (
        "another token's requests changed this token's state"
    )


def _fuzz_operation(client: TestClient, op, schema_errors, failures: list[str]) -> None:
    method, template = op.method.upper(), op.path

    @settings(max_examples=10, **SETTINGS)
    @given(case=op.as_strategy())
    def run(case):
        kwargs = case.as_transport_kwargs(
            base_url="https://api.spotify.com/v1", headers={"Authorization": f"Bearer {FUZZ_TOKEN}"}
        )
        response = client.request(
            **{
                k: v
                for k, v in kwargs.items()
                if k in ("method", "url", "params", "headers", "json", "content")
            }
        )
        if response.status_code >= 500:
            failures.append(f"{method} {template} -> {response.status_code}: {kwargs}")
            return
        body = response.json() if response.content else None
        if response.status_code >= 400:
            error = (body or {}).get("error", {})
            if not (error.get("status") == response.status_code and error.get("message")):
                failures.append(
                    f"{method} {template} -> {response.status_code} without a Spotify error body: {body}"
                )
            return
        failures.extend(schema_errors(method, template, response.status_code, body))

    run()


def test_schemathesis_fuzz(spotify_spec, schema_errors):
    client = TestClient(create_app(), base_url="https://api.spotify.com", raise_server_exceptions=True)
    client.get("/v1/me", headers={"Authorization": f"Bearer {BYSTANDER}"})
    schema = schemathesis.openapi.from_dict(spotify_spec)
    failures: list[str] = []
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) == 40

    for op in operations:
        _fuzz_operation(client, op, schema_errors, failures)
    assert not failures, failures[:10]
    _bystander_untouched(client)


CAT = load_catalogue()
GETS = [
    ("/albums/{id}", CAT.albums),
    ("/albums/{id}/tracks", CAT.albums),
    ("/artists/{id}", CAT.artists),
    ("/artists/{id}/albums", CAT.artists),
    ("/artists/{id}/related-artists", CAT.artists),
    ("/artists/{id}/top-tracks", CAT.artists),
    ("/tracks/{id}", CAT.tracks),
]
LISTS = [
    "/me",
    "/me/tracks",
    "/me/albums",
    "/me/playlists",
    "/me/top/artists",
    "/me/top/tracks",
    "/me/player",
    "/me/player/currently-playing",
    "/me/player/devices",
    "/me/player/queue",
    "/me/player/recently-played",
    "/browse/new-releases",
]


@st.composite
def valid_requests(draw):
    paging = {
        k: v
        for k, v in {
            "limit": draw(st.one_of(st.none(), st.integers(1, 50))),
            "offset": draw(st.one_of(st.none(), st.integers(0, 30))),
            "market": draw(st.sampled_from([None, "US", "JP", "from_token"])),
        }.items()
        if v is not None
    }
    kind = draw(st.sampled_from(["get", "list", "search", "mutate"]))
    if kind == "get":
        template, table = draw(st.sampled_from(GETS))
        return "GET", template, template.replace("{id}", draw(st.sampled_from(sorted(table)))), paging, None
    if kind == "list":
        path = draw(st.sampled_from(LISTS))
        return (
            "GET",
            path.replace("artists", "{type}").replace("tracks", "{type}")
            if path.startswith("/me/top")
            else path,
            path,
            paging,
            None,
        )
    if kind == "search":
        words = draw(
            st.lists(
                st.sampled_from(
                    [
                        "the",
                        "quiet",
                        "beatle's",
                        "mojito",
                        "taylor",
                        "blue",
                        "love",
                        "genre:pop",
                        "year:1970-2020",
                        "artist:lana",
                    ]
                ),
                min_size=1,
                max_size=3,
            )
        )
        types = draw(
            st.lists(
                st.sampled_from(["track", "album", "artist", "playlist", "show", "episode", "audiobook"]),
                min_size=1,
                max_size=3,
                unique=True,
            )
        )
        return "GET", "/search", "/search", {**paging, "q": " ".join(words), "type": ",".join(types)}, None
    track = draw(st.sampled_from(sorted(CAT.tracks)))
    return draw(
        st.sampled_from(
            [
                ("PUT", "/me/tracks", "/me/tracks", {"ids": track}, None),
                ("POST", "/me/player/queue", "/me/player/queue", {"uri": f"spotify:track:{track}"}, None),
                ("POST", "/me/player/next", "/me/player/next", {}, None),
                ("POST", "/me/player/previous", "/me/player/previous", {}, None),
                ("PUT", "/me/player/play", "/me/player/play", {}, {"uris": [f"spotify:track:{track}"]}),
                (
                    "PUT",
                    "/me/following",
                    "/me/following",
                    {"type": "artist", "ids": CAT.tracks[track].artist_ids[0]},
                    None,
                ),
            ]
        )
    )


def test_valid_id_fuzz(schema_errors):
    client = TestClient(create_app(), base_url="https://api.spotify.com")
    client.get("/v1/me", headers={"Authorization": f"Bearer {BYSTANDER}"})
    failures: list[str] = []

    @settings(max_examples=200, **SETTINGS)
    @given(request=valid_requests())
    def run(request):
        method, template, path, params, body = request
        response = client.request(
            method, "/v1" + path, params=params, json=body, headers={"Authorization": f"Bearer {FUZZ_TOKEN}"}
        )
        if response.status_code >= 300:
            failures.append(f"{method} {path} {params} -> {response.status_code} {response.text[:200]}")
            return
        failures.extend(
            schema_errors(
                method, template, response.status_code, response.json() if response.content else None
            )
        )

    run()
    assert not failures, failures[:10]
    _bystander_untouched(client)
