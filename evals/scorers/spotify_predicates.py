"""Success predicates for the 57 RestBench Spotify queries (restbench.md §9).

A predicate sees an ``Episode``: the §8.4 initial state, the final state, the final answer and the
sandbox's request log. Each query has a check (its §9 row), the state components it may change
(``touches``) and those it may take items from (``lose``); the table is in ``restgraph.evals.scorers.spotify``.
On top of the check:

- default mode fails any *loss* outside ``lose`` (a removed saved track, album, follow or playlist
  item, a renamed or re-scoped playlist): "nothing else was damaged", so following one artist
  while unfollowing another fails even though both touch the follows;
- strict mode also fails any *change* outside ``touches`` (playback, volume, repeat, queue, new
  playlists included); for the nine read-only queries that means the state must be unchanged.

Queries that are no-ops under the initial state (7, 10, 20, 37; 5 and 36 if the fixture already
satisfies them) also need the mutating request in the log.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from restgraph.evals.scorers.answer_keys import verdict
from restgraph.tools.sandbox.spotify.catalogue import Catalogue, load_catalogue
from restgraph.tools.sandbox.spotify.models import LogEntry, Playlist, SpotifyState
from restgraph.tools.sandbox.spotify.search import fold

READ_ONLY = (17, 19, 21, 24, 25, 27, 30, 31, 56)


@dataclass
class Episode:
    initial: SpotifyState
    final: SpotifyState
    answer: str
    log: list[LogEntry]
    cat: Catalogue = field(default_factory=load_catalogue)

    # ------------------------------------------------------------ facts of the initial state
    @property
    def current(self) -> str:
        return self.initial.player.item_id or ""

    @property
    def current_artist(self) -> str:
        return self.cat.tracks[self.current].artist_ids[0]

    @property
    def queue_head(self) -> str:
        return (self.initial.user_queue + self.initial.context_queue)[0]

    def initial_playlist(self, ref: str) -> Playlist:
        """``#N`` (1-based list position) or a name."""
        if ref.startswith("#"):
            return self.initial.playlists[int(ref[1:]) - 1]
        return next(p for p in self.initial.playlists if p.name == ref)

    def final_playlist(self, playlist_id: str) -> Playlist | None:
        return next((p for p in self.final.playlists if p.id == playlist_id), None)

    def new_playlists(self, name: str) -> list[Playlist]:
        old = {p.id for p in self.initial.playlists}
        return [
            p
            for p in self.final.playlists
            if p.id not in old and fold(p.name) == fold(name) and p.owner_id == self.final.user.id
        ]

    def volume(self, state: SpotifyState) -> int:
        return next(
            d.volume_percent
            for d in state.devices
            if d.id == (state.player.device_id or self.initial.player.device_id)
        )

    # ------------------------------------------------------------ request log
    def calls(self, method: str, template: str) -> list[tuple[int, LogEntry]]:
        return [
            (i, e)
            for i, e in enumerate(self.log)
            if e.method == method and e.template == template and 200 <= e.status < 300
        ]

    def ids_sent(self, entry: LogEntry) -> set[str]:
        raw = entry.params.get("ids")
        if raw:
            return {i.strip().rsplit(":", 1)[-1] for i in raw.split(",")}
        body = entry.body if isinstance(entry.body, dict) else {}
        return {str(i).rsplit(":", 1)[-1] for i in body.get("ids", []) or []}

    def logged_ids(self, method: str, template: str, ids: set[str]) -> bool:
        sent: set[str] = set()
        for _, entry in self.calls(method, template):
            sent |= self.ids_sent(entry)
        return ids <= sent

    def searched_uris(self) -> set[str]:
        return {u for _, e in self.calls("GET", "/search") for u in e.returned_uris}


Check = Callable[[Episode], str | None]


def _all(*checks: Check) -> Check:
    def run(ep: Episode) -> str | None:
        for check in checks:
            reason = check(ep)
            if reason:
                return reason
        return None

    return run


