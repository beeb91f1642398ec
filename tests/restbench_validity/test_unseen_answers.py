"""Answers the dev suite does not contain: other paraphrases, formats and traps of the same kinds.
Each row is (query id, answer, expected verdict). Keys are the package's (keys/tmdb.yaml)."""

from __future__ import annotations

import pytest

from restgraph.evals.scorers.answer_keys import verdict
from restgraph.evals.scorers.tmdb_success import check

RIGHT = [
    (1, "She has directed 7 feature films."),
    (1, "Sofia Coppola: 7 movies (The Virgin Suicides through On the Rocks)."),
    (1, "The count is seven."),
    (2, "Bale, Christian plays the lead (Bruce Wayne)."),
    (2, "It's Christian Bale, who plays Batman; Heath Ledger plays the Joker."),
    (3, "The top-rated film, The Godfather, was directed by Francis Ford Coppola."),
    (9, "His most recent film as director is Oppenheimer (2023), after Tenet (2020)."),
    (15, "twilight (2008) was directed by catherine hardwicke."),
    (17, "The Godfather (1972) tops TMDB's top-rated list."),
    (18, "The Matrix premiered on 31.03.1999 in the US."),
    (18, "It was released March 31st, 1999."),
    (26, "Cillian Murphy stars as J. Robert Oppenheimer in Oppenheimer, the latest release."),
    (33, "Titanic was released on the 19th of December 1997 in the US."),
    (37, "2012-12-12, 2013-12-11 and 2014-12-10."),
    (41, "David Fincher; James Foley; Joel Schumacher; Charles McDougall; Allen Coulter"),
    (53, "In total it has 138 episodes across six seasons."),
    (58, "It premiered on 1 April 2012."),
    (72, "Pedro Pascal was born April 2, 1975 in Santiago, Chile."),
    (79, "Avatar: The Way of Water is rated higher than the first Avatar (7.655 vs 7.572)."),
    (79, "Avatar (7.572) is rated lower than Avatar: The Way of Water (7.655)."),
    (89, "The Double Life of Véronique came out first, in 1991; Mulholland Drive followed in 2001."),
    (89, "Mulholland Drive (2001) was released after The Double Life of Veronique (1991)."),
    (90, "Yes - David Lynch directed both Mulholland Drive and episodes of Twin Peaks season 1."),
    (92, "Mulholland Drive is not among the ten highest-rated movies on TMDB."),
    (92, "No, it ranks outside the top 10."),
    (93, "Akira Kurosawa directed fewer movies than Steven Spielberg (9 vs 16)."),
    (96, "There are three seasons."),
    (97, "Yes, both star in it."),
    (97, "Yui Aragaki and Gen Hoshino both star in We Married as Job."),
    (
        98,
        "Mamoru Miyano is older than Greta Gerwig by 0 years (he was born in June 1983, she in August 1983).",
    ),
]

WRONG = [
    # name dumps, hedges and candidate lists
    (2, "Christian Bale, Heath Ledger, Gary Oldman, Michael Caine, Aaron Eckhart"),
    (3, "Probably Francis Ford Coppola."),
    (9, "Either Oppenheimer or Tenet."),
    (19, "Margot Robbie or Cillian Murphy, I'm not sure which."),
    (26, "Maybe Cillian Murphy."),
    (41, "David Fincher and James Foley."),  # incomplete list of the season's directors
    (53, "Possibly 138 episodes."),
    (53, "It has 120 or 138 episodes."),
    (1, "Somewhere between six and eight, maybe 7."),
    (33, "Titanic came out on December 19, 1997 or January 23, 1998, I think."),
    # denials
    (17, "The top-rated movie is not The Godfather."),
    (50, "The lead is not Emilia Clarke; it is Kit Harington."),
    (58, "Season 2 didn't premiere on April 1, 2012."),
    (96, "Sword Art Online doesn't have 3 seasons."),
    (9, "Oppenheimer is not Nolan's latest; Tenet is."),
    # right number inside a date or an id, substring traps
    (1, "6 movies; the latest premiered 2023-09-07."),
    (1, "See https://www.themoviedb.org/person/7-sofia-coppola for her 6 films."),
    (17, "The Godfather Part II is the top-rated movie."),
    (53, "2 Broke Girls has 100 episodes."),
    # reversed comparisons and bare restatements
    (79, "Avatar has a higher rating than Avatar: The Way of Water."),
    (79, "Avatar or Avatar: The Way of Water."),
    (89, "Mulholland Drive came out earlier than The Double Life of Veronique."),
    (93, "Kurosawa directed more movies than Spielberg."),
    (93, "Akira Kurosawa or Spielberg."),
    (98, "Greta Gerwig is older than Mamoru Miyano by 0 years."),
    # yes/no without the right polarity
    (92, "Yes, it is in the top 10."),
    (92, "I couldn't check the top-rated list (HTTP 500)."),
    (97, "They don't co-star in it."),
    (97, "Is it We Married as Job?"),
    (90, "Yes, both were directed by David Fincher."),
    # e-mail addresses and URLs do not name things
    (56, "Dragons: see https://example.com/dragon/keywords"),
]


