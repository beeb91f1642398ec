"""The sandbox behaves like Spotify where the queries and agents depend on it."""

from __future__ import annotations

import asyncio

import pytest

from restgraph.evals.benchmark import RunOptions, get_benchmark
from restgraph.evals.trace import Trace
from restgraph.tools.sandbox.spotify.catalogue import load_catalogue
from restgraph.tools.sandbox.spotify.state import initial_state
from tests.restbench_spotify.conftest import auth

CAT = load_catalogue()


def names(items):
    return [i.get("name") or i.get("track", {}).get("name") or i.get("album", {}).get("name") for i in items]


def test_initial_state_follows_the_fixture_decisions():
    s = initial_state()
    assert [p.name for p in s.playlists] == ["My Rock", "My R&B"]
    lana, whitney = (CAT.artist_named(n).top_track_ids[:3] for n in ("Lana Del Rey", "Whitney Houston"))
    assert [t.id for t in s.saved_tracks] == whitney + lana
    assert [CAT.albums[a.id].name for a in s.saved_albums] == ["reputation", "Born To Die"]
    assert [CAT.artists[a].name for a in s.followed_artists] == [
        "Lana Del Rey",
        "Whitney Houston",
        "The Beatles",
    ]
    born = CAT.album_named("Born To Die")
    assert (
        s.player.item_id == born.track_ids[0]
        and s.player.is_playing
        and s.player.context_uri == f"spotify:album:{born.id}"
    )
    assert s.context_queue == born.track_ids[1:] and s.user_queue == []
    active = [d for d in s.devices if d.is_active]
    assert [d.name for d in active] == ["My PC"] and active[0].volume_percent == 50 and len(s.devices) == 2
    assert s.player.repeat_state == "off" and not s.player.shuffle_state and s.player.progress_ms == 0
    assert s.recently_played[0].track_id == s.player.item_id
    assert CAT.artists[s.top_artists[0]].name == "Lana Del Rey" and s.top_tracks
    assert "7LjHVU3t3fcxj5aiPFEW4T" not in {p.id for p in s.playlists}


def test_prompt_example_ids_exist_with_their_meaning():
    assert CAT.artists["00FQb4jTyendYWaN8pK0wa"].name == "Lana Del Rey"
    assert CAT.artists["4gzpq5DPGxSnKTe4SA8HAU"].name == "Coldplay"
    assert CAT.albums["5HOHne1wzItQlIYmLXLYfZ"].id == CAT.newest_album("00FQb4jTyendYWaN8pK0wa").id
    assert CAT.albums["1weenld61qoidwYuZ1GESA"].name.lower() == "kind of blue"
    assert CAT.albums["1JnjcAIKQ9TSJFVFierTB8"].track_ids[:2] == [
        "3AJwUDP919kvQ9QcozQPxg",
        "1mea3bSkSGXuIRvnydlB5b",
    ]
    assert (
        CAT.tracks["3AJwUDP919kvQ9QcozQPxg"].name == "Yellow"
        and CAT.tracks["1mea3bSkSGXuIRvnydlB5b"].name == "Viva La Vida"
    )


def test_status_codes_and_error_bodies(client):
    h = auth("codes")
    assert client.get("/v1/me", headers={}).status_code == 401
    assert client.get("/v1/me", headers={}).json() == {
        "error": {"status": 401, "message": "No token provided"}
    }
    me = client.get("/v1/me", headers=h).json()
    created = client.post(f"/v1/users/{me['id']}/playlists", json={"name": "X"}, headers=h)
    assert created.status_code == 201 and created.json()["name"] == "X"
    added = client.post(
        f"/v1/playlists/{created.json()['id']}/tracks",
        json={"uris": ["spotify:track:3AJwUDP919kvQ9QcozQPxg"]},
        headers=h,
    )
    assert added.status_code == 201 and "snapshot_id" in added.json()
    assert client.post("/v1/users/someone_else/playlists", json={"name": "X"}, headers=h).status_code == 403
    for method, path, params in [
        ("PUT", "/v1/me/following", {"type": "artist", "ids": "06HL4z0CvFAxyc27GXpf02"}),
        ("PUT", "/v1/me/player/volume", {"volume_percent": 10}),
        ("PUT", "/v1/me/player/repeat", {"state": "track"}),
        ("POST", "/v1/me/player/next", None),
        ("PUT", "/v1/me/player/pause", None),
        ("PUT", "/v1/me/player/play", None),
    ]:
        r = client.request(method, path, params=params, headers=h)
        assert (r.status_code, r.content) == (204, b""), (method, path, r.text)
    assert client.put("/v1/me/player/pause", headers=h).status_code == 204
    again = client.put("/v1/me/player/pause", headers=h)
    assert again.status_code == 403 and again.json()["error"]["status"] == 403
    assert (
        client.delete(
            "/v1/me/following", params={"type": "artist", "ids": "06HL4z0CvFAxyc27GXpf02"}, headers=h
        ).status_code
        == 200
    )
    assert client.get("/v1/tracks/0000000000000000000000", headers=h).json()["error"]["status"] == 404
    assert client.get("/v1/tracks/not-an-id", headers=h).status_code == 400
    assert client.put("/v1/me/player/volume", params={"volume_percent": 101}, headers=h).status_code == 400
    assert client.get("/v1/search", params={"q": "x", "type": "bogus"}, headers=h).status_code == 400
    assert client.get("/v1/me/tracks", params={"market": "usa"}, headers=h).status_code == 400
    assert client.get("/v1/nothing/here", headers=h).json() == {
        "error": {"status": 404, "message": "Service not found"}
    }
    assert client.get("/me", headers=h).status_code == 200  # without the /v1 prefix too


