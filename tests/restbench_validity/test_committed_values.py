"""The families the first blind suite (now ``bench/dev3``) passed and a careful judge fails, with answers
written for this test on other queries than the suite's rows (none is in any suite): each wrong answer
must fail and each right answer beside it, which explains with other values or names, must pass."""

from __future__ import annotations

import pytest

from tests.restbench_validity.probes import ARGS, assert_fails, assert_passes, cases

WRONG = {
    # a value key answered twice: "X is d1. X is d2." offers two answers, whichever is right
    "values in separate sentences": [
        ("tmdb", 18, "The Matrix was released on 1999-03-31. The Matrix was released on 2003-05-15."),
        (
            "tmdb",
            95,
            "Scarlett Johansson was born on November 22, 1984. Scarlett Johansson was born on 1986-11-22.",
        ),
        ("tmdb", 53, "2 Broke Girls has 138 episodes. 2 Broke Girls has 144 episodes."),
        ("tmdb", 53, "Total episodes: 120. Total episodes: 138."),
        ("tmdb", 96, "Sword Art Online has 4 seasons. Sword Art Online has 3 seasons!"),
    ],
    # the main clause states a wrong value; the right one is only mentioned in an aside
    "a wrong value stated, the right one in an aside": [
        ("tmdb", 95, "Scarlett Johansson's birthday is 1985-01-03 (1984-11-22 also appears in the results)."),
        ("tmdb", 18, "The Matrix came out on 1999-05-21; 1999-03-31 shows up too, further down the list."),
        (
            "tmdb",
            1,
            "Sofia Coppola has directed 6 movies. (7 also appears in her credits, counting a short.)",
        ),
    ],
    # the structures that set names apart, around a wrong answer
    "a wrong answer beside names set apart": [
        (
            "tmdb",
            15,
            "Twilight was directed by Chris Weitz; Catherine Hardwicke and Robert Pattinson are in the cast.",
        ),
        ("tmdb", 2, "The lead actor is Heath Ledger, followed in billing by Christian Bale."),
        (
            "tmdb",
            10,
            "GoodFellas is the film Scorsese is best known for, but his highest-rated one is Taxi Driver.",
        ),
        ("tmdb", 9, "Nolan is famous for Oppenheimer; his latest film as director, though, is Tenet."),
        (
            "tmdb",
            9,
            "Oppenheimer is the film Nolan is best known for, but his latest movie as director is Tenet.",
        ),
        ("tmdb", 2, "Christian Bale; Heath Ledger; Gary Oldman."),
    ],
    # a title no key knows, asserted by a copula, is an answer given ("... is American Crime Story")
    "an unknown title asserted": [
        (
            "tmdb",
            99,
            "The Frozen Ground is the movie Katherine LaNasa is best known for, but her latest movie is The Campaign.",
        ),
        (
            "tmdb",
            99,
            "Katherine LaNasa's latest movie is Blue Thunder Road. (The Frozen Ground is listed too, further down.)",
        ),
        ("spotify", 30, "Maroon 5 released JORDI, but their newest album is Red Pill Blues."),
    ],
    # a later sentence opening "Actually," or "In fact," that names something retracts what came before
    "second thoughts": [
        (
            "tmdb",
            2,
            "The lead actor is Christian Bale. Actually, Heath Ledger gets top billing in the credits.",
        ),
        (
            "tmdb",
            17,
            "The top-rated movie is The Godfather. In fact, The Shawshank Redemption edges it out on TMDB.",
        ),
        ("tmdb", 53, "It has 138 episodes. Actually, counting the pilot twice, it's 139 episodes."),
        (
            "tmdb",
            19,
            "The most popular person is Margot Robbie. Actually, Cillian Murphy is more popular today.",
        ),
        ("spotify", 30, "Maroon 5's newest album is JORDI. Actually, Red Pill Blues came out later."),
    ],
    # the same opening words said twice with a different value after them; a sentence and its negation
    "one statement made twice": [
        (
            "tmdb",
            13,
            "Shows similar to Breaking Bad: Better Call Saul and Ozark. Shows similar to Breaking Bad: Narcos and "
            "Dexter.",
        ),
        (
            "tmdb",
            9,
            "Nolan's latest movie as director is Oppenheimer. Nolan's latest movie as director is Tenet.",
        ),
        ("tmdb", 15, "Twilight was directed by Catherine Hardwicke. Twilight was directed by Chris Weitz."),
        (
            "tmdb",
            90,
            "Yes. David Lynch directed episodes of Twin Peaks season 1. David Lynch did not direct episodes of "
            "Twin Peaks season 1.",
        ),
        (
            "spotify",
            27,
            "The track is from the album Born To Die. The track is from the album Lust For Life.",
        ),
        (
            "tmdb",
            30,
            "The stars of Titanic are Leonardo DiCaprio and Kate Winslet. The stars of Titanic are Billy Zane "
            "and Kathy Bates.",
        ),
    ],
    # a release date the key knows, given to another country than its own (the keys' ``labels``)
    "a date given to another country": [
        ("tmdb", 18, "The Matrix came out in Australia on 1999-03-31."),
        ("tmdb", 33, "Titanic opened in Japan on 1997-12-19."),
        ("tmdb", 23, "Cry Macho was released in the UK on 2021-09-17."),
        ("tmdb", 33, "Titanic was released in the U.S. on January 23, 1998."),
    ],
    # a right name only reported as present in the data ("also shows up in the results") is not given
    "a right name only reported as present": [
        (
            "tmdb",
            94,
            "David Lynch directed the TV series Hotel Room. (Twin Peaks also shows up in the results, further down.)",
        ),
        (
            "tmdb",
            30,
            "Titanic stars Gloria Stuart and Bill Paxton (Leonardo DiCaprio, Kate Winslet and Billy Zane are listed "
            "too).",
        ),
        ("spotify", 56, "Your display name is rgsandbox. (Robin Gray also appears in the response.)"),
    ],
    # a list that says a right item is not one of them makes a false claim
    "a right item of a list denied": [
        ("tmdb", 13, "Shows similar to Breaking Bad: Better Call Saul and Ozark, but not The Sopranos."),
        ("tmdb", 21, "Titanic's keywords are shipwreck and iceberg, but not ocean liner."),
        ("tmdb", 80, "Barbie qualifies; Oppenheimer does not."),
    ],
    # a surname that is a common word names no one alone
    "a common-word surname alone": [
        ("tmdb", 70, "Richard Hammond; the show moved to a new slot in May."),
        ("tmdb", 70, "Hammond. May I add that the show was great?"),
        ("tmdb", 70, "Jeremy Clarkson worked with Richard Hammond until May 2015."),
    ],
    # "A. Or maybe B.": another answer offered, though hedged
    "a hedged alternative": [
        ("tmdb", 15, "Twilight was directed by Catherine Hardwicke. Or possibly Chris Weitz."),
        ("tmdb", 2, "The lead actor is Christian Bale. Or maybe Heath Ledger."),
        ("tmdb", 77, "The director was Bryn Higgins. Or possibly Owen Harris."),
    ],
    # the right name said of another numbered episode or season than the asked one
    "the right name given to another episode": [
        ("tmdb", 77, "Black Mirror S2E3 was directed by Carl Tibbetts (Bryn Higgins directed episode 2)."),
        ("tmdb", 77, "Owen Harris directed season 2 episode 3; Bryn Higgins directed episode 1."),
    ],
    # a page of the site is not its homepage; a yes taken back; an unknown item after a slash
    "another page, a yes taken back, a slashed alternative": [
        ("tmdb", 66, "The homepage is https://www.netflix.com/title/80189685."),
        (
            "tmdb",
            97,
            "Yes, they co-star. Actually, Gen Hoshino only appears in the TV series, not in this special.",
        ),
        ("tmdb", 92, "No, it is not in the top 10. Actually, Mulholland Drive is ranked 4th."),
        ("spotify", 30, "JORDI / Midnight Harbour"),
        ("tmdb", 32, "Universal City / Lakeview Heights"),
    ],
    # "Its lead actor is X": the asked role asserted of a wrong name, whatever came before
    "the asked role given to a wrong name": [
        (
            "tmdb",
            2,
            "The Dark Knight came out in 2008 with Christian Bale as Batman. Its lead actor is Tom Hardy.",
        ),
        (
            "tmdb",
            73,
            "Game of Thrones is today's most popular show, with Emilia Clarke as Daenerys. The lead actor is Kit "
            "Harington.",
        ),
        (
            "tmdb",
            15,
            "Twilight stars Kristen Stewart, and Catherine Hardwicke is credited. The director is Chris Weitz.",
        ),
    ],
    # the question picks its subject by a role ("Pedro Pascal, lead of The Mandalorian"): another holder
    "another holder of the role that picks the subject": [
        (
            "tmdb",
            72,
            "The lead of The Mandalorian is Gina Carano, born 1982-04-16; Pedro Pascal was born 1975-04-02.",
        ),
        (
            "tmdb",
            85,
            "The lead actor of The Shawshank Redemption is Morgan Freeman. Tim Robbins was born 1958-10-16.",
        ),
        (
            "tmdb",
            86,
            "The director of The Shawshank Redemption is Rob Reiner; Frank Darabont was born on 1959-01-28.",
        ),
    ],
    # the question names the entity its description picks: another entity given that description
    "another entity for the question's description": [
        ("tmdb", 14, "Christopher Nolan directed Barbie, today's most trending movie."),
        ("tmdb", 26, "The latest released movie is Barbie; its lead actor is Cillian Murphy."),
        ("tmdb", 50, "Breaking Bad is the most popular TV show, and its lead actor is Emilia Clarke."),
        ("tmdb", 3, "The Shawshank Redemption is the top-rated movie; Francis Ford Coppola directed it."),
        (
            "tmdb",
            17,
            "Top-rated: 1. The Godfather 2. The Shawshank Redemption. So the top-rated movie is The Shawshank "
            "Redemption.",
        ),
    ],
    # an extra item offered, though hedged, in a list the question closes
    "a hedged extra item": [
        ("spotify", 19, "You saved reputation and Born To Die. Also Lover, I think."),
        (
            "tmdb",
            41,
            "David Fincher, James Foley, Joel Schumacher, Charles McDougall and Allen Coulter. Maybe also Kevin Spacey.",
        ),
    ],
    # "only A" answers no to whether A and B both ...
    "one of two restricted by only": [
        ("tmdb", 97, "Only Yui Aragaki stars in We Married as Job."),
        ("tmdb", 97, "Of the two, only Gen Hoshino is in the cast."),
    ],
    # reviews asked of one title: a review of another given with them
    "a review of another title": [
        (
            "tmdb",
            46,
            "albuquerque_nights says Breaking Bad is the rare drama that gets better every season. Another is a "
            "review of Better Call Saul praising Bob Odenkirk.",
        ),
        (
            "tmdb",
            24,
            "Batman Begins; reviews: a grounded origin story. The Dark Knight; reviews: gothamreel says Heath "
            "Ledger's Joker is the centre of gravity.",
        ),
        (
            "tmdb",
            67,
            "Game of Thrones; review: a fan calls the final season rushed. The Witcher; review: kaermorhen_kate "
            "says Henry Cavill is a perfect Geralt.",
        ),
    ],
    # several lists side by side, split by slashes or new lines
    "lists side by side": [
        ("tmdb", 13, "Better Call Saul and Ozark / Narcos and Dexter"),
        ("tmdb", 30, "Leonardo DiCaprio, Kate Winslet and Billy Zane\nKathy Bates and Bill Paxton"),
        ("spotify", 19, "reputation and Born To Die / Lover and Midnights"),
    ],
    # a one-word title no key knows, asserted for the question's words; a cue that names the name after it
    "a one-word unknown title; the album after its cue": [
        (
            "tmdb",
            12,
            "Catherine Hardwicke's most recent TV show as director is Thirteen; Eye Candy came before.",
        ),
        ("spotify", 27, "The current track is Born To Die from the album Lust For Life."),
    ],
    # a place no key knows, said where the asked thing was born or is based
    "an unknown place asserted": [
        (
            "tmdb",
            91,
            "David Lynch was born in Spokane, Washington (Missoula is where his family lived later).",
        ),
        ("tmdb", 88, "Lucasfilm is based in Skywalker Ranch; it also has offices in San Francisco."),
    ],
    # a comparison's cue word is said of the name nearest before it
    "a comparison won by the wrong name": [
        ("tmdb", 93, "Spielberg directed 9 movies and Kurosawa 16, so Kurosawa directed more."),
        ("tmdb", 93, "With 16 films against 9, Kurosawa directed more."),
    ],
}

