"""Negative controls for the §9 predicates: doing nothing, and wrong mutations, must fail."""

from __future__ import annotations

import pytest

from restgraph.evals.scorers.spotify import TABLE, evaluate
from restgraph.evals.scorers.spotify_predicates import READ_ONLY, Episode
from restgraph.tools.sandbox.spotify.catalogue import load_catalogue
from restgraph.tools.sandbox.spotify.state import initial_state

CAT = load_catalogue()
START = initial_state()
MY_ROCK, MY_RNB = START.playlists[0], START.playlists[1]


def track_uri(artist: str, name: str) -> str:
    return f"spotify:track:{CAT.track_named(artist, name).id}"


def test_table_covers_all_57_queries_and_nine_read_only():
    assert sorted(TABLE) == list(range(1, 58))
    assert len(READ_ONLY) == 9


@pytest.mark.parametrize("query", sorted(TABLE))
def test_doing_nothing_fails(query):
    ep = Episode(initial=initial_state(), final=initial_state(), answer="", log=[])
    assert evaluate(query, ep)["success"] is False


def test_noop_queries_need_the_mutating_call(user):
    """7/20: the current artist is already followed; only the logged PUT /me/following passes."""
    assert not evaluate(7, user.episode())["success"]
    user("PUT", "/me/following", {"type": "artist", "ids": CAT.artist_named("Whitney Houston").id})
    assert not evaluate(7, user.episode())["success"], (
        "following someone else is not following the current artist"
    )
    user("PUT", "/me/following", {"type": "artist", "ids": CAT.artist_named("Lana Del Rey").id})
    assert evaluate(7, user.episode())["success"] and evaluate(20, user.episode())["success"]


def test_no_op_37_needs_every_artist_in_the_log(user):
    user("GET", f"/playlists/{MY_RNB.id}")
    assert not evaluate(37, user.episode())["success"]
    user(
        "PUT",
        "/me/following",
        body={"ids": [CAT.artist_named("Whitney Houston").id]},
        params={"type": "artist"},
    )
    assert evaluate(37, user.episode())["success"]


# ---------------------------------------------------------------- playlist family
def test_wrong_playlist_fails(user):
    user(
        "POST",
        f"/playlists/{MY_RNB.id}/tracks",
        body={"uris": [track_uri("Lana Del Rey", "Summertime Sadness")]},
    )
    assert not evaluate(3, user.episode())["success"]  # "my first playlist" is My Rock
    user(
        "POST",
        f"/playlists/{MY_ROCK.id}/tracks",
        body={"uris": [track_uri("Lana Del Rey", "Summertime Sadness")]},
    )
    assert evaluate(3, user.episode(), permissive=True)["success"]
    assert not evaluate(3, user.episode())["success"], "the stray addition to My R&B is collateral damage"


def test_renaming_the_wrong_playlist_fails(user):
    user("PUT", f"/playlists/{MY_RNB.id}", body={"name": "My First"})
    result = evaluate(13, user.episode())
    assert not result["success"]


def test_wrong_track_removed_fails(user):
    second = MY_ROCK.items[1].id
    user("DELETE", f"/playlists/{MY_ROCK.id}/tracks", body={"tracks": [{"uri": f"spotify:track:{second}"}]})
    assert not evaluate(35, user.episode())["success"]


def test_right_track_removed_passes_and_extra_deletion_fails(user):
    first = MY_ROCK.items[0].id
    user("DELETE", f"/playlists/{MY_ROCK.id}/tracks", body={"tracks": [{"uri": f"spotify:track:{first}"}]})
    assert evaluate(35, user.episode())["success"]
    user(
        "DELETE",
        f"/playlists/{MY_RNB.id}/tracks",
        body={"tracks": [{"uri": f"spotify:track:{MY_RNB.items[0].id}"}]},
    )
    result = evaluate(35, user.episode())
    assert not result["success"] and "changed" in result["reason"]
    result = evaluate(35, user.episode(), permissive=True)
    assert not result["success"] and "altered or lost items" in result["reason"]


