"""Pad the authored Spotify catalogue to the real API's scale with generated, seeded entities.

The authored catalogue (``catalogue.json``) holds what the 57 queries ask about and nothing else:
19 artists, a few albums each. The real API answered a search with full pages and totals in the
hundreds, an artist's discography with dozens of albums and singles, an album with its full track
list. ``pad`` adds, per authored artist (counts grow with its popularity):

- a **discography**: more albums (dated strictly before the artist's newest authored album, so
  "newest album" answers stand), editions of older authored albums, singles, compilations, and
  appearances on Various Artists compilations; authored albums are filled to a full track list by
  tracks appended after the authored ones (so "first song of" answers stand);
- **namesakes**: tribute, karaoke and cover acts carrying the artist's name (one or two with the
  very same name), with cover albums of the artist's songs, so a search finds near matches;
- **peers**: similar generated artists that fill ``related-artists`` to 20 after the authored ones;
- **playlists** named after the artist ("This Is ...", fan playlists) and generic mood playlists;
- ``top-tracks`` filled to 10 after the authored ones.

Everything generated is less popular than every authored entity of its kind (tracks, albums,
artists, playlists), so authored items keep their rank; ``protect`` then renames any generated item
that would still outrank an authored one in a query the reference solutions depend on. Every random
choice comes from an RNG seeded by the entity it is for, so the result is deterministic.
"""

from __future__ import annotations

import hashlib
import random
from datetime import date

from restgraph.tools.sandbox.spotify.models import Album, Artist, CatalogueData, PublicPlaylist, Track
from restgraph.tools.sandbox.spotify.padding import pools

_B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
LATEST = date(2023, 11, 1)  # no generated release is newer (the fixture's epoch is 2023-11-14)
VARIOUS_ARTISTS = "0LyfQWJT6nXafLPZqxe9Of"  # Spotify's real id of "Various Artists"
RELATED = 20
TOP_TRACKS = 10


def gen_id(*parts: object) -> str:
    n = int(hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest(), 16)
    out = []
    for _ in range(22):
        n, r = divmod(n, 62)
        out.append(_B62[r])
    return "".join(out)


def rng_for(*parts: object) -> random.Random:
    return random.Random(int(hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()[:16], 16))


def title(rng: random.Random) -> str:
    """A plausible song or album title."""
    a, n, v = rng.choice(pools.ADJECTIVES), rng.choice(pools.NOUNS), rng.choice(pools.VERBS)
    return rng.choice(
        (
            f"{a} {n}",
            f"{n}",
            f"{v} {n}s" if not n.endswith("s") else f"{v} {n}",
            f"{n} of the {rng.choice(pools.NOUNS)}",
            f"{a} {n}s",
            f"{v}",
            f"The {a} {n}",
            f"{n} in {rng.choice(pools.PLACES)}",
        )
    )


def _day(rng: random.Random, lo: date, hi: date) -> str:
    """An ISO day in [lo, hi) (``lo`` if the range is empty)."""
    span = (hi - lo).days
    return date.fromordinal(lo.toordinal() + (rng.randrange(span) if span > 0 else 0)).isoformat()


def _iso(value: str) -> date:
    parts = [int(p) for p in value.split("-")] + [1, 1]
    return date(parts[0], parts[1], parts[2])