RIGHT = [
    (
        "tmdb",
        95,
        "Scarlett Johansson was born on 1984-11-22. Her twin brother Hunter was born the same day, and her "
        "latest film came out on 2023-06-23.",
    ),
    (
        "tmdb",
        18,
        "The Matrix premiered on 1999-03-31 in the US. Its sequel, The Matrix Reloaded, followed on 2003-05-15.",
    ),
    ("tmdb", 53, "2 Broke Girls ran for 6 seasons with 138 episodes in total; season 6 had 22 episodes."),
    (
        "tmdb",
        85,
        "Tim Robbins was born on October 16, 1958. The director, Frank Darabont, was born on January 28, 1959.",
    ),
    (
        "tmdb",
        58,
        "Season 2 of Game of Thrones premiered on April 1, 2012; season 1 had started on April 17, 2011.",
    ),
    (
        "tmdb",
        1,
        "Sofia Coppola directed 7 movies; the first, The Virgin Suicides, came out in 1999 and her father "
        "directed about 20.",
    ),
    ("tmdb", 96, "Sword Art Online has 3 seasons: Season 1 (2012), Season 2 (2014) and Alicization (2018)."),
    ("tmdb", 98, "Mamoru Miyano is the older one, by 0 full years (born 1983-06-10 vs 1983-08-04)."),
    # a list goes on past the answer's clause only through clauses of bare names
    (
        "tmdb",
        15,
        "Twilight was directed by Catherine Hardwicke; Kristen Stewart and Robert Pattinson play the leads.",
    ),
    (
        "tmdb",
        3,
        "The top-rated movie is The Godfather, directed by Francis Ford Coppola; Marlon Brando and Al Pacino "
        "star in it.",
    ),
    ("tmdb", 2, "The lead actor is Christian Bale; Heath Ledger and Gary Oldman have supporting roles."),
    # "followed in billing by": ranked below
    (
        "tmdb",
        26,
        "The latest released movie is Oppenheimer. Cillian Murphy is its lead actor, followed in billing by "
        "Emily Blunt and Matt Damon.",
    ),
    # "known for" sets a name apart; "movie" or "show" says nothing about which candidate answers
    (
        "tmdb",
        12,
        "Catherine Hardwicke is best known for directing Twilight (2008). On TV, her latest directing credit "
        "is Eye Candy (2015).",
    ),
    (
        "tmdb",
        10,
        "Scorsese is best known for Taxi Driver, but his highest-rated film as director is GoodFellas.",
    ),
    # other capitalised phrases after a copula, about other things than the asked one
    (
        "tmdb",
        99,
        "Katherine LaNasa's latest movie is The Frozen Ground. Her best-known role is Big Little Lies.",
    ),
    ("tmdb", 76, "David Schwimmer's most popular TV show is Friends. The network is NBC Universal."),
    ("spotify", 30, "Maroon 5's newest album is JORDI. The previous one was Red Pill Blues."),
    ("tmdb", 17, "The top-rated movie is The Godfather. Its tagline is An Offer You Can't Refuse."),
    ("tmdb", 84, 'The title is "Chapter 11: The Heiress". The director is Bryce Dallas Howard.'),
    # a second thought about the answer just given, or with nothing named, is a remark
    (
        "tmdb",
        2,
        "The lead actor is Christian Bale. Actually, he also led Batman Begins and The Dark Knight Rises.",
    ),
    ("tmdb", 17, "The top-rated movie is The Godfather. In fact, it has held the top spot for a while."),
    ("tmdb", 53, "2 Broke Girls has 138 episodes. Actually, that is across all six seasons."),
    (
        "tmdb",
        19,
        "Actually, the most popular person right now is Margot Robbie.",
    ),
    # sentences that share their opening or ending words and are no second answer
    ("tmdb", 2, "The lead actor is Christian Bale. The lead actor is also the film's narrator."),
    (
        "tmdb",
        30,
        "Leonardo DiCaprio stars in Titanic. Kate Winslet stars in Titanic. Billy Zane stars in Titanic.",
    ),
    (
        "tmdb",
        17,
        "The top-rated movie is The Godfather. The top-rated movie is The Godfather (1972), directed by Francis "
        "Ford Coppola.",
    ),
    (
        "tmdb",
        37,
        "The Hobbit: An Unexpected Journey was released on 2012-12-12. The Hobbit: The Desolation of Smaug was "
        "released on 2013-12-11. The Hobbit: The Battle of the Five Armies was released on 2014-12-10.",
    ),
    (
        "tmdb",
        2,
        "The lead actor of The Dark Knight is Christian Bale. The lead actor of Batman Begins was also "
        "Christian Bale.",
    ),
    # each date in its own country, or without one
    ("tmdb", 33, "Titanic was released on December 19, 1997 in the United States."),
    ("tmdb", 18, "The Matrix: US 1999-03-31, UK 1999-06-11."),
    ("tmdb", 23, "Cry Macho came out in the US on September 17, 2021."),
    ("tmdb", 33, "JP: 1997-11-01; US: 1997-12-19"),
    ("tmdb", 33, "Titanic hit UK cinemas on 23 January 1998."),
    # another name reported as present, a wrong name denied
    (
        "tmdb",
        17,
        "The top-rated movie is The Godfather. (Pulp Fiction also shows up in the results, further down.)",
    ),
    ("tmdb", 2, "The lead actor is Christian Bale; Heath Ledger also appears in the film as the Joker."),
    ("tmdb", 19, "Margot Robbie is the most popular person; Cillian Murphy is listed too, in second place."),
    (
        "tmdb",
        13,
        "Better Call Saul, The Sopranos, Ozark and Peaky Blinders; Breaking Bad itself is not listed.",
    ),
    ("tmdb", 30, "Leonardo DiCaprio, Kate Winslet and Billy Zane star; Brad Pitt is not in the cast."),
    # the cue word's own name wins, or loses with "fewer"
    ("tmdb", 93, "Spielberg has 16 and Kurosawa 9, so Kurosawa directed fewer."),
    ("tmdb", 93, "Between Spielberg and Kurosawa, the one who directed more is Spielberg."),
    ("tmdb", 93, "Spielberg, with 16 films to Kurosawa's 9, directed more."),
    # a common-word surname beside another name of the list ("Hammond and May")
    ("tmdb", 70, "Richard Hammond and May."),
    ("tmdb", 70, "Hammond & May co-presented it with him."),
    ("tmdb", 70, "May and Hammond."),
    # a hedged remark is no alternative; the asked episode named beside another
    ("tmdb", 2, "The lead actor is Christian Bale. Perhaps surprisingly, Heath Ledger won the Oscar."),
    ("tmdb", 15, "Catherine Hardwicke directed Twilight. Maybe Chris Weitz directed the sequel, New Moon."),
    ("tmdb", 19, "The most popular person is Margot Robbie. Probably Cillian Murphy is next."),
    ("tmdb", 77, "Black Mirror S2E3 was directed by Bryn Higgins, who also directed episode 2."),
    ("tmdb", 77, "Bryn Higgins directed season 2 episode 3 (Owen Harris directed episode 1)."),
    ("tmdb", 77, "Season 2, episode 3: Bryn Higgins. (Episode 1 was directed by Owen Harris.)"),
    # the homepage itself, a remark after a yes, one place with its state, "Avatar 2"
    ("tmdb", 61, "HBO's homepage: https://www.hbo.com/"),
    ("tmdb", 97, "Yes, they co-star. Actually, they also co-starred in a later special."),
    ("tmdb", 92, "No. Actually, it does not even make the top 50."),
    ("tmdb", 32, "Universal Pictures is based in Universal City, California."),
    ("tmdb", 79, "Avatar 2 (7.655) is rated higher than Avatar (7.572)."),
    # the role of another show, another role
    ("tmdb", 73, "Game of Thrones' lead actor is Emilia Clarke. The Witcher's lead actor is Henry Cavill."),
    ("tmdb", 2, "The lead actor is Christian Bale. The lead actress is Maggie Gyllenhaal."),
    # the subject's role given to the subject
    ("tmdb", 72, "Pedro Pascal, the lead of The Mandalorian, was born on 1975-04-02."),
    ("tmdb", 85, "The lead actor is Tim Robbins, born October 16, 1958; Morgan Freeman co-stars."),
    ("tmdb", 86, "The director is Frank Darabont, born 1959-01-28. The lead actor is Tim Robbins."),
    # the described entity with another ranked below it; a quoted list and a conclusion opening "So"
    (
        "tmdb",
        14,
        "Oppenheimer is today's most trending movie (Barbie is second); Christopher Nolan directed it.",
    ),
    (
        "tmdb",
        26,
        "Oppenheimer is the latest released movie, ahead of Barbie; its lead actor is Cillian Murphy.",
    ),
    (
        "tmdb",
        19,
        "TMDB's popular people: 1. Margot Robbie 2. Cillian Murphy 3. Ryan Gosling. So the most popular person "
        "is Margot Robbie.",
    ),
    (
        "tmdb",
        17,
        "I checked the top-rated list: 1. The Godfather 2. The Shawshank Redemption 3. Pulp Fiction. So the "
        "top-rated movie is The Godfather.",
    ),
    # "not only" adds, it denies nothing
    ("tmdb", 97, "They do co-star; it is not only Yui Aragaki's film."),
    ("tmdb", 90, "David Lynch directed Twin Peaks season 1 episodes, not only Mulholland Drive."),
    # the asked title's reviews, under its name
    (
        "tmdb",
        24,
        "Reviews of The Dark Knight: gothamreel says Heath Ledger's Joker is the centre of gravity.",
    ),
    (
        "tmdb",
        46,
        "Breaking Bad review by albuquerque_nights: Breaking Bad is the rare drama that gets better every season.",
    ),
    # one item a line, a labelled list over two lines
    ("tmdb", 13, "Better Call Saul\nThe Sopranos\nOzark\nPeaky Blinders"),
    (
        "tmdb",
        41,
        "Directors of season 1:\nDavid Fincher, James Foley\nJoel Schumacher, Charles McDougall, Allen Coulter",
    ),
    ("spotify", 19, "reputation (Taylor Swift)\nBorn To Die (Lana Del Rey)"),
    # a one-word name after a copula about something else; the album before or after its cue
    ("tmdb", 12, "Her most recent TV show as director is Eye Candy. Its network is MTV."),
    ("spotify", 27, "It's on the Born To Die album."),
    ("spotify", 27, "Born To Die, from the album Born To Die (2012)."),
    # the asked place with other places and years around it
    ("tmdb", 91, "David Lynch was born in Missoula, Montana, and grew up in Spokane."),
    ("tmdb", 32, "Universal Pictures was founded in 1912 and is based in Universal City, California."),
    (
        "tmdb",
        88,
        "Lucasfilm is headquartered in San Francisco (the Presidio); it was founded in San Anselmo.",
    ),
    # a date of another numbered season than the asked one is that season's
    (
        "tmdb",
        58,
        "Season 2 of Game of Thrones first aired on 2012-04-01. Season 3 of Game of Thrones first aired on "
        "2013-03-31.",
    ),
]


@pytest.mark.parametrize(ARGS, cases(WRONG))
def test_a_wrong_answer_fails(scenario, query, answer):
    assert_fails(scenario, query, answer)


@pytest.mark.parametrize(ARGS, RIGHT)
def test_a_right_answer_that_explains_passes(scenario, query, answer):
    assert_passes(scenario, query, answer)