@pytest.mark.parametrize(("query", "answer"), RIGHT)
def test_right_answers_in_other_words_pass(query, answer):
    ok, reason = verdict("tmdb", query, answer)
    assert ok, reason


@pytest.mark.parametrize(("query", "answer"), WRONG)
def test_wrong_answers_of_the_known_trap_kinds_fail(query, answer):
    ok, reason = verdict("tmdb", query, answer)
    assert not ok, reason


def test_a_name_dump_a_hedge_a_denial_and_a_reversed_comparison_fail_where_containment_passed(data_dir):
    """The four trap kinds of the issue, on queries where the previous checker passed them."""
    import yaml

    from restgraph.evals.scorers.answer_keys import KEYS_DIR
    from restgraph.tools.sandbox.tmdb.solutions import reference_gold

    # every hand-seeded fixture name (the keys' literal catalogue; generated padding names are not in it)
    catalogue = yaml.safe_load((KEYS_DIR / "tmdb.yaml").read_text(encoding="utf-8"))["catalogue"]
    dump = ", ".join(sorted({n for names in catalogue.values() for n in names}))
    cases = {
        "dump": [(q, dump) for q in range(1, 101)],
        "hedge": [
            (
                15,
                "Twilight's director is one of Catherine Hardwicke, Chris Weitz, David Slade or Bill Condon.",
            ),
            (19, "It could be any of Margot Robbie, Cillian Murphy or Pedro Pascal."),
        ],
        "denial": [
            (2, "Christian Bale is not the lead actor of The Dark Knight."),
            (95, "She was not born on November 22, 1984."),
        ],
        "reversed": [
            (79, "Avatar is rated higher than Avatar: The Way of Water."),
            (93, "Akira Kurosawa directed more movies than Spielberg."),
        ],
    }
    for kind, rows in cases.items():
        old = [q for q, a in rows if check(reference_gold(q)["criterion"], a)]
        new = [q for q, a in rows if verdict("tmdb", q, a)[0]]
        assert old, f"{kind}: the containment checker already failed these, so they prove nothing"
        assert new == [], (kind, new)
    assert (
        len([q for q, a in cases["dump"] if check(reference_gold(q)["criterion"], a)]) >= 40
    )  # the issue measured 46


def test_no_answer_is_never_a_success():
    assert verdict("tmdb", 1, None) == (False, "no answer")
    assert verdict("tmdb", 1, "   ")[0] is False


SPOTIFY = [
    (17, 'The current song is "Born To Die" by Lana Del Rey.', True),
    (17, "Probably Born To Die.", False),
    (19, "Your library has two albums: Born To Die and reputation.", True),
    (19, "Born To Die, reputation and Midnights.", False),
    (21, "Video Games and Young And Beautiful are in the same art-pop vein.", True),
    (21, "Radio, Lost, Summer.", False),
    (24, "Lana Del Rey is your top artist.", True),
    (24, "Your top artists: Lana Del Rey, Whitney Houston, The Beatles.", False),
    (24, "Lana Del Rey? Or Taylor Swift?", False),
    (25, "How about Summertime Sadness?", True),
    (25, 'Try "Summertime Sadness".', True),
    (27, "The album is Born To Die (2012).", True),
    (27, "Born To Die.", False),
    (30, "Their newest album is JORDI.", True),
    (30, "JORDI or Red Pill Blues.", False),
    (31, "Lorde and Halsey are related to Lana Del Rey.", True),
    (31, "Lana Del Rey.", False),
    (56, "robin gray", True),
    (56, "Your e-mail is robin.gray@example.com; your display name is Robin Gray.", True),
    (56, "I do not know your user name.", False),
]


MORE_TMDB = [
    (43, "It started on December 20th, 2019.", True),
    (65, "Henry Cavill was born 05.05.1983.", True),
    (86, "28/01/1959", True),
    (40, "18 Dec 2001", True),
    (55, "It premiered in September 2007.", True),
    (54, "Founded in 1955.", True),
    (54, "Founded in 1955 or 1972.", False),
    (13, "You might like Ozark or Peaky Blinders.", True),
    (13, "Ozark, Peaky Blinders and Friends.", False),
    (44, "Pulp Fiction and Reservoir Dogs.", True),
    (44, "Pulp Fiction.", False),  # "a few more works"
    (61, "https://www.hbo.com", True),
    (61, "HBO.com is not their homepage.", False),
    (92, "It is ranked 25th, so not in the top ten.", True),
    (97, "No.", False),
    (30, "Kate Winslet, Leonardo DiCaprio and Billy Zane starred in it.", True),
    (30, "Leonardo DiCaprio and Kate Winslet.", False),  # the fixture cast is three
    (80, "Barbie, Oppenheimer and Parasite.", False),  # Parasite is neither English nor from 2021+
    (64, "Sci-Fi & Fantasy, Action & Adventure and Drama.", True),
    (70, "Richard Hammond.", False),
    (84, 'The episode is called "The Heiress".', True),
]


@pytest.mark.parametrize(
    ("scenario", "query", "answer", "expected"),
    [("spotify", *row) for row in SPOTIFY] + [("tmdb", *row) for row in MORE_TMDB],
)
def test_more_formats_and_traps(scenario, query, answer, expected):
    ok, reason = verdict(scenario, query, answer)
    assert ok is expected, reason