def advanced(ep: Episode) -> str | None:
    return (
        None
        if ep.final.player.item_id == ep.queue_head
        else f"did not advance: current item {ep.final.player.item_id}, expected {ep.queue_head}"
    )


def playing(ep: Episode) -> str | None:
    return None if ep.final.player.is_playing else "the player is not playing"


def paused(ep: Episode) -> str | None:
    return None if not ep.final.player.is_playing else "the player is still playing"


def volume_is(v: int) -> Check:
    return lambda ep: None if ep.volume(ep.final) == v else f"volume is {ep.volume(ep.final)}, expected {v}"


def repeat_track(ep: Episode) -> str | None:
    return (
        None
        if ep.final.player.repeat_state == "track"
        else f"repeat_state is {ep.final.player.repeat_state!r}"
    )


def queue_has(track: Callable[[Episode], str]) -> Check:
    def check(ep: Episode) -> str | None:
        want = track(ep)
        return (
            None
            if want in ep.final.user_queue + ep.final.context_queue
            else f"{ep.cat.tracks[want].name!r} is not in the queue"
        )

    return check


def followed(artists: Callable[[Episode], set[str]], *, require_log_if_noop: bool = True) -> Check:
    def check(ep: Episode) -> str | None:
        want = artists(ep)
        missing = want - set(ep.final.followed_artists)
        if missing:
            return "not followed: " + ", ".join(ep.cat.artists[a].name for a in sorted(missing))
        if (
            require_log_if_noop
            and want <= set(ep.initial.followed_artists)
            and not ep.logged_ids("PUT", "/me/following", want)
        ):
            return "already followed at the start, and no PUT /me/following with those ids was sent"
        return None

    return check


def only_unfollowed(artists: Callable[[Episode], set[str]]) -> Check:
    """Exactly ``artists`` were unfollowed (others kept, in order; new follows are allowed)."""

    def check(ep: Episode) -> str | None:
        drop = artists(ep)
        kept = [a for a in ep.initial.followed_artists if a not in drop]
        if drop & set(ep.final.followed_artists):
            return "still followed: " + ", ".join(
                ep.cat.artists[a].name for a in sorted(drop & set(ep.final.followed_artists))
            )
        lost = [a for a in kept if a not in ep.final.followed_artists]
        return "also unfollowed: " + ", ".join(ep.cat.artists[a].name for a in lost) if lost else None

    return check


def saved_tracks_include(tracks: Callable[[Episode], set[str]]) -> Check:
    def check(ep: Episode) -> str | None:
        want = tracks(ep)
        have = {s.id for s in ep.final.saved_tracks}
        if not want <= have:
            return "not saved: " + ", ".join(ep.cat.tracks[t].name for t in sorted(want - have))
        if want <= {s.id for s in ep.initial.saved_tracks} and not ep.logged_ids("PUT", "/me/tracks", want):
            return "already saved at the start, and no PUT /me/tracks with those ids was sent"
        return None

    return check


def album_saved(name: str) -> Check:
    return lambda ep: (
        None
        if ep.cat.album_named(name).id in {s.id for s in ep.final.saved_albums}
        else f"album {name!r} is not saved"
    )


def playlist_items(
    ref: str,
    expected: Callable[[Playlist], list[str]] | None = None,
    contains: Callable[[Episode], str] | None = None,
) -> Check:
    def check(ep: Episode) -> str | None:
        start = ep.initial_playlist(ref)
        end = ep.final_playlist(start.id)
        if end is None:
            return f"playlist {start.name!r} is gone"
        items = [i.id for i in end.items]
        if expected is not None and items != expected(start):
            return (
                f"playlist {start.name!r} holds {[ep.cat.tracks[t].name for t in items]}, expected "
                f"{[ep.cat.tracks[t].name for t in expected(start)]}"
            )
        if contains is not None and contains(ep) not in items:
            return f"playlist {start.name!r} lacks {ep.cat.tracks[contains(ep)].name!r}"
        return None

    return check