def test_new_playlist_with_wrong_content_fails(user):
    me = user("GET", "/me")
    pl = user("POST", f"/users/{me['id']}/playlists", body={"name": "Love Mariah"})
    user(
        "POST",
        f"/playlists/{pl['id']}/tracks",
        body={
            "uris": [
                track_uri("Mariah Carey", "Hero"),
                track_uri("Mariah Carey", "Fantasy"),
                track_uri("Whitney Houston", "I Have Nothing"),
            ]
        },
    )
    assert not evaluate(1, user.episode())["success"]


# ---------------------------------------------------------------- library family
def test_saved_track_family(user):
    tracks = START.saved_tracks
    user("DELETE", "/me/tracks", {"ids": tracks[1].id})
    assert not evaluate(39, user.episode())["success"]  # wrong track
    user("DELETE", "/me/tracks", {"ids": tracks[2].id})
    assert not evaluate(39, user.episode())["success"]  # right one, plus an extra deletion


def test_saved_track_exact_removal_passes(user):
    user("DELETE", "/me/tracks", {"ids": START.saved_tracks[2].id})
    assert evaluate(39, user.episode())["success"]


def test_album_family(user):
    user("DELETE", "/me/albums", {"ids": START.saved_albums[1].id})
    assert not evaluate(18, user.episode())["success"]  # removed Born To Die, not the first album
    user("PUT", "/me/albums", {"ids": CAT.album_named("Mojito").id})
    assert not evaluate(12, user.episode())["success"], "saving Mojito after deleting Born To Die is damage"


def test_saving_while_deleting_elsewhere_is_damage(user):
    user("PUT", "/me/tracks", {"ids": START.player.item_id})
    assert evaluate(5, user.episode())["success"]
    user("DELETE", "/me/tracks", {"ids": START.saved_tracks[0].id})
    assert not evaluate(5, user.episode())["success"]


# ---------------------------------------------------------------- follow family
def test_follow_family(user):
    lana, whitney = CAT.artist_named("Lana Del Rey").id, CAT.artist_named("Whitney Houston").id
    user("DELETE", "/me/following", {"type": "artist", "ids": whitney})
    assert not evaluate(14, user.episode())["success"]  # wrong artist
    user("DELETE", "/me/following", {"type": "artist", "ids": lana})
    assert not evaluate(14, user.episode())["success"]  # right artist plus an extra unfollow


def test_follow_then_unfollow_other_fails(user):
    user("PUT", "/me/following", {"type": "artist", "ids": CAT.artist_named("Taylor Swift").id})
    assert evaluate(33, user.episode())["success"]
    user("DELETE", "/me/following", {"type": "artist", "ids": CAT.artist_named("The Beatles").id})
    assert not evaluate(33, user.episode())["success"]


# ---------------------------------------------------------------- player family
def test_player_family(user):
    user("PUT", "/me/player/volume", {"volume_percent": 60})
    assert not evaluate(4, user.episode())["success"]  # volume without skipping
    user("POST", "/me/player/previous")
    user("POST", "/me/player/next")
    user("POST", "/me/player/next")
    assert not evaluate(4, user.episode())["success"]  # skipped twice: not the queue head
    assert not evaluate(15, user.episode())["success"]  # volume up and no pause


def test_pause_order_matters(user):
    user("PUT", "/me/player/volume", {"volume_percent": 20})
    user("PUT", "/me/player/pause")
    user("PUT", "/me/player/play")
    assert not evaluate(15, user.episode())["success"]
    user("PUT", "/me/player/pause")
    user("PUT", "/me/player/volume", {"volume_percent": 10})
    user("PUT", "/me/player/play")
    assert evaluate(15, user.episode())["success"]


def test_playing_the_wrong_context_fails(user):
    user("PUT", "/me/player/play", body={"context_uri": f"spotify:playlist:{MY_RNB.id}"})
    assert not evaluate(42, user.episode())["success"]


def test_search_provenance_for_quiet_songs(user):
    user("PUT", "/me/player/play", body={"uris": [track_uri("MILCK", "Quiet")]})
    assert not evaluate(9, user.episode())["success"], "played without searching"
    found = user("GET", "/search", {"q": "quiet", "type": "track"})
    user("PUT", "/me/player/play", body={"uris": [found["tracks"]["items"][0]["uri"]]})
    assert evaluate(9, user.episode())["success"]


