"""Pydantic models of the Spotify sandbox: the frozen catalogue and the mutable per-user state.

The state holds ids only (never rendered objects), so a snapshot of it is small enough to store in
every trace and compare against the initial state when scoring. Rendering to the spec's JSON
shapes happens in ``render``.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

# ---------------------------------------------------------------- catalogue (read-only)


class Artist(BaseModel):
    id: str
    name: str
    genres: list[str] = Field(default_factory=list)
    popularity: int = 50
    followers: int = 0
    top_track_ids: list[str] = Field(default_factory=list)
    related_artist_ids: list[str] = Field(default_factory=list)
    #: True when the id is Spotify's real id (from the prompts or well known); False: synthetic
    real_id: bool = False
    #: True for padding (``padding/``): generated, never an authored fact
    generated: bool = False


class Album(BaseModel):
    id: str
    name: str
    artist_ids: list[str]
    album_type: str  # album | single | compilation
    release_date: str
    release_date_precision: str = "day"
    label: str = ""
    track_ids: list[str]
    real_id: bool = False
    generated: bool = False


class Track(BaseModel):
    id: str
    name: str
    album_id: str
    artist_ids: list[str]
    track_number: int
    duration_ms: int
    popularity: int = 50
    explicit: bool = False
    real_id: bool = False
    generated: bool = False


class PublicPlaylist(BaseModel):
    """Editorial playlists owned by another user: searchable and playable, not editable."""

    id: str
    name: str
    description: str = ""
    owner: dict[str, str]
    public: bool = True
    track_ids: list[str]
    #: ranks playlists in search (authored ones are 50; generated ones lower)
    popularity: int = 50
    followers: int = 0
    generated: bool = False


class CatalogueData(BaseModel):
    artists: list[Artist]
    albums: list[Album]
    tracks: list[Track]
    playlists: list[PublicPlaylist]


# ---------------------------------------------------------------- per-user state (mutable)


class SavedItem(BaseModel):
    id: str
    added_at: str


class PlaylistItem(BaseModel):
    id: str  # track id
    added_at: str
    added_by: str


class Playlist(BaseModel):
    id: str
    name: str
    description: str | None = None
    public: bool = True
    collaborative: bool = False
    owner_id: str
    owner_name: str | None = None
    items: list[PlaylistItem] = Field(default_factory=list)
    snapshot: int = 1


class Device(BaseModel):
    id: str
    name: str
    type: str
    is_active: bool = False
    is_private_session: bool = False
    is_restricted: bool = False
    volume_percent: int = 50


class Player(BaseModel):
    device_id: str | None = None
    is_playing: bool = False
    item_id: str | None = None
    context_uri: str | None = None
    progress_ms: int = 0
    repeat_state: str = "off"
    shuffle_state: bool = False


class PlayHistory(BaseModel):
    track_id: str
    played_at: str
    context_uri: str | None = None


class User(BaseModel):
    id: str
    display_name: str
    email: str
    country: str = "US"
    product: str = "premium"
    followers: int = 0


class SpotifyState(BaseModel):
    """Everything one user (one bearer token) can change. Lists are in API order (newest first
    for the library and playlists, follow order for followed artists)."""

    user: User
    saved_tracks: list[SavedItem] = Field(default_factory=list)
    saved_albums: list[SavedItem] = Field(default_factory=list)
    followed_artists: list[str] = Field(default_factory=list)
    playlists: list[Playlist] = Field(default_factory=list)
    devices: list[Device] = Field(default_factory=list)
    player: Player = Field(default_factory=Player)
    #: tracks the user queued (played before the context continues)
    user_queue: list[str] = Field(default_factory=list)
    #: the rest of the playing context, in play order
    context_queue: list[str] = Field(default_factory=list)
    #: tracks played before the current one (for ``previous``), most recent last
    history: list[str] = Field(default_factory=list)
    recently_played: list[PlayHistory] = Field(default_factory=list)
    top_artists: list[str] = Field(default_factory=list)
    top_tracks: list[str] = Field(default_factory=list)
    #: logical clock in seconds since the fixture epoch; makes timestamps deterministic
    clock: int = 0
    #: counter for deterministic ids of created playlists
    created: int = 0


class LogEntry(BaseModel):
    """One request the sandbox served for a token (what predicates read besides the state)."""

    method: str
    path: str
    template: str | None = None
    params: dict[str, str] = Field(default_factory=dict)
    body: object = None
    status: int
    #: uris returned by ``GET /search`` (query 9 checks that what plays came from a search)
    returned_uris: list[str] = Field(default_factory=list)