def test_paging_limit_offset_next(client):
    h = auth("paging")
    first = client.get("/v1/me/tracks", params={"limit": 4}, headers=h).json()
    assert first["total"] == 6 and len(first["items"]) == 4 and first["next"] and first["previous"] is None
    nxt = client.get(first["next"].replace("https://api.spotify.com", ""), headers=h).json()
    assert [i["track"]["id"] for i in nxt["items"]] == [
        t.id for t in initial_state().saved_tracks[4:]
    ] and nxt["next"] is None
    follow = client.get("/v1/me/following", params={"type": "artist", "limit": 2}, headers=h).json()[
        "artists"
    ]
    rest = client.get(follow["next"].replace("https://api.spotify.com", ""), headers=h).json()["artists"]
    assert names(follow["items"]) + names(rest["items"]) == ["Lana Del Rey", "Whitney Houston", "The Beatles"]


def test_market_drops_available_markets(client):
    h = auth("market")
    plain = client.get("/v1/tracks/3AJwUDP919kvQ9QcozQPxg", headers=h).json()
    local = client.get("/v1/tracks/3AJwUDP919kvQ9QcozQPxg", params={"market": "US"}, headers=h).json()
    assert "available_markets" in plain and "available_markets" not in local and local["is_playable"] is True


def test_search_types_and_tolerance(client):
    h = auth("search")
    both = client.get("/v1/search", params={"q": "The Beatle's", "type": "artist,album"}, headers=h).json()
    assert names(both["artists"]["items"])[0] == "The Beatles" and "Let It Be" in names(
        both["albums"]["items"]
    )
    assert (
        names(
            client.get("/v1/search", params={"q": "mojito", "type": "album"}, headers=h).json()["albums"][
                "items"
            ]
        )[0]
        == "Mojito"
    )
    quiet = client.get("/v1/search", params={"q": "quiet", "type": "track,playlist"}, headers=h).json()
    assert quiet["tracks"]["items"] and "Quiet Songs" in names(quiet["playlists"]["items"])
    carey = client.get(
        "/v1/search", params={"q": "artist:Mariah Carey", "type": "track", "limit": 3}, headers=h
    ).json()["tracks"]["items"]
    assert len(carey) == 3 and all(any(a["name"] == "Mariah Carey" for a in t["artists"]) for t in carey)
    assert (
        client.get("/v1/search", params={"q": "Summertime Sadnes", "type": "track"}, headers=h).json()[
            "tracks"
        ]["items"][0]["name"]
        == "Summertime Sadness"
    )


def test_player_semantics(user):
    start = initial_state()
    user("POST", "/me/player/queue", {"uri": "spotify:track:3AJwUDP919kvQ9QcozQPxg"})
    assert user("GET", "/me/player/queue")["queue"][0]["id"] == "3AJwUDP919kvQ9QcozQPxg"
    user("POST", "/me/player/next")
    assert user("GET", "/me/player/currently-playing")["item"]["id"] == "3AJwUDP919kvQ9QcozQPxg"
    user("POST", "/me/player/next")
    assert user("GET", "/me/player/currently-playing")["item"]["id"] == start.context_queue[0]
    assert (
        user("GET", "/me/player/recently-played", {"limit": 1})["items"][0]["track"]["id"]
        == start.context_queue[0]
    )
    devices = user("GET", "/me/player/devices")["devices"]
    phone = next(d for d in devices if d["name"] == "My Phone")
    user(
        "PUT",
        "/me/player/play",
        {"device_id": phone["id"]},
        {"context_uri": "spotify:album:4LH4d3cOWNNsVw41Gqt2kv", "offset": {"position": 2}},
    )
    now = user("GET", "/me/player")
    assert (
        now["device"]["name"] == "My Phone"
        and now["item"]["name"] == "On the Run"
        and now["context"]["uri"].endswith("4LH4d3cOWNNsVw41Gqt2kv")
    )


