"""The per-query table of Spotify success predicates and the damage / strict checks (§9).

``evaluate(query_id, episode, strict=False)`` returns ``{"success", "reason", "damage"}``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from evals.scorers import spotify_predicates as p
from evals.scorers.spotify_predicates import READ_ONLY, Check, Episode
from tools.sandbox.spotify.catalogue import uri
from tools.sandbox.spotify.models import SpotifyState


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


def Q(check: Check, *touches: str, lose: tuple[str, ...] = ()) -> QueryCheck:  # noqa: N802 - table constructor
    return QueryCheck(check, frozenset(touches) | frozenset(lose), frozenset(lose))


def _artist(name: str):
    return lambda ep: ep.cat.artist_named(name).id


def _lana_top(ep: Episode) -> set[str]:
    return set(ep.cat.artists[ep.initial.followed_artists[0]].top_track_ids)


def _rnb_artists(ep: Episode) -> set[str]:
    return {a for i in ep.initial_playlist("My R&B").items for a in ep.cat.tracks[i.id].artist_ids}


def _newest_first_track(artist: str):
    return lambda ep: ep.cat.newest_album(ep.cat.artist_named(artist).id).track_ids[0]


def _same_genre_track_names(ep: Episode) -> list[str]:
    """Names of catalogue tracks whose artists share a genre with the current track's artists
    (the current track excluded; names under 4 letters dropped so "Hero" counts but not "Me")."""
    genres = {g for a in ep.cat.tracks[ep.current].artist_ids for g in ep.cat.artists[a].genres}
    return sorted({t.name for t in ep.cat.data.tracks if t.id != ep.current and len(p.fold(t.name)) >= 4 and any(genres & set(ep.cat.artists[a].genres) for a in t.artist_ids)})


def _current_artist_set(ep: Episode) -> set[str]:
    return {ep.current_artist}


FOLLOW_CURRENT = Q(p.followed(_current_artist_set), "followed")

TABLE: dict[int, QueryCheck] = {
    1: Q(p.new_playlist("Love Mariah", p.by_artist("Mariah Carey", exactly=3)), "new_playlist"),
    2: Q(p.queue_has(lambda ep: ep.cat.album_named("The Dark Side of the Moon").track_ids[0]), "queue"),
    3: Q(p.playlist_items("#1", contains=lambda ep: ep.cat.track_named("Lana Del Rey", "Summertime Sadness").id), "playlist#1"),
    4: Q(p._all(p.advanced, p.volume_is(60)), "playback", "volume", "queue"),
    5: Q(p.saved_tracks_include(lambda ep: {ep.current}), "saved_tracks"),
    6: Q(p.queue_has(lambda ep: ep.cat.newest_album(ep.initial.followed_artists[0]).track_ids[0]), "queue"),
    7: FOLLOW_CURRENT,
    8: Q(p._all(p.playing, lambda ep: None if ep.final.player.item_id in ep.cat.newest_album(ep.cat.artist_named("Taylor Swift").id).track_ids else "the current item is not from Taylor Swift's newest album"), "playback", "queue"),
    9: Q(p._all(p.playing, p.changed_play, p.playing_from_search), "playback", "queue"),
    10: Q(p.followed(lambda ep: {ep.cat.tracks[ep.initial.recently_played[0].track_id].artist_ids[0]}), "followed"),
    11: Q(p._all(p.advanced, p.repeat_track), "playback", "queue", "repeat"),
    12: Q(p.album_saved("Mojito"), "saved_albums"),
    13: Q(p.playlist_meta("#1", name="My First"), lose=("playlist#1",)),
    14: Q(p.only_unfollowed(_current_artist_set), lose=("followed",)),
    15: Q(p._all(p.playing, lambda ep: None if ep.volume(ep.final) < ep.volume(ep.initial) else "the volume was not turned down",
                 p.log_order(("PUT", "/me/player/pause"), ("PUT", "/me/player/volume"))), "playback", "volume"),
    16: Q(p.new_playlist("Current", lambda ep, items: None if set(ep.initial.user_queue + ep.initial.context_queue) <= set(items) else "not every queued track is in the playlist"), "new_playlist"),
    17: Q(p.answer_names(lambda ep: [ep.cat.tracks[ep.current].name])),
    18: Q(lambda ep: None if [s.id for s in ep.final.saved_albums] == [s.id for s in ep.initial.saved_albums[1:]] else "the saved albums are not the original minus the first one", lose=("saved_albums",)),
    19: Q(p.answer_names(lambda ep: [ep.cat.albums[s.id].name for s in ep.initial.saved_albums])),
    20: FOLLOW_CURRENT,
    21: Q(p.answer_names(_same_genre_track_names, at_least=1)),
    22: Q(p.playlist_items("My Rock", contains=_newest_first_track("The Beatles")), "playlist:My Rock"),
    23: Q(p.new_playlist("Love Taylor", p.nonempty_subset(lambda ep: set(ep.cat.artist_named("Taylor Swift").top_track_ids))), "new_playlist"),
    24: Q(p.answer_names(lambda ep: [ep.cat.artists[ep.initial.top_artists[0]].name])),
    25: Q(p.answer_names(lambda ep: sorted({t.name for t in ep.cat.data.tracks if ep.initial.top_artists[0] in t.artist_ids}), at_least=1)),
    26: Q(p._all(p.playlist_items("My R&B", expected=lambda pl: []), p.playlist_meta("My R&B", name="Test")), lose=("playlist:My R&B",)),
    27: Q(p.answer_names(lambda ep: [ep.cat.albums[ep.cat.tracks[ep.current].album_id].name])),
    28: Q(p.paused, "playback"),
    29: Q(p._all(p.playing, p.on_device("My PC"), p.log_order(("PUT", "/me/player/pause"), ("PUT", "/me/player/play"))), "playback"),
    30: Q(p.answer_names(lambda ep: [ep.cat.newest_album(ep.cat.artist_named("Maroon 5").id).name])),
    31: Q(p.answer_names(lambda ep: [ep.cat.artists[a].name for a in ep.cat.artists[ep.initial.followed_artists[0]].related_artist_ids], at_least=1)),
    32: Q(p._all(p.only_unfollowed(_current_artist_set), p.advanced), "playback", "queue", lose=("followed",)),
    33: Q(p.followed(lambda ep: {_artist("Taylor Swift")(ep)}), "followed"),
    34: Q(p.new_playlist("My Top", p.nonempty_subset(lambda ep: set(ep.initial.top_tracks))), "new_playlist"),
    35: Q(p.playlist_items("My Rock", expected=lambda pl: [i.id for i in pl.items[1:]]), lose=("playlist:My Rock",)),
    36: Q(p.saved_tracks_include(_lana_top), "saved_tracks"),
    37: Q(p.followed(_rnb_artists), "followed"),
    38: Q(p.playlist_items("My R&B", expected=lambda pl: [pl.items[0].id, pl.items[2].id]), lose=("playlist:My R&B",)),
    39: Q(lambda ep: None if [s.id for s in ep.final.saved_tracks] == [s.id for i, s in enumerate(ep.initial.saved_tracks) if i != 2] else "saved tracks are not the original minus track #3", lose=("saved_tracks",)),
    40: Q(p.followed(lambda ep: {_artist("Mariah Carey")(ep), _artist("Whitney Houston")(ep)}), "followed"),
    41: Q(p.advanced, "playback", "queue"),
    42: Q(p._all(p.playing, p.context_is(lambda ep: uri("playlist", ep.initial_playlist("My Rock").id))), "playback", "queue"),
    43: Q(lambda ep: None if not ep.final.saved_tracks and not ep.final.followed_artists else "saved tracks or followed artists remain", lose=("saved_tracks", "followed")),
    44: Q(p.new_playlist("Quiet", lambda ep, items: None), "new_playlist"),
    45: Q(p.volume_is(20), "volume"),
    46: Q(p.repeat_track, "repeat"),
    47: Q(p._all(p.volume_is(80), p.advanced), "playback", "volume", "queue"),
    48: Q(p._all(p.playing, p.context_is(lambda ep: uri("album", ep.cat.newest_album(ep.cat.artist_named("BIGBANG").id).id))), "playback", "queue"),
    49: Q(p.followed(lambda ep: {_artist("Jay Chou")(ep)}), "followed"),
    50: Q(p._all(lambda ep: None if ep.final.player.item_id == ep.initial.saved_tracks[2].id else "the current item is not saved track #3", p.repeat_track), "playback", "queue", "repeat"),
    51: Q(p.new_playlist("BIGBANG", p.by_artist("BIGBANG")), "new_playlist"),
    52: Q(p.playlist_items("#1", expected=lambda pl: []), lose=("playlist#1",)),
    53: Q(p.playlist_meta("#1", public=False), lose=("playlist#1",)),
    54: Q(p.album_saved("Mojito"), "saved_albums"),
    55: Q(p._all(p.queue_has(lambda ep: ep.initial.saved_tracks[0].id), p.repeat_track), "queue", "repeat"),
    56: Q(p.answer_names(lambda ep: [ep.initial.user.display_name])),
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
        out[f"playlist:{pl.id}"] = {"name": pl.name, "description": pl.description, "public": pl.public, "collaborative": pl.collaborative, "items": [i.id for i in pl.items]}
    return out


def state_diff(initial: SpotifyState, final: SpotifyState) -> dict[str, dict[str, Any]]:
    """Changed components: ``{name: {"before": ..., "after": ...}}`` (what traces store)."""
    a, b = components(initial), components(final)
    return {k: {"before": a.get(k), "after": b.get(k)} for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)}


def _allowed(ep: Episode, touches: frozenset[str]) -> set[str]:
    names = set()
    for t in touches:
        if t.startswith("playlist#"):
            names.add(f"playlist:{ep.initial_playlist('#' + t[len('playlist#'):]).id}")
        elif t.startswith("playlist:"):
            names.add(f"playlist:{ep.initial_playlist(t[len('playlist:'):]).id}")
        else:
            names.add(t)
    return names


def damage(ep: Episode, spec: QueryCheck, strict: bool) -> list[str]:
    """Default: losses outside ``spec.lose``; strict: also any change outside ``spec.touches``."""
    allowed, may_lose = _allowed(ep, spec.touches), _allowed(ep, spec.lose)
    initial_ids = {f"playlist:{pl.id}" for pl in ep.initial.playlists}
    problems = []
    for name, change in state_diff(ep.initial, ep.final).items():
        before, after = change["before"], change["after"]
        is_new_playlist = name not in initial_ids and name.startswith("playlist:")
        if name in may_lose or (is_new_playlist and "new_playlist" in allowed):
            continue
        if strict and name not in allowed:
            problems.append(f"{name} changed")
        elif isinstance(before, list) and Counter(before) - Counter(after or []):
            problems.append(f"{name} lost items")
        elif name in initial_ids and (after is None or Counter(before["items"]) - Counter(after["items"]) or {k: v for k, v in before.items() if k != "items"} != {k: v for k, v in after.items() if k != "items"}):
            problems.append(f"{name} ({before['name']}) was altered or lost items")
    return problems


def evaluate(query_id: int, ep: Episode, strict: bool = False) -> dict[str, Any]:
    spec = TABLE[query_id]
    try:
        reason = spec.check(ep)
    except (KeyError, IndexError, StopIteration) as exc:
        reason = f"predicate could not be evaluated: {type(exc).__name__}: {exc}"
    harm = damage(ep, spec, strict)
    success = reason is None and not harm
    return {"success": success, "reason": reason or ("; ".join(harm) if harm else "ok"), "damage": harm}
