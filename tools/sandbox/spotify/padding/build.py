"""The order the padding steps run in (each step's RNG is seeded by its own entity, so the result
is deterministic): discographies, peers, namesakes, Various Artists, title neighbours, top tracks,
playlists, then the protection pass over the searches the reference solutions make."""

from __future__ import annotations

from restgraph.tools.sandbox.spotify.models import CatalogueData
from restgraph.tools.sandbox.spotify.padding.generate import Padder
from restgraph.tools.sandbox.spotify.padding.neighbours import title_neighbours
from restgraph.tools.sandbox.spotify.padding.protect import protect


def pad(facts: CatalogueData) -> CatalogueData:
    """The padded catalogue: authored entities first (extended, never reordered), then generated."""
    p = Padder(facts)
    for artist in p.authored:
        p.discography(artist)
    for artist in p.authored:
        p.peers(artist)
    for artist in p.authored:
        p.namesakes(artist)
    p.various_artists()
    title_neighbours(p)
    for artist in p.authored:
        artist.top_track_ids = p.top_tracks(artist.id, artist.top_track_ids)
    for artist in p.authored:
        p.artist_playlists(artist)
    p.generic_playlists()
    return protect(p.data())
