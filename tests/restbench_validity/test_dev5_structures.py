"""The reading mistakes the second blind suite (now ``bench/dev5``) showed, each probed with answers written
for this test on other queries than the suite's rows (none is in any suite): each wrong answer must fail,
and each right answer beside it, written in the same structure, must pass.

The structures (not the wordings) of dev5's misses:

- a correction that opens with an apology or a dash-and-no ("Sorry, my mistake: B", "- apologies, it was
  B", "A - no, the right one is B") takes back what came before it, and "I can't recommend / answer /
  say ..." is a failure statement;
- a later sentence that restates the earlier one with a pronoun for its subject ("His latest movie is B",
  "She was born on d2", "It was directed by B") gives a second answer; a URL or an e-mail address is a
  value too;
- a copula that gives the question's description to another thing ("..., but the most popular on-air
  show is B", "her latest movie appearance is B") commits to it, whatever the answer said before (most
  such answers already failed by other rules; dev5's passed through a right value in an aside first);
- a person the sandbox does not have, listed beside right ones, is a wrong item of any list of people
  (not only one that asks for all: "The cast of The Witcher: Liam Hemsworth, Anya Chalotra");
- the lowercase words after a list's last title say something of it ("and B as similar"): B is the item;
- a year in a parenthesis after the right title that the sandbox does not date it by ("The Frozen Ground
  (2019)") makes it another title;
- "may or may not" hedges, "not outside" affirms, and "A or B directed more" names no winner;
- formats a judge accepts: "d1 (A), d2 (B)" gives each date the label after it, "the lead role — Bruce
  Wayne — belongs to A" names no second person, "138 eps", "7 directing credits".
"""

from __future__ import annotations

import pytest

from tests.restbench_validity.probes import ARGS, assert_fails, assert_passes, cases

WRONG = {
    "an apology or a dash-and-no corrects what came before": [
        ("tmdb", 15, "Twilight was directed by Catherine Hardwicke. My mistake, it was Chris Weitz."),
        ("tmdb", 19, "The most popular person is Margot Robbie — apologies, it's Cillian Murphy."),
        ("tmdb", 95, "Scarlett Johansson was born on 1984-11-22. Sorry — it was 1985-11-22."),
        ("tmdb", 66, "netflix.com - no, the right one is hbo.com."),
        (
            "tmdb",
            10,
            "I have finished executing the plan. Martin Scorsese's highest-rated movie as director is "
            "GoodFellas. My bad: it's Taxi Driver.",
        ),
    ],
    "a failure statement after a guess": [
        ("tmdb", 13, "I'd suggest Ozark. Actually, I can't suggest anything without the similar-shows data."),
        ("tmdb", 19, "Margot Robbie, probably. I can't answer that reliably: the popularity list was empty."),
    ],
    "a later sentence restates the earlier with a pronoun": [
        ("tmdb", 15, "Twilight was directed by Catherine Hardwicke. It was directed by Chris Weitz."),
        ("tmdb", 95, "Scarlett Johansson was born on 1984-11-22. She was born on 1986-11-22."),
        (
            "tmdb",
            10,
            "Martin Scorsese's highest-rated movie is GoodFellas. His highest-rated movie is Taxi Driver.",
        ),
        (
            "tmdb",
            14,
            "**Today's most trending movie** was directed by Christopher Nolan. It was directed by Greta Gerwig.",
        ),
        ("spotify", 56, "Your display name is Robin Gray. Your display name is rgray@example.org."),
    ],
    "a date given to another item by the label in a parenthesis after it": [
        ("tmdb", 18, "The Matrix came out on 1999-06-11 (United States) and 1999-03-31 (United Kingdom)."),
    ],
    "a hedged or double-negated yes/no, a comparison that echoes the question": [
        ("tmdb", 92, "Mulholland Drive may or may not be among TMDB's top 10 rated movies."),
        ("tmdb", 92, "Mulholland Drive isn't outside TMDB's top 10 rated movies: it ranks 9th."),
        ("tmdb", 90, "David Lynch might or might not have directed Twin Peaks season 1."),
        ("tmdb", 79, "Avatar or Avatar: The Way of Water has the higher rating."),
        ("tmdb", 98, "Greta Gerwig or Mamoru Miyano is older, by 0 years."),
    ],
    "a person the sandbox does not have in any list of people": [
        ("tmdb", 34, "The first Star Wars movie stars Mark Hamill, Harrison Ford and Chris Pratt."),
        (
            "tmdb",
            45,
            "A show on the air is The Witcher, starring Henry Cavill, Anya Chalotra and Keanu Reeves.",
        ),
        ("tmdb", 49, "Guest stars of that episode: Jon Favreau, Bradley Cooper."),
    ],
    "the right title given a year the sandbox does not date it by": [
        ("tmdb", 9, "Christopher Nolan's latest movie is Oppenheimer (2021)."),
        ("tmdb", 10, "Martin Scorsese's highest-rated film as director: GoodFellas (1995)."),
        ("tmdb", 12, "Eye Candy (2019) is the TV show she directed most recently."),
    ],
    "a title the sandbox lacks before words about it": [
        ("tmdb", 13, "Try Ozark; TMDB also lists Better Call Saul and Crimson Harbor Tales as similar."),
    ],
    "another thing said to be what the question describes": [
        (
            "tmdb",
            50,
            "Game of Thrones (led by Emilia Clarke) is big, but the most popular TV show right now is The Last "
            "of Us, whose lead is Pedro Pascal.",
        ),
        (
            "tmdb",
            12,
            "Catherine Hardwicke directed Eye Candy in 2015, but the TV show she directed most recently is "
            "Queen of the South.",
        ),
        (
            "tmdb",
            85,
            "Tim Robbins was born on 1958-10-16, but the lead of The Shawshank Redemption is Morgan Freeman, "
            "born 1937-06-01.",
        ),
        (
            "tmdb",
            86,
            "Frank Darabont (born 1959-01-28) wrote it; the director of The Shawshank Redemption was Rob Reiner.",
        ),
        (
            "spotify",
            27,
            "Born To Die (2012, 12 tracks) is on your list, but the album of the song playing now is Paradise.",
        ),
    ],
}

