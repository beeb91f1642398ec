"""Every trap family of issue 28, with answers written for this test (none is in the dev suite): an
answer passes only when it commits to the key's answer. Each family is a table of (scenario, query id,
answer); all of them must fail. The formats a careful judge accepts are in ``test_formats.py``."""

from __future__ import annotations

import pytest

from restgraph.evals.scorers.answer_keys import verdict
from tests.restbench_validity.probes import ARGS, assert_fails, cases

TRAPS = {
    "separate sentences": [
        (
            "tmdb",
            2,
            "The lead actor is Christian Bale. The lead actor is Heath Ledger. The lead actor is Gary Oldman.",
        ),
        ("tmdb", 2, "Lead actor: Heath Ledger. Lead actor: Christian Bale."),
        ("tmdb", 17, "The top-rated movie is The Godfather. The top-rated movie is Pulp Fiction."),
        ("tmdb", 14, "It was directed by Christopher Nolan. It was directed by Steven Spielberg."),
        ("tmdb", 26, "Cillian Murphy.\nEmily Blunt.\nMatt Damon."),
        ("tmdb", 1, "She directed 7 movies. She directed 8 movies."),
        ("tmdb", 19, "The most popular person is Margot Robbie. The most popular person is Cillian Murphy."),
        ("tmdb", 2, "Christian Bale (Bruce Wayne). Heath Ledger (Joker). Gary Oldman (Gordon)."),
        ("spotify", 17, "The current track is Born To Die. The current track is Blue Jeans."),
    ],
    "| and ! separators": [
        ("tmdb", 2, "Christian Bale | Heath Ledger | Gary Oldman"),
        ("tmdb", 2, "Christian Bale! Heath Ledger! Gary Oldman!"),
        ("tmdb", 9, "Oppenheimer | Tenet"),
        ("tmdb", 15, "Catherine Hardwicke! Or Christopher Nolan!"),
        ("tmdb", 53, "138 | 100 | 24"),
        ("spotify", 24, "Lana Del Rey | Taylor Swift"),
    ],
    "wrong answer naming the right one elsewhere": [
        (
            "tmdb",
            9,
            "Nolan's latest film is Tenet, which came out three years before Oppenheimer was announced.",
        ),
        ("tmdb", 2, "The lead actor is Heath Ledger, with Christian Bale as Batman."),
        ("tmdb", 17, "The top-rated movie is Pulp Fiction; The Godfather is second."),
        ("tmdb", 1, "She directed 8 movies, 7 of them feature films shot on 35mm."),
        ("tmdb", 15, "Twilight was directed by Christopher Nolan; Catherine Hardwicke produced it."),
        ("tmdb", 50, "Kit Harington is the lead of Game of Thrones, alongside Emilia Clarke."),
        ("tmdb", 19, "Cillian Murphy is currently the most popular person, ahead of Margot Robbie."),
        ("tmdb", 2, "The lead actor is Tom Hardy, with Christian Bale as Batman."),  # a name no key knows
    ],
    "retractions": [
        ("tmdb", 2, "The lead actor is Christian Bale. Actually, no, it's Heath Ledger."),
        ("tmdb", 17, "The Godfather - scratch that, it's The Shawshank Redemption."),
        ("tmdb", 14, "Christopher Nolan. Correction: Denis Villeneuve."),
        ("tmdb", 53, "138 episodes; correction, 132 episodes."),
    ],
    "denials": [
        ("tmdb", 30, "Leonardo DiCaprio and Kate Winslet star, but Billy Zane is not in the cast."),
        ("tmdb", 19, "Margot Robbie has never been the most popular person on TMDB."),
        ("tmdb", 97, "Yui Aragaki stars in it, but Gen Hoshino is not in the cast."),
        ("tmdb", 26, "The lead is definitely not Cillian Murphy."),
        ("spotify", 27, "The current track is not from the album Born To Die."),
    ],
    "could not check": [
        (
            "tmdb",
            2,
            "No data: the request returned an error, so I can't check whether Christian Bale is the lead.",
        ),
        ("tmdb", 17, "I can't confirm that The Godfather is the top-rated movie; the API call failed."),
        ("tmdb", 53, "The request for 2 Broke Girls returned a 404, so I could not count its 138 episodes."),
        ("tmdb", 15, "I couldn't verify it, but Catherine Hardwicke is the usual answer."),
        ("spotify", 56, "I wasn't able to check the profile of Robin Gray; the request was forbidden."),
        ("tmdb", 17, "Error 500 from /movie/top_rated. The Godfather is usually #1 there."),
    ],
    "hedges and dumps": [
        ("tmdb", 2, "It's one of Christian Bale, Heath Ledger or Gary Oldman."),
        (
            "tmdb",
            4,
            "Somewhere in these: /b9bC14QvgsB7yHvRvplpYq22b46.jpg, /96luUtxRKxLj8Qz5ivg8QndPd9K.jpg, "
            "/61au6eWN6j29xT2t6x1kQHvYcyD.jpg or /1lceJ7pioUKNhl8gzCAFFjFpgvP.jpg",
        ),
        (
            "tmdb",
            4,
            "Several images, one of which is the Star Wars collection's: /61au6eWN6j29xT2t6x1kQHvYcyD.jpg, "
            "/96luUtxRKxLj8Qz5ivg8QndPd9K.jpg",
        ),
        ("tmdb", 64, "The Mandalorian is Comedy, Drama, Sci-Fi & Fantasy or Documentary."),
        ("tmdb", 63, "HBO is based in Los Angeles, Chicago or New York City."),
        (
            "tmdb",
            61,
            "Their homepage is one of https://www.netflix.com, https://www.hbo.com or https://www.disneyplus.com.",
        ),
        ("tmdb", 81, "Its genre is Comedy, Horror, Western or Fantasy."),
        ("tmdb", 9, "Either Tenet or Oppenheimer, whichever came out last."),
        ("tmdb", 88, "Lucasfilm is in San Francisco or Los Angeles."),
        ("tmdb", 2, "Most likely Christian Bale."),
        ("tmdb", 2, "It should be Christian Bale, but I'm not 100% sure."),
        ("tmdb", 17, "The top-rated movie seems to be The Godfather."),
        ("tmdb", 53, "Roughly 138 episodes."),
    ],
    "partial and wrong-entity lists": [
        ("tmdb", 30, "Leonardo DiCaprio."),
        ("tmdb", 41, "David Fincher, James Foley and Joel Schumacher."),
        ("tmdb", 38, "The Fast and the Furious, 2 Fast 2 Furious, Fast Five, Tenet and Inception."),
        ("tmdb", 21, "Keywords: shipwreck, iceberg, doll, feminism."),
        ("tmdb", 21, "Titanic's keywords are doll, fashion and feminism."),
        ("tmdb", 70, "Richard Hammond."),
        ("tmdb", 76, "Friends, Feud and American Crime Story."),  # names the vocabulary does not know
        (
            "tmdb",
            94,
            "Twin Peaks, Twin Peaks: The Return, The Sopranos or Westworld.",
        ),  # an unknown item between
        ("tmdb", 81, "Adventure, Fantasy and Comedy."),
        ("tmdb", 21, "Keywords: shipwreck, iceberg, time travel."),  # a keyword no title has
        ("tmdb", 56, "Keywords: dragon, kingdom, zombie apocalypse"),
        ("tmdb", 66, "Netflix's homepage: https://www.netflix.com and https://www.hulu.com"),
    ],
    "dates given to the wrong items": [
        (
            "tmdb",
            37,
            "An Unexpected Journey: 2013-12-11; The Desolation of Smaug: 2012-12-12; The Battle of the Five Armies: 2014-12-10.",
        ),
        (
            "tmdb",
            37,
            "The Hobbit: An Unexpected Journey (2013-12-11), The Hobbit: The Desolation of Smaug (2012-12-12), "
            "The Hobbit: The Battle of the Five Armies (2014-12-10)",
        ),
    ],
    "wrong numbers beside right ones": [
        ("tmdb", 53, "2 Broke Girls has 138 episodes... no wait, 6 seasons and 140 episodes in total."),
        ("tmdb", 96, "Sword Art Online has 3 seasons, or 4 if you count Alicization separately."),
        ("tmdb", 1, "Sofia Coppola directed 7 movies, or 9 counting shorts."),
        (
            "tmdb",
            1,
            "Seven films: The Virgin Suicides, Lost in Translation, Marie Antoinette, Somewhere, The Bling Ring, "
            "The Beguiled, Pulp Fiction.",
        ),
        ("tmdb", 40, "It came out on December 18, 2001, and again on December 19, 2001 in the US."),
    ],
}