class Padder:
    """Collects generated entities next to copies of the authored ones (which it may extend)."""

    def __init__(self, facts: CatalogueData):
        self.artists = [a.model_copy(deep=True) for a in facts.artists]
        self.albums = [a.model_copy(deep=True) for a in facts.albums]
        self.tracks = [t.model_copy(deep=True) for t in facts.tracks]
        self.playlists = [p.model_copy(deep=True) for p in facts.playlists]
        self.authored = list(self.artists)
        self.by_id = {a.id: a for a in self.artists}
        self.track_by_id = {t.id: t for t in self.tracks}
        self.album_ids = {a.id for a in self.albums}
        self.track_cap = min(t.popularity for t in facts.tracks) - 5
        self.artist_cap = min(a.popularity for a in facts.artists) - 5
        self.playlist_cap = min((p.popularity for p in facts.playlists), default=50) - 5
        self.songs: dict[str, list[str]] = {}  # artist id -> its track ids, authored first
        for t in self.tracks:
            self.songs.setdefault(t.artist_ids[0], []).append(t.id)

    # ------------------------------------------------------------ building blocks
    def artist(self, seed: str, name: str, genres: list[str], popularity: int, followers: int) -> Artist:
        artist = Artist(
            id=gen_id("artist", seed, name),
            name=name,
            genres=genres,
            popularity=popularity,
            followers=followers,
            generated=True,
        )
        self.artists.append(artist)
        self.by_id[artist.id] = artist
        return artist

    def track(
        self, album_id: str, artist_ids: list[str], name: str, number: int, pop: int, rng: random.Random
    ) -> Track:
        track = Track(
            id=gen_id("track", album_id, number, name),
            name=name,
            album_id=album_id,
            artist_ids=artist_ids,
            track_number=number,
            duration_ms=rng.randrange(120_000, 330_000),
            popularity=max(0, min(pop, self.track_cap)),
            explicit=rng.random() < 0.15,
            generated=True,
        )
        self.tracks.append(track)
        self.track_by_id[track.id] = track
        self.songs.setdefault(artist_ids[0], []).append(track.id)
        return track

    def album(
        self,
        rng: random.Random,
        artist_ids: list[str],
        name: str,
        album_type: str,
        day: str,
        songs: list[tuple[str, list[str]]],
        pop: tuple[int, int],
    ) -> Album:
        """An album whose tracks are ``songs``: (name, artists) in order, popularity in ``pop``."""
        if album_type == "album" and len(songs) < 7:
            album_type = "single"  # Spotify files releases of a few tracks (EPs) as singles
        album_id = gen_id("album", artist_ids[0], name, day)
        while album_id in self.album_ids:
            album_id = gen_id("album", album_id)
        self.album_ids.add(album_id)
        lo, hi = pop
        ids = [
            self.track(album_id, by, song, n, rng.randint(lo, max(lo, hi)), rng).id
            for n, (song, by) in enumerate(songs, 1)
        ]
        label = rng.choice(
            (
                "Republic Records",
                "Columbia",
                "Interscope",
                "Atlantic Records",
                "Polydor",
                "Parlophone",
                "Indie Wave",
            )
        )
        album = Album(
            id=album_id,
            name=name,
            artist_ids=artist_ids,
            album_type=album_type,
            release_date=day,
            label=label,
            track_ids=ids,
            generated=True,
        )
        self.albums.append(album)
        return album

    def titles(self, rng: random.Random, n: int, taken: set[str]) -> list[str]:
        out: list[str] = []
        for _ in range(n * 20):
            if len(out) == n:
                break
            t = title(rng)
            if t.lower() not in taken:
                taken.add(t.lower())
                out.append(t)
        return out

    # ------------------------------------------------------------ per authored artist
    def discography(self, artist: Artist) -> None:
        rng = rng_for("discography", artist.id)
        s = artist.popularity / 100
        own = [a for a in self.albums if a.artist_ids[0] == artist.id]
        dated = [_iso(a.release_date) for a in own]
        newest = max((_iso(a.release_date) for a in own if a.album_type == "album"), default=LATEST)
        start = date(min(dated).year - rng.randint(0, 3), 1, 1) if dated else date(2012, 1, 1)
        start = min(start, newest.replace(year=newest.year - 2))
        pop = (max(1, artist.popularity - 70), min(self.track_cap, artist.popularity - 10))
        taken = {t.name.lower() for t in self.tracks}
        me = [artist.id]
        # full track lists on authored albums cut short (fewer than 10 tracks: the authors kept the
        # tracks the queries need), appended after the authored tracks; full ones stay as they are
        for album in own:
            if album.album_type != "album" or album.generated or len(album.track_ids) >= 10:
                continue
            target = rng.randint(10, 16)
            for name in self.titles(rng, max(0, target - len(album.track_ids)), taken):
                t = self.track(album.id, me, name, len(album.track_ids) + 1, rng.randint(*_ordered(pop)), rng)
                album.track_ids.append(t.id)
        # more studio albums, strictly older than the newest authored one
        n_albums = max(0, 6 + round(8 * s) - sum(a.album_type == "album" for a in own))
        for _ in range(n_albums):
            songs = [(t, me) for t in self.titles(rng, rng.randint(9, 16), taken)]
            self.album(rng, me, title(rng), "album", _day(rng, start, newest), songs, _ordered(pop))
        # editions of older authored albums (never of the newest), still before the newest
        for album in own:
            if album.album_type == "album" and _iso(album.release_date) < newest and rng.random() < 0.6:
                names = [self.track_by_id[t].name for t in album.track_ids]
                extra = [
                    f"{n}{rng.choice(pools.TRACK_VERSIONS)}" for n in rng.sample(names, min(3, len(names)))
                ]
                day = _day(rng, _iso(album.release_date), newest)
                edition = album.name + rng.choice(pools.ALBUM_EDITIONS)
                self.album(rng, me, edition, "album", day, [(n, me) for n in names + extra], _ordered(pop))
        # singles and compilations (not "album" group, so they may be newer)
        catalogue = [self.track_by_id[t].name for t in self.songs.get(artist.id, [])]
        for _ in range(8 + round(30 * s)):
            lead = (
                rng.choice(catalogue) if catalogue and rng.random() < 0.4 else self.titles(rng, 1, taken)[0]
            )
            names = [lead] + [f"{lead}{v}" for v in rng.sample(pools.TRACK_VERSIONS, rng.randint(0, 2))]
            self.album(
                rng, me, lead, "single", _day(rng, start, LATEST), [(n, me) for n in names], _ordered(pop)
            )
        for _ in range(1 + round(4 * s)):
            names = rng.sample(catalogue, min(len(catalogue), rng.randint(14, 22)))
            if names:
                name = rng.choice(pools.COMPILATION_TITLES)
                day = _day(rng, start.replace(year=start.year + 5), LATEST)
                self.album(rng, me, name, "compilation", day, [(n, me) for n in names], _ordered(pop))

    def namesakes(self, artist: Artist) -> None:
        """Acts carrying the artist's name, each with cover versions of the artist's songs."""
        rng = rng_for("namesakes", artist.id)
        s = artist.popularity / 100
        count = round(10 + 200 * s**3)
        names: list[str] = [artist.name] * rng.randint(1, 2)  # the very same name, a smaller act
        seen = set(names)
        for _ in range(count * 20):
            if len(names) >= count:
                break
            roll = rng.random()
            if roll < 0.45:
                name = f"{artist.name} {rng.choice(pools.NAMESAKE_SUFFIXES)}"
            elif roll < 0.75:
                name = f"{rng.choice(pools.NAMESAKE_PREFIXES)} {artist.name}"
            else:
                name = f"{artist.name} {rng.choice(pools.NAMESAKE_SUFFIXES)} {rng.choice(pools.PLACES)}"
            if name not in seen:
                seen.add(name)
                names.append(name)
        songs = [self.track_by_id[t].name for t in self.songs.get(artist.id, [])]
        albums = [a.name for a in self.albums if a.artist_ids[0] == artist.id and not a.generated]
        for i, name in enumerate(names):
            pop = int(self.artist_cap * rng.random() ** 2)
            act = self.artist(
                f"{artist.id}:{i}",
                name,
                artist.genres[: rng.randint(1, 3)],
                pop,
                int(10 ** rng.uniform(1, 5)),
            )
            if not songs:
                continue
            me = [act.id]
            cover_pop = (0, max(1, min(self.track_cap, pop)))
            kind = rng.choice(("Karaoke Version", "Piano Version", "Instrumental", "Cover", ""))
            if rng.random() < 0.7:
                picked = rng.sample(songs, min(len(songs), rng.randint(8, 14)))
                tracks = [(f"{n} ({kind})" if kind else n, me) for n in picked]
                base = (
                    rng.choice(albums)
                    if albums and rng.random() < 0.4
                    else rng.choice(pools.COMPILATION_TITLES)
                )
                label = f"{base} ({kind or 'Covers'})"
                self.album(rng, me, label, "album", _day(rng, date(2008, 1, 1), LATEST), tracks, cover_pop)
            for _ in range(rng.randint(0, 2)):
                n = rng.choice(songs)
                self.album(rng, me, n, "single", _day(rng, date(2010, 1, 1), LATEST), [(n, me)], cover_pop)

    def peers(self, artist: Artist) -> list[Artist]:
        """Similar generated artists: ``related-artists`` is filled to 20 with them."""
        rng = rng_for("peers", artist.id)
        want = max(0, RELATED - len(artist.related_artist_ids))
        out: list[Artist] = []
        taken = {a.name for a in self.artists}
        for i in range(want * 5):
            if len(out) == want:
                break
            if rng.random() < 0.6:
                name = f"{rng.choice(pools.FIRST_NAMES)} {rng.choice(pools.LAST_NAMES)}"
            else:
                name = f"The {rng.choice(pools.ADJECTIVES)} {rng.choice(pools.BAND_WORDS)}"
            if name in taken:
                continue
            taken.add(name)
            pop = rng.randint(5, self.artist_cap)
            peer = self.artist(
                f"peer:{artist.id}:{i}", name, list(artist.genres), pop, int(10 ** rng.uniform(3, 6))
            )
            me = [peer.id]
            song_taken: set[str] = set()
            pops = (max(0, pop - 30), min(self.track_cap, pop))
            for _ in range(rng.randint(1, 2)):
                songs = [(t, me) for t in self.titles(rng, rng.randint(8, 12), song_taken)]
                self.album(rng, me, title(rng), "album", _day(rng, date(2012, 1, 1), LATEST), songs, pops)
            for _ in range(rng.randint(1, 4)):
                (n,) = self.titles(rng, 1, song_taken)
                self.album(rng, me, n, "single", _day(rng, date(2015, 1, 1), LATEST), [(n, me)], pops)
            out.append(peer)
        artist.related_artist_ids = artist.related_artist_ids + [p.id for p in out]
        for p in out:
            p.related_artist_ids = [artist.id] + [q.id for q in out if q is not p][: RELATED - 1]
            p.top_track_ids = self.top_tracks(p.id, [])
        return out

    def top_tracks(self, artist_id: str, authored: list[str]) -> list[str]:
        rest = [
            t for t in self.songs.get(artist_id, []) if t not in authored and self.track_by_id[t].generated
        ]
        rest.sort(key=lambda t: -self.track_by_id[t].popularity)
        seen = {self.track_by_id[t].name for t in authored}
        out = list(authored)
        for t in rest:
            if len(out) >= TOP_TRACKS:
                break
            if self.track_by_id[t].name not in seen:
                seen.add(self.track_by_id[t].name)
                out.append(t)
        return out

    # ------------------------------------------------------------ shared
    def various_artists(self) -> None:
        """Various Artists compilations: the "appears_on" group of every authored artist."""
        rng = rng_for("various")
        va = Artist(id=VARIOUS_ARTISTS, name="Various Artists", popularity=0, generated=True)
        self.artists.append(va)
        self.by_id[va.id] = va
        weights = [a.popularity**2 for a in self.authored]
        for n in range(1, 121):
            year = rng.randint(2005, 2023)
            name = rng.choice(pools.VA_TITLES).format(year=year, n=n)
            picks = rng.choices(self.authored, weights=weights, k=rng.randint(16, 24))
            songs = []
            for who in picks:
                own = self.songs.get(who.id)
                if own:
                    songs.append((self.track_by_id[rng.choice(own)].name, [who.id]))
            day = _day(rng, date(year, 1, 1), min(date(year + 1, 1, 1), LATEST))
            self.album(rng, [va.id], name, "compilation", day, songs, (0, self.track_cap))

    def artist_playlists(self, artist: Artist) -> None:
        rng = rng_for("playlists", artist.id)
        s = artist.popularity / 100
        count = round(6 + 110 * s**2)
        pool = list(self.songs.get(artist.id, []))
        for rel in artist.related_artist_ids[:8]:
            pool += self.songs.get(rel, [])[:10]
        if not pool:
            return
        seen: set[str] = set()
        for i in range(count * 10):
            if len(seen) >= count:
                break
            pattern = rng.choice(pools.PLAYLIST_PATTERNS)
            name = pattern.format(
                n=artist.name, mood=rng.choice(pools.PLAYLIST_MOODS), year=rng.randint(2015, 2023)
            )
            if name in seen:
                continue
            seen.add(name)
            editorial = pattern.startswith("This Is") or pattern.endswith(("Radio", "Essentials"))
            self._playlist(rng, f"{artist.id}:{i}", name, editorial, pool, f"The best of {artist.name}.")

    def generic_playlists(self) -> None:
        rng = rng_for("generic playlists")
        pool = [t.id for t in self.tracks]
        for theme in pools.GENERIC_PLAYLIST_WORDS:
            for v in range(rng.randint(4, 9)):
                name = (
                    theme
                    if v == 0
                    else f"{theme} {rng.choice(('Vol. 2', 'Mix', str(rng.randint(2015, 2023)), 'Playlist', 'Radio', 'Essentials'))}"
                )
                self._playlist(rng, f"generic:{theme}:{v}", name, v == 0, pool, f"{theme}, hand-picked.")

    def _playlist(
        self, rng: random.Random, seed: str, name: str, editorial: bool, pool: list[str], description: str
    ) -> None:
        owner = "spotify" if editorial else rng.choice(pools.USERNAMES)
        tracks = rng.sample(pool, min(len(pool), rng.randint(30, 100)))
        self.playlists.append(
            PublicPlaylist(
                id=gen_id("playlist", seed, name),
                name=name,
                description=description if editorial else "",
                owner={"id": owner, "display_name": "Spotify" if editorial else owner},
                track_ids=tracks,
                popularity=rng.randint(30, self.playlist_cap) if editorial else rng.randint(0, 30),
                followers=int(10 ** rng.uniform(5, 6.5)) if editorial else int(10 ** rng.uniform(0, 4)),
                generated=True,
            )
        )

    def data(self) -> CatalogueData:
        return CatalogueData(
            artists=self.artists, albums=self.albums, tracks=self.tracks, playlists=self.playlists
        )


def _ordered(pair: tuple[int, int]) -> tuple[int, int]:
    lo, hi = pair
    return (min(lo, hi), max(lo, hi))