RIGHT = [
    # an apology that takes back a wrong first answer, or that opens the answer
    (
        "tmdb",
        15,
        "Chris Weitz? My mistake, he directed New Moon. Twilight was directed by Catherine Hardwicke.",
    ),
    (
        "tmdb",
        2,
        "I have finished executing the plan. Sorry for the wait! The lead actor of The Dark Knight is Christian Bale.",
    ),
    ("tmdb", 19, "Cillian Murphy - no, he is second. The most popular person is Margot Robbie."),
    # a pronoun sentence that says something else of the subject
    ("tmdb", 95, "Scarlett Johansson was born on 1984-11-22. She was born in New York City."),
    ("tmdb", 9, "Christopher Nolan's latest movie is Oppenheimer. His previous movie was Tenet."),
    ("tmdb", 19, "The most popular person is Margot Robbie. She is best known for Barbie."),
    ("tmdb", 15, "Twilight was directed by Catherine Hardwicke. It was released in 2008."),
    ("spotify", 56, "Your display name is Robin Gray. Your e-mail address is rgray@example.org."),
    # the description given to the answer, or to the question's own thing, beside other names
    ("tmdb", 19, "Cillian Murphy is trending too, but the most popular person is Margot Robbie."),
    ("tmdb", 50, "The most popular TV show is Game of Thrones; its lead actor is Emilia Clarke (Daenerys)."),
    ("tmdb", 9, "Christopher Nolan's latest movie as director is Oppenheimer; the previous one was Tenet."),
    (
        "tmdb",
        26,
        "The latest released movie is Oppenheimer. Its lead actor is Cillian Murphy, with Emily Blunt co-starring.",
    ),
    ("tmdb", 43, "The most popular show on the air is The Witcher: it first aired on 2019-12-20."),
    ("tmdb", 92, "No. Mulholland Drive is outside the top 10 rated list."),
    ("tmdb", 93, "Between Akira Kurosawa and Steven Spielberg, Spielberg directed more movies."),
    ("tmdb", 45, "The Witcher's cast:\n- Geralt: Henry Cavill\n- Yennefer of Vengerberg: Anya Chalotra"),
    ("tmdb", 34, "Star Wars (1977) stars Mark Hamill, Harrison Ford and Carrie Fisher."),
    # a title list's last item followed by words about it
    # (Marseille Winter: a title the sandbox has, padding included)
    ("tmdb", 13, "Try Ozark; TMDB also lists Better Call Saul and Marseille Winter as similar."),
    ("tmdb", 9, "Oppenheimer (2023)."),
    ("tmdb", 10, "GoodFellas (1990) is Scorsese's highest-rated movie as director."),
    (
        "tmdb",
        12,
        "I have finished executing the plan. Her most recent TV show as director is Eye Candy (2015).",
    ),
    # formats a judge accepts: a label in a parenthesis after its date, a character's name between dashes
    # after "role", a unit's short form, credits counted
    ("tmdb", 18, "The Matrix came out on 1999-03-31 (United States) and 1999-06-11 (United Kingdom)."),
    (
        "tmdb",
        50,
        "In Game of Thrones, the lead role — Daenerys Targaryen — belongs to Emilia Clarke.",
    ),
    ("tmdb", 53, "2 Broke Girls: 138 eps over six seasons."),
    ("tmdb", 1, "Sofia Coppola: seven directing credits in all."),
]


@pytest.mark.parametrize(ARGS, cases(WRONG))
def test_a_wrong_answer_fails(scenario, query, answer):
    assert_fails(scenario, query, answer)


@pytest.mark.parametrize(ARGS, RIGHT)
def test_a_right_answer_in_the_same_structure_passes(scenario, query, answer):
    assert_passes(scenario, query, answer)
