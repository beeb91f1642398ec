"""The per-query table of Spotify success predicates and the collateral-damage checks (§9).

``evaluate(query_id, episode, permissive=False)`` returns ``{"success", "reason", "damage"}``.

By default (what a careful judge would sign) a query may change only the state it is about, and
only in the way it asks: following one artist by following all 19, saving every track for "save
this song", or creating extra playlists fails. ``permissive=True`` is the §9 table as written
(only *losses* outside the query's scope fail), kept behind ``-B collateral=allow``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from restgraph.evals.scorers import spotify_predicates as p
from restgraph.evals.scorers.spotify_predicates import READ_ONLY, Check, Episode
from restgraph.tools.sandbox.spotify.catalogue import uri
from restgraph.tools.sandbox.spotify.models import SpotifyState
from restgraph.tools.sandbox.spotify.search import fold


@dataclass(frozen=True)
class QueryCheck:
    check: Check
    #: state components the query may change: saved_tracks, saved_albums, followed, playback (what
    #: plays, where, playing or not), volume, repeat, queue, new_playlist, and initial playlists as "playlist#N" or "playlist:NAME"
    touches: frozenset[str] = frozenset()
    #: touched components the query may also take items away from (or, for a playlist, rename or
    #: re-scope); in any other touched component a loss is still damage (following one more
    #: artist must not unfollow another)
    lose: frozenset[str] = frozenset()
    #: what the query may *add* to a touched list component (followed, saved_tracks, saved_albums,
    #: user_queue, and new_playlist: the allowed new playlist names); anything else added is damage
    adds: tuple[tuple[str, Callable[[Episode], set[str]]], ...] = ()


def Q(
    check: Check, *touches: str, lose: tuple[str, ...] = (), **adds: Callable[[Episode], set[str]]
) -> QueryCheck:  # noqa: N802 - table constructor
    return QueryCheck(
        check, frozenset(touches) | frozenset(lose), frozenset(lose), tuple(sorted(adds.items()))
    )


def _names(*names: str) -> Callable[[Episode], set[str]]:
    return lambda ep: set(names)


def _artist(name: str):
    return lambda ep: ep.cat.artist_named(name).id


def _lana_top(ep: Episode) -> set[str]:
    return set(ep.cat.artists[ep.initial.followed_artists[0]].top_track_ids)


def _rnb_artists(ep: Episode) -> set[str]:
    return {a for i in ep.initial_playlist("My R&B").items for a in ep.cat.tracks[i.id].artist_ids}


def _newest_first_track(artist: str):
    return lambda ep: ep.cat.newest_album(ep.cat.artist_named(artist).id).track_ids[0]


def _current_artist_set(ep: Episode) -> set[str]:
    return {ep.current_artist}


def _one_artist(name: str) -> Callable[[Episode], set[str]]:
    return lambda ep: {_artist(name)(ep)}


def _when_you_believe(ep: Episode) -> set[str]:
    return {_artist("Mariah Carey")(ep), _artist("Whitney Houston")(ep)}


def _recent_artist(ep: Episode) -> set[str]:
    return {ep.cat.tracks[ep.initial.recently_played[0].track_id].artist_ids[0]}


def _mojito(ep: Episode) -> set[str]:
    return {ep.cat.album_named("Mojito").id}


def _dsotm_first(ep: Episode) -> str:
    return ep.cat.album_named("The Dark Side of the Moon").track_ids[0]


def _lana_newest_first(ep: Episode) -> str:
    return ep.cat.newest_album(ep.initial.followed_artists[0]).track_ids[0]


FOLLOW_CURRENT = Q(p.followed(_current_artist_set), "followed", followed=_current_artist_set)

TABLE: dict[int, QueryCheck] = {
    1: Q(
        p.new_playlist("Love Mariah", p.by_artist("Mariah Carey", exactly=3)),
        "new_playlist",
        new_playlist=_names("Love Mariah"),
    ),
    2: Q(p.queue_has(_dsotm_first), "queue", user_queue=lambda ep: {_dsotm_first(ep)}),
    3: Q(
        p.playlist_items(
            "#1", contains=lambda ep: ep.cat.track_named("Lana Del Rey", "Summertime Sadness").id
        ),
        "playlist#1",
    ),
    4: Q(p._all(p.advanced, p.volume_is(60)), "playback", "volume", "queue"),
    5: Q(
        p.saved_tracks_include(lambda ep: {ep.current}), "saved_tracks", saved_tracks=lambda ep: {ep.current}
    ),
    6: Q(p.queue_has(_lana_newest_first), "queue", user_queue=lambda ep: {_lana_newest_first(ep)}),
    7: FOLLOW_CURRENT,
    8: Q(
        p._all(
            p.playing,
            lambda ep: (
                None
                if ep.final.player.item_id
                in ep.cat.newest_album(ep.cat.artist_named("Taylor Swift").id).track_ids
                else "the current item is not from Taylor Swift's newest album"
            ),
        ),
        "playback",
        "queue",
    ),
    9: Q(p._all(p.playing, p.changed_play, p.playing_from_search), "playback", "queue"),
    10: Q(p.followed(_recent_artist), "followed", followed=_recent_artist),
    11: Q(p._all(p.advanced, p.repeat_track), "playback", "queue", "repeat"),
    12: Q(p.album_saved("Mojito"), "saved_albums", saved_albums=_mojito),
    13: Q(p.playlist_meta("#1", name="My First"), lose=("playlist#1",)),
    14: Q(p.only_unfollowed(_current_artist_set), lose=("followed",)),
    15: Q(
        p._all(
            p.playing,
            lambda ep: (
                None if ep.volume(ep.final) < ep.volume(ep.initial) else "the volume was not turned down"
            ),
            p.log_order(("PUT", "/me/player/pause"), ("PUT", "/me/player/volume")),
        ),
        "playback",
        "volume",
    ),
    16: Q(
        p.new_playlist(
            "Current",
            lambda ep, items: (
                None
                if set(ep.initial.user_queue + ep.initial.context_queue) <= set(items)
                else "not every queued track is in the playlist"
            ),
        ),
        "new_playlist",
        new_playlist=_names("Current"),
    ),
    17: Q(p.answer_key(17)),
    18: Q(
        lambda ep: (
            None
            if [s.id for s in ep.final.saved_albums] == [s.id for s in ep.initial.saved_albums[1:]]
            else "the saved albums are not the original minus the first one"
        ),
        lose=("saved_albums",),
    ),
    19: Q(p.answer_key(19)),
    20: FOLLOW_CURRENT,
    21: Q(p.answer_key(21)),
    22: Q(p.playlist_items("My Rock", contains=_newest_first_track("The Beatles")), "playlist:My Rock"),
    23: Q(
        p.new_playlist(
            "Love Taylor",
            p.nonempty_subset(lambda ep: set(ep.cat.artist_named("Taylor Swift").top_track_ids)),
        ),
        "new_playlist",
        new_playlist=_names("Love Taylor"),
    ),
    24: Q(p.answer_key(24)),
    25: Q(p.answer_key(25)),
    26: Q(
        p._all(p.playlist_items("My R&B", expected=lambda pl: []), p.playlist_meta("My R&B", name="Test")),
        lose=("playlist:My R&B",),
    ),
    27: Q(p.answer_key(27)),
    28: Q(p.paused, "playback"),
    29: Q(
        p._all(
            p.playing,
            p.on_device("My PC"),
            p.log_order(("PUT", "/me/player/pause"), ("PUT", "/me/player/play")),
        ),
        "playback",
    ),
    30: Q(p.answer_key(30)),
    31: Q(p.answer_key(31)),
    32: Q(
        p._all(p.only_unfollowed(_current_artist_set), p.advanced), "playback", "queue", lose=("followed",)
    ),
    33: Q(p.followed(_one_artist("Taylor Swift")), "followed", followed=_one_artist("Taylor Swift")),
    34: Q(
        p.new_playlist("My Top", p.nonempty_subset(lambda ep: set(ep.initial.top_tracks))),
        "new_playlist",
        new_playlist=_names("My Top"),
    ),
    35: Q(
        p.playlist_items("My Rock", expected=lambda pl: [i.id for i in pl.items[1:]]),
        lose=("playlist:My Rock",),
    ),
    36: Q(p.saved_tracks_include(_lana_top), "saved_tracks", saved_tracks=_lana_top),
    37: Q(p.followed(_rnb_artists), "followed", followed=_rnb_artists),
    38: Q(
        p.playlist_items("My R&B", expected=lambda pl: [pl.items[0].id, pl.items[2].id]),
        lose=("playlist:My R&B",),
    ),
    39: Q(
        lambda ep: (
            None
            if [s.id for s in ep.final.saved_tracks]
            == [s.id for i, s in enumerate(ep.initial.saved_tracks) if i != 2]
            else "saved tracks are not the original minus track #3"
        ),
        lose=("saved_tracks",),
    ),
    40: Q(p.followed(_when_you_believe), "followed", followed=_when_you_believe),
    41: Q(p.advanced, "playback", "queue"),
    42: Q(
        p._all(p.playing, p.context_is(lambda ep: uri("playlist", ep.initial_playlist("My Rock").id))),
        "playback",
        "queue",
    ),
    43: Q(
        lambda ep: (
            None
            if not ep.final.saved_tracks and not ep.final.followed_artists
            else "saved tracks or followed artists remain"
        ),
        lose=("saved_tracks", "followed"),
    ),
    44: Q(p.new_playlist("Quiet", lambda ep, items: None), "new_playlist", new_playlist=_names("Quiet")),
    45: Q(p.volume_is(20), "volume"),
    46: Q(p.repeat_track, "repeat"),
    47: Q(p._all(p.volume_is(80), p.advanced), "playback", "volume", "queue"),
    48: Q(
        p._all(
            p.playing,
            p.context_is(lambda ep: uri("album", ep.cat.newest_album(ep.cat.artist_named("BIGBANG").id).id)),
        ),
        "playback",
        "queue",
    ),
    49: Q(p.followed(_one_artist("Jay Chou")), "followed", followed=_one_artist("Jay Chou")),
    50: Q(
        p._all(
            lambda ep: (
                None
                if ep.final.player.item_id == ep.initial.saved_tracks[2].id
                else "the current item is not saved track #3"
            ),
            p.repeat_track,
        ),
        "playback",
        "queue",
        "repeat",
    ),
    51: Q(p.new_playlist("BIGBANG", p.by_artist("BIGBANG")), "new_playlist", new_playlist=_names("BIGBANG")),
    52: Q(p.playlist_items("#1", expected=lambda pl: []), lose=("playlist#1",)),
    53: Q(p.playlist_meta("#1", public=False), lose=("playlist#1",)),
    54: Q(p.album_saved("Mojito"), "saved_albums", saved_albums=_mojito),
    55: Q(
        p._all(p.queue_has(lambda ep: ep.initial.saved_tracks[0].id), p.repeat_track),
        "queue",
        "repeat",
        user_queue=lambda ep: {ep.initial.saved_tracks[0].id},
    ),
    56: Q(p.answer_key(56)),
    57: Q(p.paused, "playback"),
}
assert set(READ_ONLY) == {i for i, q in TABLE.items() if not q.touches}


def components(state: SpotifyState) -> dict[str, Any]:
    """The comparable parts of a state (what "changed" and "lost" are measured on)."""
    out: dict[str, Any] = {
        "saved_tracks": [s.id for s in state.saved_tracks],
        "saved_albums": [s.id for s in state.saved_albums],
        "followed": list(state.followed_artists),
        "playback": state.player.model_dump(exclude={"progress_ms", "repeat_state"}),
        "volume": {d.id: d.volume_percent for d in state.devices},
        "repeat": state.player.repeat_state,
        "queue": {"user_queue": list(state.user_queue), "context_queue": list(state.context_queue)},
    }
    for pl in state.playlists:
        out[f"playlist:{pl.id}"] = {
            "name": pl.name,
            "description": pl.description,
            "public": pl.public,
            "collaborative": pl.collaborative,
            "items": [i.id for i in pl.items],
        }
    return out


def state_diff(initial: SpotifyState, final: SpotifyState) -> dict[str, dict[str, Any]]:
    """Changed components: ``{name: {"before": ..., "after": ...}}`` (what traces store)."""
    a, b = components(initial), components(final)
    return {
        k: {"before": a.get(k), "after": b.get(k)} for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)
    }


def _allowed(ep: Episode, touches: frozenset[str]) -> set[str]:
    names = set()
    for t in touches:
        if t.startswith("playlist#"):
            names.add(f"playlist:{ep.initial_playlist('#' + t[len('playlist#') :]).id}")
        elif t.startswith("playlist:"):
            names.add(f"playlist:{ep.initial_playlist(t[len('playlist:') :]).id}")
        else:
            names.add(t)
    return names


def _unrequested_additions(
    ep: Episode, spec: QueryCheck, diff: dict[str, dict[str, Any]], initial_ids: set[str]
) -> list[str]:
    """Items added to a list component beyond what the query asks for (following all 19 artists
    for "follow Taylor Swift"), and new playlists other than the one the query names."""
    adds = {name: fn(ep) for name, fn in spec.adds}
    problems = []
    lists = {
        k: (v["before"] or [], v["after"] or [])
        for k, v in diff.items()
        if k in ("saved_tracks", "saved_albums", "followed")
    }
    if "queue" in diff and "user_queue" in adds:
        lists["user_queue"] = (diff["queue"]["before"]["user_queue"], diff["queue"]["after"]["user_queue"])
    for name, (before, after) in lists.items():
        extra = Counter(after) - Counter(before) - Counter(adds.get(name, set()))
        if extra:
            problems.append(f"{name} gained {sum(extra.values())} unrequested item(s)")
    wanted = {fold(n) for n in adds.get("new_playlist", set())}
    extra_playlists = [
        v["after"]["name"]
        for k, v in diff.items()
        if k.startswith("playlist:")
        and k not in initial_ids
        and v["after"] is not None
        and fold(v["after"]["name"]) not in wanted
    ]
    created = [
        k
        for k, v in diff.items()
        if k.startswith("playlist:")
        and k not in initial_ids
        and v["after"] is not None
        and fold(v["after"]["name"]) in wanted
    ]
    if extra_playlists or len(created) > 1:
        problems.append(f"unrequested new playlists: {extra_playlists or len(created) - 1}")
    return problems


def damage(ep: Episode, spec: QueryCheck, strict: bool = True) -> list[str]:
    """Default (strict): any change outside ``spec.touches``, any loss outside ``spec.lose``, and any
    addition beyond ``spec.adds``. Permissive (``strict=False``, the §9 table as written): only
    losses outside ``spec.lose``."""
    allowed, may_lose = _allowed(ep, spec.touches), _allowed(ep, spec.lose)
    initial_ids = {f"playlist:{pl.id}" for pl in ep.initial.playlists}
    diff = state_diff(ep.initial, ep.final)
    problems = _unrequested_additions(ep, spec, diff, initial_ids) if strict else []
    for name, change in diff.items():
        before, after = change["before"], change["after"]
        is_new_playlist = name not in initial_ids and name.startswith("playlist:")
        if name in may_lose or (is_new_playlist and "new_playlist" in allowed):
            continue
        if strict and name not in allowed:
            problems.append(f"{name} changed")
        elif isinstance(before, list) and Counter(before) - Counter(after or []):
            problems.append(f"{name} lost items")
        elif name in initial_ids and (
            after is None
            or Counter(before["items"]) - Counter(after["items"])
            or {k: v for k, v in before.items() if k != "items"}
            != {k: v for k, v in after.items() if k != "items"}
        ):
            problems.append(f"{name} ({before['name']}) was altered or lost items")
    return problems


def evaluate(query_id: int, ep: Episode, permissive: bool = False) -> dict[str, Any]:
    """``permissive``: the §9 predicates as written (``-B collateral=allow``); default: collateral
    changes fail."""
    spec = TABLE[query_id]
    try:
        reason = spec.check(ep)
    except (KeyError, IndexError, StopIteration) as exc:
        reason = f"predicate could not be evaluated: {type(exc).__name__}: {exc}"
    harm = damage(ep, spec, strict=not permissive)
    success = reason is None and not harm
    return {"success": success, "reason": reason or ("; ".join(harm) if harm else "ok"), "damage": harm}
