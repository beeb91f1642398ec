"""Reference solutions for the 57 RestBench Spotify queries (1-based ids, as in the spec).

Each solution is the concrete call sequence the ``oracle`` agent replays, in the shared format
``{"method", "path", "params", "body"}``; ``${N.a.b}`` is the JSON of the Nth earlier response of
the episode followed along a dotted path. Every solution contains its query's gold path as a
subsequence (Correct Path) and leaves the sandbox in a state its predicate accepts. Where the gold
path cannot do the job alone (16 and 22 use ``PUT /playlists/{id}`` to add tracks, 37 reads
``/me`` for a playlist), the extra calls are added and the gold calls kept.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from restgraph.tools.sandbox.spotify.catalogue import Catalogue, load_catalogue
from restgraph.tools.sandbox.spotify.player import queue_ids
from restgraph.tools.sandbox.spotify.state import build_initial_state

Call = dict[str, Any]


def call(method: str, path: str, params: dict[str, Any] | None = None, body: Any = None) -> Call:
    return {"method": method, "path": path, "params": params, "body": body}


def search(q: str, kind: str) -> Call:
    """A search as RestGPT's caller sends one (upstream's examples set no ``limit``): the API's
    default page of 20 results, from which the solution takes the first it needs."""
    return call("GET", "/search", {"q": q, "type": kind})


def refs(template: str, n: int) -> list[str]:
    """``refs("${0.items.{i}.uri}", 3)`` -> three placeholders, one per index."""
    return [template.replace("{i}", str(i)) for i in range(n)]


ME = call("GET", "/me")
NOW = call("GET", "/me/player/currently-playing")
MY_PLAYLISTS = call("GET", "/me/playlists")
FOLLOWING = call("GET", "/me/following", {"type": "artist"})
NEXT = call("POST", "/me/player/next")
PAUSE = call("PUT", "/me/player/pause")
REPEAT_TRACK = call("PUT", "/me/player/repeat", {"state": "track"})


def volume(v: int) -> Call:
    return call("PUT", "/me/player/volume", {"volume_percent": v})


def follow_current(verb: str = "PUT") -> list[Call]:
    return [
        NOW,
        call("GET", "/tracks/${0.item.id}"),
        call(verb, "/me/following", {"type": "artist", "ids": "${1.artists.0.id}"}),
    ]


def newest_album(artist_q: str) -> list[Call]:
    return [
        search(artist_q, "artist"),
        call("GET", "/artists/${0.artists.items.0.id}/albums", {"include_groups": "album"}),
    ]


def new_playlist(name: str, me_index: int) -> Call:
    return call(
        "POST",
        f"/users/${{{me_index}.id}}/playlists",
        body={"name": name, "description": f"{name}, made by restgraph", "public": True},
    )


@lru_cache(maxsize=1)
def reference_solutions() -> dict[int, dict[str, Any]]:
    """query id -> {"calls": [...], "answer": str}; counts that depend on the fixture are read from it."""
    return solutions_for(load_catalogue())


def solutions_for(cat: Catalogue) -> dict[int, dict[str, Any]]:
    """The solutions over ``cat`` (the served catalogue, or the authored facts alone in tests)."""
    start = build_initial_state(cat)
    n_queue = len(queue_ids(start)[:20])
    n_saved = len(start.saved_tracks)
    n_lana_top = len(cat.artist_named("Lana Del Rey").top_track_ids)
    n_taylor_top = len(cat.artist_named("Taylor Swift").top_track_ids)
    n_top_tracks = len(start.top_tracks)
    n_rock = len(start.playlists[0].items)
    taylor = cat.artist_named("Taylor Swift").id
    s: dict[int, tuple[list[Call], str]] = {
        1: (
            [
                search("Mariah Carey", "track"),
                ME,
                new_playlist("Love Mariah", 1),
                call(
                    "POST", "/playlists/${2.id}/tracks", body={"uris": refs("${0.tracks.items.{i}.uri}", 3)}
                ),
            ],
            "Created the playlist 'Love Mariah' with ${0.tracks.items.0.name}, ${0.tracks.items.1.name} and ${0.tracks.items.2.name}.",
        ),
        2: (
            [
                search("The Dark Side of the Moon", "album"),
                call("GET", "/albums/${0.albums.items.0.id}/tracks"),
                call("POST", "/me/player/queue", {"uri": "${1.items.0.uri}"}),
            ],
            "Added ${1.items.0.name} to your queue.",
        ),
        3: (
            [
                search("track:Summertime Sadness artist:Lana Del Rey", "track"),
                MY_PLAYLISTS,
                call("POST", "/playlists/${1.items.0.id}/tracks", body={"uris": ["${0.tracks.items.0.uri}"]}),
            ],
            "Added Summertime Sadness to ${1.items.0.name}.",
        ),
        4: ([NEXT, volume(60)], "Skipped to the next track and set the volume to 60."),
        5: ([NOW, call("PUT", "/me/tracks", {"ids": "${0.item.id}"})], "Saved ${0.item.name} to your music."),
        6: (
            [
                FOLLOWING,
                call("GET", "/artists/${0.artists.items.0.id}/albums", {"include_groups": "album"}),
                call("GET", "/albums/${1.items.0.id}/tracks"),
                call("POST", "/me/player/queue", {"uri": "${2.items.0.uri}"}),
            ],
            "Added ${2.items.0.name} from ${1.items.0.name} to your queue.",
        ),
        7: (follow_current(), "You now follow ${1.artists.0.name}."),
        8: (
            newest_album("Taylor Swift")
            + [call("PUT", "/me/player/play", body={"context_uri": "${1.items.0.uri}"})],
            "Playing ${1.items.0.name} by Taylor Swift.",
        ),
        9: (
            [
                search("quiet", "track"),
                call("PUT", "/me/player/play", body={"uris": refs("${0.tracks.items.{i}.uri}", 3)}),
            ],
            "Playing ${0.tracks.items.0.name} and other quiet songs.",
        ),
        10: (follow_current(), "You now follow ${1.artists.0.name}."),
        11: ([NEXT, REPEAT_TRACK], "Switched to the next song and set repeat to the single track."),
        12: (
            [search("Mojito", "album"), call("PUT", "/me/albums", {"ids": "${0.albums.items.0.id}"})],
            "Saved the album ${0.albums.items.0.name}.",
        ),
        13: (
            [MY_PLAYLISTS, call("PUT", "/playlists/${0.items.0.id}", body={"name": "My First"})],
            "Renamed ${0.items.0.name} to My First.",
        ),
        14: (follow_current("DELETE"), "You no longer follow ${1.artists.0.name}."),
        15: (
            [PAUSE, volume(30), call("PUT", "/me/player/play")],
            "Paused, turned the volume down to 30 and resumed.",
        ),
        16: (
            [
                call("GET", "/me/player/queue"),
                ME,
                new_playlist("Current", 1),
                call("PUT", "/playlists/${2.id}", body={"description": "The songs of my playing queue"}),
                call("POST", "/playlists/${2.id}/tracks", body={"uris": refs("${0.queue.{i}.uri}", n_queue)}),
            ],
            "Created the playlist 'Current' with the songs of your queue.",
        ),
        17: ([NOW], "You are listening to ${0.item.name} by ${0.item.artists.0.name}."),
        18: (
            [call("GET", "/me/albums"), call("DELETE", "/me/albums", {"ids": "${0.items.0.album.id}"})],
            "Removed ${0.items.0.album.name} from your music.",
        ),
        19: (
            [call("GET", "/me/albums")],
            "Your saved albums: ${0.items.0.album.name} and ${0.items.1.album.name}.",
        ),
        20: (follow_current(), "You now follow ${1.artists.0.name}."),
        21: (
            [
                NOW,
                call("GET", "/artists/${0.item.artists.0.id}"),
                search('genre:"${1.genres.0}"', "track"),
            ],
            "Tracks in the genre ${1.genres.0}: ${2.tracks.items.0.name}, ${2.tracks.items.1.name}, ${2.tracks.items.2.name}.",
        ),
        22: (
            newest_album("The Beatle's")
            + [
                call("GET", "/albums/${1.items.0.id}/tracks"),
                MY_PLAYLISTS,
                call("POST", "/playlists/${3.items.0.id}/tracks", body={"uris": ["${2.items.0.uri}"]}),
                call("PUT", "/playlists/${3.items.0.id}", body={"name": "${3.items.0.name}"}),
            ],
            "Added ${2.items.0.name} from ${1.items.0.name} to My Rock.",
        ),
        23: (
            [
                call("GET", f"/artists/{taylor}/top-tracks", {"market": "US"}),
                ME,
                new_playlist("Love Taylor", 1),
                call(
                    "POST",
                    "/playlists/${2.id}/tracks",
                    body={"uris": refs("${0.tracks.{i}.uri}", n_taylor_top)},
                ),
            ],
            "Created 'Love Taylor' with Taylor Swift's top tracks.",
        ),
        24: ([call("GET", "/me/top/artists")], "Your favorite artist is ${0.items.0.name}."),
        25: (
            [
                call("GET", "/me/top/artists"),
                call("GET", "/artists/${0.items.0.id}"),
                call("GET", "/artists/${1.id}/top-tracks", {"market": "US"}),
            ],
            "Try ${2.tracks.0.name} by ${1.name}.",
        ),
        26: (
            [
                MY_PLAYLISTS,
                call("GET", "/playlists/${0.items.1.id}/tracks"),
                call(
                    "DELETE",
                    "/playlists/${0.items.1.id}/tracks",
                    body={"tracks": [{"uri": u} for u in refs("${1.items.{i}.track.uri}", 3)]},
                ),
                call("PUT", "/playlists/${0.items.1.id}", body={"name": "Test"}),
            ],
            "Emptied My R&B and renamed it to Test.",
        ),
        27: (
            [NOW, call("GET", "/tracks/${0.item.id}")],
            "${0.item.name} is on the album ${1.album.name} (${1.album.release_date}, ${1.album.total_tracks} tracks).",
        ),
        28: (
            [call("GET", "/me/player"), call("PUT", "/me/player/pause", {"device_id": "${0.device.id}"})],
            "${0.device.name} was playing; paused it.",
        ),
        29: (
            [
                PAUSE,
                call("GET", "/me/player/devices"),
                call("PUT", "/me/player/play", {"device_id": "${1.devices.0.id}"}),
            ],
            "Paused and resumed on ${1.devices.0.name}.",
        ),
        30: (newest_album("Maroon 5"), "Maroon 5's newest album is ${1.items.0.name}."),
        31: (
            [FOLLOWING, call("GET", "/artists/${0.artists.items.0.id}/related-artists")],
            "Artists like ${0.artists.items.0.name}: ${1.artists.0.name}, ${1.artists.1.name}, ${1.artists.2.name}.",
        ),
        32: (
            [NOW, call("DELETE", "/me/following", {"type": "artist", "ids": "${0.item.artists.0.id}"}), NEXT],
            "Unfollowed ${0.item.artists.0.name} and skipped.",
        ),
        33: (
            [
                search("Taylor Swift", "artist"),
                call("PUT", "/me/following", {"type": "artist", "ids": "${0.artists.items.0.id}"}),
            ],
            "You now follow Taylor Swift.",
        ),
        34: (
            [
                call("GET", "/me/top/tracks"),
                ME,
                new_playlist("My Top", 1),
                call(
                    "POST",
                    "/playlists/${2.id}/tracks",
                    body={"uris": refs("${0.items.{i}.uri}", n_top_tracks)},
                ),
            ],
            "Created 'My Top' with your top tracks.",
        ),
        35: (
            [
                MY_PLAYLISTS,
                call("GET", "/playlists/${0.items.0.id}/tracks"),
                call(
                    "DELETE",
                    "/playlists/${0.items.0.id}/tracks",
                    body={"tracks": [{"uri": "${1.items.0.track.uri}", "positions": [0]}]},
                ),
            ],
            "Removed ${1.items.0.track.name} from My Rock.",
        ),
        36: (
            [
                FOLLOWING,
                call("GET", "/artists/${0.artists.items.0.id}/top-tracks", {"market": "US"}),
                call("PUT", "/me/tracks", {"ids": ",".join(refs("${1.tracks.{i}.id}", n_lana_top))}),
            ],
            "Saved the top songs of ${0.artists.items.0.name}.",
        ),
        37: (
            [
                ME,
                MY_PLAYLISTS,
                call("GET", "/playlists/${1.items.1.id}"),
                call(
                    "PUT",
                    "/me/following",
                    {"type": "artist", "ids": ",".join(refs("${2.tracks.items.{i}.track.artists.0.id}", 3))},
                ),
            ],
            "You follow every artist on My R&B (${2.tracks.items.0.track.artists.0.name}).",
        ),
        38: (
            [
                MY_PLAYLISTS,
                call("GET", "/playlists/${0.items.1.id}/tracks"),
                call(
                    "DELETE",
                    "/playlists/${0.items.1.id}/tracks",
                    body={"tracks": [{"uri": "${1.items.1.track.uri}", "positions": [1]}]},
                ),
            ],
            "Removed ${1.items.1.track.name} from My R&B.",
        ),
        39: (
            [call("GET", "/me/tracks"), call("DELETE", "/me/tracks", {"ids": "${0.items.2.track.id}"})],
            "Removed ${0.items.2.track.name} from your music.",
        ),
        40: (
            [
                search("When You Believe", "track"),
                call("GET", "/tracks/${0.tracks.items.0.id}"),
                call(
                    "PUT", "/me/following", {"type": "artist", "ids": "${1.artists.0.id},${1.artists.1.id}"}
                ),
            ],
            "You now follow ${1.artists.0.name} and ${1.artists.1.name}.",
        ),
        41: ([NEXT], "Skipped to the next track."),
        42: (
            [MY_PLAYLISTS, call("PUT", "/me/player/play", body={"context_uri": "${0.items.0.uri}"})],
            "Playing ${0.items.0.name}.",
        ),
        43: (
            [
                call("GET", "/me/tracks"),
                call("DELETE", "/me/tracks", {"ids": ",".join(refs("${0.items.{i}.track.id}", n_saved))}),
                FOLLOWING,
                call(
                    "DELETE",
                    "/me/following",
                    {
                        "type": "artist",
                        "ids": ",".join(refs("${2.artists.items.{i}.id}", len(start.followed_artists))),
                    },
                ),
            ],
            "Cleared your music library and unfollowed every artist.",
        ),
        44: ([ME, new_playlist("Quiet", 0)], "Created the playlist Quiet."),
        45: ([volume(20)], "Volume set to 20."),
        46: ([REPEAT_TRACK], "Repeat mode set to the single track."),
        47: ([PAUSE, volume(80), NEXT], "Paused, set the volume to 80 and skipped to the next song."),
        48: (
            newest_album("BIGBANG")
            + [call("PUT", "/me/player/play", body={"context_uri": "${1.items.0.uri}"})],
            "Playing ${1.items.0.name} by BIGBANG.",
        ),
        49: (
            [
                search("Mojito", "album"),
                call("GET", "/albums/${0.albums.items.0.id}"),
                call("PUT", "/me/following", {"type": "artist", "ids": "${1.artists.0.id}"}),
            ],
            "You now follow ${1.artists.0.name}.",
        ),
        50: (
            [
                call("GET", "/me/tracks"),
                call("GET", "/tracks/${0.items.2.track.id}"),
                call("PUT", "/me/player/play", body={"uris": ["${1.uri}"]}),
                REPEAT_TRACK,
            ],
            "Playing ${1.name} on repeat.",
        ),
        51: (
            [
                ME,
                new_playlist("BIGBANG", 0),
                search("BIGBANG", "track"),
                call("POST", "/playlists/${1.id}/tracks", body={"uris": ["${2.tracks.items.0.uri}"]}),
            ],
            "Created the playlist BIGBANG with ${2.tracks.items.0.name}.",
        ),
        52: (
            [
                MY_PLAYLISTS,
                call("GET", "/playlists/${0.items.0.id}"),
                call(
                    "DELETE",
                    "/playlists/${0.items.0.id}/tracks",
                    body={"tracks": [{"uri": u} for u in refs("${1.tracks.items.{i}.track.uri}", n_rock)]},
                ),
            ],
            "Deleted every song of ${0.items.0.name}.",
        ),
        53: (
            [
                MY_PLAYLISTS,
                call("GET", "/playlists/${0.items.0.id}"),
                call("PUT", "/playlists/${0.items.0.id}", body={"public": False}),
            ],
            "${0.items.0.name} is now private.",
        ),
        54: (
            [search("Mojito", "album"), call("PUT", "/me/albums", {"ids": "${0.albums.items.0.id}"})],
            "Added the album ${0.albums.items.0.name} to your library.",
        ),
        55: (
            [
                call("GET", "/me/tracks"),
                call("POST", "/me/player/queue", {"uri": "${0.items.0.track.uri}"}),
                REPEAT_TRACK,
            ],
            "Queued ${0.items.0.track.name} and enabled single-song repeat.",
        ),
        56: ([ME], "Your user name is ${0.display_name}."),
        57: ([PAUSE], "Paused the player."),
    }
    return {i: {"calls": calls, "answer": answer} for i, (calls, answer) in s.items()}