def test_tokens_are_isolated(client):
    a, b = auth("alice"), auth("bob")
    client.delete("/v1/me/tracks", params={"ids": initial_state().saved_tracks[0].id}, headers=a)
    client.put("/v1/me/player/volume", params={"volume_percent": 5}, headers=a)
    assert client.get("/v1/me/tracks", headers=a).json()["total"] == 5
    assert client.get("/v1/me/tracks", headers=b).json()["total"] == 6
    assert client.get("/v1/me/player/devices", headers=b).json()["devices"][0]["volume_percent"] == 50
    log_b = client.app.state.store.snapshot("bob")["request_log"]
    assert [e["path"] for e in log_b] == ["/me/tracks", "/me/player/devices"]


def test_admin_state_endpoint(client):
    h = auth("admin")
    client.put("/v1/me/player/volume", params={"volume_percent": 33}, headers=h)
    snap = client.get("/_sandbox/state", headers=h).json()
    assert (
        snap["final_state"]["devices"][0]["volume_percent"] == 33 and snap["request_log"][0]["status"] == 204
    )
    client.post("/_sandbox/reset", headers=h)
    assert client.get("/_sandbox/state", headers=h).json()["request_log"] == []


def test_catalogue_covers_the_entities_the_queries_name():
    for artist in [
        "Mariah Carey",
        "Whitney Houston",
        "Lana Del Rey",
        "Taylor Swift",
        "Jay Chou",
        "The Beatles",
        "Maroon 5",
        "BIGBANG",
        "Pink Floyd",
        "Coldplay",
    ]:
        a = CAT.artist_named(artist)
        assert a.top_track_ids, artist
    for album in ["The Dark Side of the Moon", "Mojito", "Born To Die", "reputation"]:
        assert CAT.album_named(album).track_ids
    newest = {
        a: CAT.newest_album(CAT.artist_named(a).id).name
        for a in ["Taylor Swift", "The Beatles", "Maroon 5", "BIGBANG", "Lana Del Rey"]
    }
    assert (
        newest["Lana Del Rey"] == "Did you know that there's a tunnel under Ocean Blvd"
        and newest["Maroon 5"] == "JORDI"
    )
    believe = next(t for t in CAT.data.tracks if t.name.startswith("When You Believe"))
    assert {CAT.artists[a].name for a in believe.artist_ids} == {"Mariah Carey", "Whitney Houston"}
    assert CAT.track_named("Lana Del Rey", "Summertime Sadness").album_id == CAT.album_named("Born To Die").id
    assert CAT.artist_named("Lana Del Rey").related_artist_ids


def test_live_mode_is_off_by_default_and_needs_a_token(monkeypatch, data_dir):
    bench = get_benchmark("restbench-spotify")
    monkeypatch.delenv("SPOTIFY_TOKEN", raising=False)

    async def enter(options):
        async with bench.run_resources(options) as resources:
            return resources.mode

    assert asyncio.run(enter(RunOptions(benchmark=bench.name, agent="oracle"))) == "inprocess"
    with pytest.raises(RuntimeError, match="SPOTIFY_TOKEN"):
        asyncio.run(enter(RunOptions(benchmark=bench.name, agent="oracle", bench_options={"live": "1"})))
    task = bench.tasks(RunOptions(benchmark=bench.name, agent="oracle"))[0]
    trace = Trace(
        task_id=task.id, task=task, benchmark=bench.name, agent="x", model="none", env_state={"mode": "live"}
    )
    assert bench.score_episode(trace)["success"] is None


def test_failed_commands_leave_the_state_untouched(client):
    h = auth("atomic")
    before = client.app.state.store.get("atomic").state.model_dump()
    assert (
        client.put(
            "/v1/me/player/play", json={"context_uri": "spotify:album:0000000000000000000000"}, headers=h
        ).status_code
        == 404
    )
    assert (
        client.put(
            "/v1/me/player/play",
            params={"device_id": "nope"},
            json={"uris": ["spotify:track:3AJwUDP919kvQ9QcozQPxg"]},
            headers=h,
        ).status_code
        == 404
    )
    assert (
        client.put(
            "/v1/me/tracks", params={"ids": "3AJwUDP919kvQ9QcozQPxg,0000000000000000000000"}, headers=h
        ).status_code
        == 404
    )
    phone = next(d for d in initial_state().devices if d.name == "My Phone").id
    assert client.put("/v1/me/player/pause", params={"device_id": phone}, headers=h).status_code == 404
    after = client.app.state.store.get("atomic").state.model_dump()
    assert after == before
    assert [e.status for e in client.app.state.store.get("atomic").log] == [404, 404, 404, 404]
