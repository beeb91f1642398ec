"""Releases that share a title with an authored album or track: the near matches of a search.

The real API's search for an album title ("Mojito", "The Dark Side of the Moon") or a song title
("When You Believe") finds far more than the one authored release: same-titled albums and EPs of
other acts, remix and tribute releases, cover versions on cover albums. ``title_neighbours`` adds
them, performed by a pool of small generated acts, their number growing with the authored item's
popularity. Every such release is less popular than the authored one it echoes (``Padder``'s caps),
so a search for the title still lists the authored release first (``protect`` checks the searches
the reference solutions make).
"""

from __future__ import annotations

from datetime import date

from restgraph.tools.sandbox.spotify.models import Artist
from restgraph.tools.sandbox.spotify.padding import pools
from restgraph.tools.sandbox.spotify.padding.generate import LATEST, Padder, _day, rng_for

_ACTS = 300
_COVER_ALBUM = 10  # covers per cover album


def _acts(p: Padder) -> list[Artist]:
    rng = rng_for("small acts")
    genres = sorted({g for a in p.authored for g in a.genres})
    taken = {a.name for a in p.artists}
    acts: list[Artist] = []
    for i in range(_ACTS * 3):
        if len(acts) == _ACTS:
            break
        if rng.random() < 0.5:
            name = f"{rng.choice(pools.FIRST_NAMES)} {rng.choice(pools.LAST_NAMES)}"
        else:
            name = f"{rng.choice(pools.ADJECTIVES)} {rng.choice(pools.BAND_WORDS)}"
        if name in taken:
            continue
        taken.add(name)
        pop = int(25 * rng.random() ** 2)
        acts.append(p.artist(f"act:{i}", name, rng.sample(genres, 2), pop, int(10 ** rng.uniform(1, 4))))
    return acts


def title_neighbours(p: Padder) -> None:
    acts = _acts(p)
    rng = rng_for("title neighbours")
    authored_albums = [a for a in p.albums if not a.generated]
    for album in authored_albums:
        s = max(p.track_by_id[t].popularity for t in album.track_ids) / 100
        for _ in range(round(15 + 45 * s)):
            act = rng.choice(acts)
            roll = rng.random()
            if roll < 0.35:
                name = album.name
            elif roll < 0.6:
                name = (
                    f"{album.name}{rng.choice((' (Remixes)', ' EP', ' (Tribute)', ' (Live)', ' (Acoustic)'))}"
                )
            elif roll < 0.8:
                name = f"{album.name} {rng.choice(pools.NOUNS)}"
            else:
                name = f"{rng.choice(pools.ADJECTIVES)} {album.name}"
            songs = [(name, [act.id])] + [
                (f"{name}{v}", [act.id]) for v in rng.sample(pools.TRACK_VERSIONS, rng.randint(0, 2))
            ]
            kind = "single"  # 1-3 tracks: Spotify files singles and EPs as "single"
            day = _day(rng, date(2005, 1, 1), LATEST)
            p.album(rng, [act.id], name, kind, day, songs, (0, min(act.popularity + 10, p.track_cap)))
    covers: list[str] = []
    for track in [t for t in p.tracks if not t.generated]:
        covers += [track.name] * round(12 + 40 * (track.popularity / 100) ** 2)
    rng.shuffle(covers)
    for n in range(0, len(covers), _COVER_ALBUM):
        act = rng.choice(acts)
        kind = rng.choice(("Acoustic Covers", "Piano Covers", "Covers", "Sessions", "Songbook"))
        name = f"{kind}, Vol. {rng.randint(1, 9)}"
        version = rng.choice(("", "", " (Acoustic)", " - Cover", " (Piano)"))
        songs = [(t + version, [act.id]) for t in dict.fromkeys(covers[n : n + _COVER_ALBUM])]
        day = _day(rng, date(2008, 1, 1), LATEST)
        kind = "album" if len(songs) >= 7 else "single"
        p.album(rng, [act.id], name, kind, day, songs, (0, min(act.popularity + 10, p.track_cap)))