# ---------------------------------------------------------------- answers and strict mode
def test_read_only_answers():
    def ep(answer):
        return Episode(initial=initial_state(), final=initial_state(), answer=answer, log=[])

    playing = ep("You are listening to Born To Die by Lana Del Rey.")
    assert evaluate(17, playing)["success"]
    # 24 asks for the user's top artist: an answer about the track playing names her only as that
    # track's artist and commits to nothing about the top artist (the answer checker reads commitments)
    assert not evaluate(24, playing)["success"]
    top = ep("Your top artist is Lana Del Rey; you are listening to Born To Die right now.")
    assert (
        evaluate(24, top)["success"] and not evaluate(24, ep("Your top artist is Taylor Swift."))["success"]
    )
    assert not evaluate(27, playing)["success"], (
        "the track shares the album's name: naming the track is not naming the album"
    )
    assert evaluate(27, ep("It is from the album Born To Die (2012)."))["success"]
    assert not evaluate(27, ep("Born To Die is on the album Paradise."))["success"]
    assert not evaluate(30, playing)["success"] and not evaluate(56, playing)["success"]
    assert evaluate(56, ep("Your name is Robin Gray"))["success"]
    assert not evaluate(56, ep("Your user name is robin.gray@example.com"))["success"], (
        "an e-mail address is not the display name"
    )


def test_collateral_change_fails_by_default_and_passes_only_when_permissive(user):
    user("PUT", "/me/player/volume", {"volume_percent": 20})
    user("PUT", "/me/player/repeat", {"state": "context"})
    ep = user.episode()
    assert not evaluate(45, ep)["success"] and evaluate(45, ep, permissive=True)["success"]
    ro = user.episode("You are listening to Born To Die")
    assert not evaluate(17, ro)["success"] and evaluate(17, ro, permissive=True)["success"]


@pytest.mark.parametrize("query", [7, 10, 20, 33, 37, 40, 49])
def test_following_every_catalogue_artist_fails_a_follow_query_by_default(user, query):
    every = [a.id for a in CAT.data.artists if not a.generated]  # the 19 authored artists
    assert len(every) == 19
    user("PUT", "/me/following", body={"ids": every}, params={"type": "artist"})
    ep = user.episode()
    result = evaluate(query, ep)
    assert not result["success"] and "followed gained" in result["reason"], result
    assert evaluate(query, ep, permissive=True)["success"], (
        "the permissive §9 predicate accepts the mass follow (that is why it is not the default)"
    )


def test_following_just_the_asked_artist_passes(user):
    user(
        "PUT", "/me/following", body={"ids": [CAT.artist_named("Taylor Swift").id]}, params={"type": "artist"}
    )
    assert evaluate(33, user.episode())["success"]


def test_mass_save_and_extra_playlists_fail(user):
    every = [t.id for t in CAT.data.tracks][:40]
    user("PUT", "/me/tracks", body={"ids": every})
    assert not evaluate(5, user.episode())["success"] and not evaluate(36, user.episode())["success"]
    me = user("GET", "/me")
    user("POST", f"/users/{me['id']}/playlists", body={"name": "Quiet"})
    user("POST", f"/users/{me['id']}/playlists", body={"name": "Quiet 2"})
    result = evaluate(44, user.episode())
    assert not result["success"] and "unrequested new playlists" in result["reason"]


def test_recommendation_answer_needs_a_same_genre_track():
    def ep(answer):
        return Episode(initial=initial_state(), final=initial_state(), answer=answer, log=[])

    assert evaluate(21, ep("You might like Green Light by Lorde and bad guy by Billie Eilish."))["success"]
    assert not evaluate(21, ep("Try So What by Miles Davis."))["success"]  # jazz, not the current genre
    assert not evaluate(21, ep("Sorry, I cannot help with that."))["success"]
    # common words that are also track names are not recommendations (query 21 accepted "Lost", "Radio")
    assert not evaluate(21, ep("I'm lost: the radio is off, so I have no recommendation."))["success"]
    assert not evaluate(21, ep("Lost. Radio."))["success"]