def playlist_meta(ref: str, **want: Any) -> Check:
    def check(ep: Episode) -> str | None:
        start = ep.initial_playlist(ref)
        end = ep.final_playlist(start.id)
        if end is None:
            return f"playlist {start.name!r} is gone"
        wrong = {k: getattr(end, k) for k, v in want.items() if getattr(end, k) != v}
        return f"playlist {start.name!r} has {wrong}, expected {want}" if wrong else None

    return check


def new_playlist(name: str, ok: Callable[[Episode, list[str]], str | None]) -> Check:
    """Some new playlist called ``name`` (owned by the user) whose tracks satisfy ``ok``."""

    def check(ep: Episode) -> str | None:
        found = ep.new_playlists(name)
        if not found:
            return f"no new playlist named {name!r}"
        reasons = [ok(ep, [i.id for i in p.items]) for p in found]
        return None if any(r is None for r in reasons) else reasons[0]

    return check


def nonempty_subset(pool: Callable[[Episode], set[str]]) -> Callable[[Episode, list[str]], str | None]:
    def ok(ep: Episode, items: list[str]) -> str | None:
        if not items:
            return "the playlist is empty"
        extra = set(items) - pool(ep)
        return f"unexpected tracks: {[ep.cat.tracks[t].name for t in extra]}" if extra else None

    return ok


def by_artist(
    artist: str, exactly: int | None = None, at_least: int = 1
) -> Callable[[Episode, list[str]], str | None]:
    def ok(ep: Episode, items: list[str]) -> str | None:
        artist_id = ep.cat.artist_named(artist).id
        if exactly is not None and len(items) != exactly:
            return f"the playlist has {len(items)} tracks, expected {exactly}"
        if len(items) < at_least:
            return f"the playlist has {len(items)} tracks, expected at least {at_least}"
        if any(artist_id not in ep.cat.tracks[t].artist_ids for t in items):
            return f"not every track is by {artist}"
        return None

    return ok


def context_is(uri_of: Callable[[Episode], str]) -> Check:
    return lambda ep: (
        None
        if ep.final.player.context_uri == uri_of(ep)
        else f"context is {ep.final.player.context_uri}, expected {uri_of(ep)}"
    )


def log_order(first: tuple[str, str], then: tuple[str, str]) -> Check:
    def check(ep: Episode) -> str | None:
        firsts = [i for i, _ in ep.calls(*first)]
        thens = [i for i, _ in ep.calls(*then)]
        return (
            None
            if firsts and any(t > min(firsts) for t in thens)
            else f"no successful {' '.join(first)} followed by {' '.join(then)} in the request log"
        )

    return check


def answer_key(query_id: int) -> Check:
    """The read-only queries: the answer must *assert* what the query's answer key
    (``evals/scorers/keys/spotify.yaml``) asks for, judged by ``restgraph.evals.scorers.answer_keys``."""

    def check(ep: Episode) -> str | None:
        ok, reason = verdict("spotify", query_id, ep.answer)
        return None if ok else f"answer: {reason}"

    return check


def playing_from_search(ep: Episode) -> str | None:
    seen = ep.searched_uris()
    item = f"spotify:track:{ep.final.player.item_id}"
    if item in seen or (ep.final.player.context_uri or "") in seen:
        return None
    return "what plays did not come from a GET /search response of this episode"


def changed_play(ep: Episode) -> str | None:
    before, after = ep.initial.player, ep.final.player
    return (
        None
        if (after.item_id, after.context_uri) != (before.item_id, before.context_uri)
        else "playback was not started on anything new"
    )


def on_device(name: str) -> Check:
    return lambda ep: (
        None
        if ep.final.player.device_id == next(d.id for d in ep.initial.devices if d.name == name)
        else f"not playing on {name!r}"
    )