@pytest.mark.parametrize(ARGS, cases(TRAPS))
def test_a_trap_fails(scenario, query, answer):
    assert_fails(scenario, query, answer)


@pytest.mark.parametrize(
    ("scenario", "query", "answer"),
    [
        ("tmdb", 2, "Christian Bale leads the cast, alongside Heath Ledger and Michael Caine."),
        ("tmdb", 26, "Cillian Murphy plays the lead; Emily Blunt and Matt Damon co-star."),
        ("tmdb", 2, "Heath Ledger is not the lead; it is Christian Bale."),
        ("tmdb", 2, "Heath Ledger plays the Joker; the lead actor is Christian Bale."),
        ("tmdb", 17, "The Godfather. (Pulp Fiction is further down the list.)"),
        ("tmdb", 53, "It ran from 2011 to 2017: 138 episodes over six seasons."),
        (
            "tmdb",
            61,
            "HBO's homepage is https://www.hbo.com (its logo: https://image.tmdb.org/t/p/original/x.png).",
        ),
        ("tmdb", 21, "Titanic's keywords: shipwreck, iceberg and ocean liner. It is a love story at heart."),
        ("tmdb", 19, "Margot Robbie is currently the most popular person on TMDB, ahead of Cillian Murphy."),
        ("tmdb", 10, "GoodFellas has the highest rating of his films, about 8.5, ahead of The Departed."),
        ("tmdb", 56, "Game of Thrones keywords: based on novel or book, kingdom, dragon."),
        ("tmdb", 21, "Keywords: shipwreck, iceberg, ocean liner, etc."),
        ("tmdb", 64, "The Mandalorian: Sci-Fi & Fantasy, Action & Adventure, Drama."),
        (
            "spotify",
            27,
            "That track is from Lana Del Rey's album Born To Die (2012), not from Lust for Life.",
        ),
        ("tmdb", 76, "Friends, where he played Ross Geller."),
        ("tmdb", 2, "The lead actor is Christian Bale, with Tom Hardy in a cameo."),
        ("tmdb", 2, "In The Dark Knight the lead role of Bruce Wayne / Batman is played by Christian Bale."),
        (
            "tmdb",
            37,
            "An Unexpected Journey came out December 12, 2012, The Desolation of Smaug on December 11, 2013 and "
            "The Battle of the Five Armies on December 10, 2014.",
        ),
        (
            "tmdb",
            65,
            "Henry Cavill, the lead of The Witcher (first aired December 20, 2019), was born on 5 May 1983.",
        ),
        ("tmdb", 58, "Game of Thrones season 2 aired starting April 1, 2012, and ran until June 3, 2012."),
        (
            "tmdb",
            30,
            "Titanic stars Leonardo DiCaprio (Jack), Kate Winslet (Rose) and Billy Zane, directed by James Cameron.",
        ),
        ("tmdb", 84, 'Season 2, Episode 3 of The Mandalorian is "Chapter 11: The Heiress".'),
        (
            "tmdb",
            98,
            "The age difference is zero: Mamoru Miyano is older, born June 8, 1983, and Greta Gerwig on August 4.",
        ),
    ],
)
def test_the_right_answer_with_supporting_facts_still_passes(scenario, query, answer):
    ok, reason = verdict(scenario, query, answer)
    assert ok, reason
