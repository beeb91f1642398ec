"""The rules of issue 28's dev2 round (``focus``, ``commitment``, ``key_rules``, ``key_comparison``), each
with answers written for this test and in no labelled suite: which sentence answers the question, which
names are only context, and the number, date and yes/no forms found wrong on dev2. ``WRONG`` answers
must fail, ``RIGHT`` ones pass."""

from __future__ import annotations

import pytest

from restgraph.evals.scorers.answer_keys import verdict
from tests.restbench_validity.probes import ARGS, assert_fails, assert_passes, cases

WRONG = {
    "a possessive name qualifies another, it is not the answer": [
        ("tmdb", 2, "The lead is Heath Ledger, Christian Bale's co-star."),
        ("tmdb", 3, "Its director is Sofia Coppola, Francis Ford Coppola's daughter."),
    ],
    "a name ranked below another is not the answer": [
        ("tmdb", 17, "The Godfather comes second; the number one spot goes to 12 Angry Men."),
        ("tmdb", 10, "GoodFellas is the runner-up at 8.47; Taxi Driver tops Scorsese's list."),
        ("tmdb", 19, "Margot Robbie is the second most popular person, and Cillian Murphy is first."),
    ],
    "another one is context, the committed one is wrong": [
        ("tmdb", 76, "Band of Brothers. He is of course in Friends too, but that is another story."),
    ],
    "the concluding sentence decides": [
        (
            "spotify",
            30,
            "Albums by release date: JORDI, Red Pill Blues, Songs About Jane. Therefore the newest is Red Pill Blues.",
        ),
    ],
    "the sentence about the question's subject decides": [
        (
            "tmdb",
            2,
            "Christian Bale played Batman in Batman Begins. In The Dark Knight the lead role is Heath Ledger's.",
        ),
        (
            "tmdb",
            2,
            "Christian Bale played Batman in Batman Begins. For The Dark Knight, the billing starts with Gary Oldman.",
        ),
    ],
    "names the question mentions, listed with the answer": [
        ("tmdb", 77, "Season 2 was directed by Carl Tibbetts, Bryn Higgins and Owen Harris."),
    ],
    "the answer or a name no key knows": [
        ("tmdb", 15, "The director was Chris Weitz or Catherine Hardwicke."),
        ("tmdb", 2, "Christian Bale or Michael Caine."),
    ],
    "a comparison: the sentence that says who wins decides": [
        ("tmdb", 93, "Spielberg has 16 credits. Kurosawa directed more, counting his unreleased projects."),
    ],
    "a fresh look at the data withdraws what came before": [
        ("tmdb", 53, "138 episodes. Hmm, looking again at the season list, it's 132."),
        ("tmdb", 96, "3 seasons. Wait, the API lists 4 seasons, so 4."),
    ],
    "an identifier is no count": [
        ("tmdb", 53, "2 Broke Girls (TMDB id 138) has 142 episodes."),
        ("tmdb", 96, "Sword Art Online, ID: 3, has 4 seasons."),
        ("tmdb", 53, "Episodes: 136. Show id: 138."),
    ],
    "a yes or no that closes a sentence": [
        ("tmdb", 92, "It has a rating of 7.85, which puts it at number 9, so yes."),
        (
            "tmdb",
            92,
            "Mulholland Drive isn't rated as highly as The Godfather, but it's in the list, so yes.",
        ),
    ],
}

WRONG |= {
    "sentences that each name a candidate, none saying which answers": [
        ("tmdb", 2, "Christian Bale wears the cape. Heath Ledger wears the makeup."),
        ("tmdb", 19, "Margot Robbie has a huge following. Cillian Murphy has one too."),
    ],
    "a sentence that opens with 'or' offers another answer": [
        ("tmdb", 17, "The Godfather. Or The Shawshank Redemption, by number of votes."),
        ("tmdb", 17, "The Godfather. Alternatively, The Shawshank Redemption."),
    ],
    "another count under another reading": [
        ("tmdb", 96, "Three. Four counting the specials."),
        ("tmdb", 96, "3 seasons. 4 if you count the specials."),
    ],
    "a name the question gives, alone as another answer": [
        ("tmdb", 77, "Bryn Higgins.\nOwen Harris."),
        ("tmdb", 11, "Martin Scorsese. Leonardo DiCaprio."),
    ],
}

RIGHT = {
    "one candidate per sentence, the question's word decides": [
        ("tmdb", 2, "Christian Bale stars as Batman. Heath Ledger plays the Joker."),
        ("tmdb", 2, "Christian Bale took the role of Batman alongside Heath Ledger."),
    ],
    "another number for another thing": [
        ("tmdb", 53, "138 episodes. Six seasons."),
        ("tmdb", 96, "3 seasons; 25 episodes in the first one."),
    ],
    "a name the question gives, in a sentence of its own": [
        ("tmdb", 77, "Bryn Higgins directed it. Owen Harris directed episode 1."),
    ],
    "a possessive name still names it": [
        ("tmdb", 14, "Christopher Nolan's Oppenheimer is today's most trending movie."),
    ],
    "names ranked below the answer are context": [
        (
            "tmdb",
            19,
            "Margot Robbie is the most popular person, just ahead of Cillian Murphy and Ryan Gosling.",
        ),
        ("tmdb", 17, "The Godfather (8.708), followed by The Shawshank Redemption (8.705)."),
        ("tmdb", 19, "Margot Robbie, with Cillian Murphy the runner-up."),  # the cue's nearest name only
        (
            "tmdb",
            3,
            "The Godfather, ahead of The Shawshank Redemption by Frank Darabont, was directed by Francis Ford Coppola.",
        ),
    ],
    "another one is context": [
        ("tmdb", 76, "Friends. His other shows include Band of Brothers and Intelligence."),
        ("tmdb", 9, "Oppenheimer. His previous film was Tenet."),
        ("tmdb", 99, "The Frozen Ground; her earlier movie was Alfie."),
        ("tmdb", 76, "Friends. The other shows are Band of Brothers and Intelligence."),
    ],
    "the concluding sentence decides": [
        (
            "spotify",
            30,
            "Albums by release date: Songs About Jane, Red Pill Blues, JORDI. So the newest one is JORDI.",
        ),
    ],
    "the sentence about the question's subject decides": [
        (
            "tmdb",
            26,
            "The newest release is Oppenheimer. Killers of the Flower Moon stars Leonardo DiCaprio. Oppenheimer stars Cillian Murphy.",
        ),
    ],
    "one candidate stated beats the list it came from": [
        (
            "tmdb",
            10,
            "Scorsese's films by rating: GoodFellas 8.47, Shutter Island 8.2, The Departed 8.16. The highest is GoodFellas.",
        ),
        ("tmdb", 9, "Nolan's films: Tenet, Dunkirk, Oppenheimer. The latest one is Oppenheimer."),
    ],
    "a city key has no titles for candidates": [
        (
            "tmdb",
            87,
            "Castle Rock Entertainment, the studio behind The Shawshank Redemption, is headquartered in Beverly Hills.",
        ),
        ("tmdb", 87, "Castle Rock Entertainment (The Shawshank Redemption) is in Beverly Hills."),
    ],
    "a name the question gives in the possessive is its subject": [
        ("spotify", 30, "The newest Maroon 5 album: JORDI. Red Pill Blues came before it."),
    ],
    "capitalised words of address are no person": [
        ("spotify", 56, "Your Account Name is Robin Gray."),
        ("spotify", 56, "According to My Profile, you are Robin Gray."),
    ],
    "a comparison: the sentence that says who wins decides": [
        ("tmdb", 93, "Kurosawa: 9 directing credits. Spielberg: 16. Spielberg has directed more."),
    ],
    "a count closed by an aside, 'of them' or 'in total'": [
        ("tmdb", 1, "Counting only directing credits, there are 7 of them."),
        ("tmdb", 53, "138 (all six seasons together)"),
        ("tmdb", 96, "3 in total."),
    ],
    "a yes that closes a sentence": [
        ("tmdb", 97, "Both are credited in the main cast, so yes."),
    ],
    "an abbreviated month with its dot": [
        ("tmdb", 58, "Apr. 1, 2012"),
    ],
}


@pytest.mark.parametrize(ARGS, cases(WRONG))
def test_a_wrong_answer_fails(scenario, query, answer):
    assert_fails(scenario, query, answer)


@pytest.mark.parametrize(ARGS, cases(RIGHT))
def test_a_right_answer_passes(scenario, query, answer):
    assert_passes(scenario, query, answer)


WRONG_CLAUSES = [
    # a relative clause after a comma is a statement of its own: the main clause commits
    ("tmdb", 2, "Gary Oldman is the lead actor of The Dark Knight, which also stars Christian Bale."),
    # the clause that says most of the question's words decides
    (
        "tmdb",
        3,
        "Francis Ford Coppola directed The Godfather Part II; the top-rated movie, The Shawshank Redemption, was directed by Frank Darabont.",
    ),
    # "and" is no link between a name and the question's words
    ("tmdb", 17, "The Shawshank Redemption is the top-rated movie, and The Godfather is the most popular."),
    # a denial's scope ends at the colon: what follows is asserted
    ("tmdb", 2, "It is not Christian Bale: the lead is Heath Ledger."),
]
RIGHT_CLAUSES = [
    # a list's item in a clause about another person of the subject's kind is no item of the list
    (
        "tmdb",
        1,
        "Sofia Coppola directed 7 movies. Her father, Francis Ford Coppola, directed Apocalypse Now.",
    ),
    # a denial's scope ends at a colon or a dash
    ("tmdb", 2, "Not Heath Ledger, despite the Oscar: Christian Bale is the lead."),
    ("tmdb", 17, "It is not The Shawshank Redemption - The Godfather is rated higher."),
]


@pytest.mark.parametrize("scenario,query,answer", WRONG_CLAUSES)
def test_the_clause_that_states_the_answer_decides(scenario, query, answer):
    ok, why = verdict(scenario, query, answer)
    assert not ok, f"passed ({why}): {answer}"


@pytest.mark.parametrize("scenario,query,answer", RIGHT_CLAUSES)
def test_context_clauses_and_denials_do_not_fail_a_right_answer(scenario, query, answer):
    ok, why = verdict(scenario, query, answer)
    assert ok, f"failed ({why}): {answer}"


WRONG_LISTS = [
    # a title no movie or show of the sandbox has, in a list of right ones (padding titles are known)
    ("tmdb", 38, "The Fast and the Furious collection: Fast Five, Furious 7, F9, The Transporter."),
    ("tmdb", 13, "Similar to Breaking Bad: Better Call Saul, Ozark and Weeds."),
    # image URLs offered as alternatives: the whole URL is the list item
    (
        "tmdb",
        100,
        "Oppenheimer covers: https://image.tmdb.org/t/p/original/di7BFxDhZ6i6QC54wJ8Zj8QmcjJ.jpg"
        " or https://image.tmdb.org/t/p/original/61au6eWN6j29xT2t6x1kQHvYcyD.jpg",
    ),
    # the answer in "A, B or C" of names no key knows, and "somewhere in"
    ("tmdb", 91, "Lynch was born somewhere in Montana: Missoula, Helena or Billings."),
]
RIGHT_LISTS = [
    # a padding title of the sandbox is a title, not a wrong item
    (
        "tmdb",
        8,
        "If you liked Titanic, try: The Notebook, Romeo + Juliet, Twilight, Avatar, Beyond the Little Season.",
    ),
    # a track beside its artist is no list of tracks
    ("spotify", 17, "Now playing: Born to Die - Lana Del Rey"),
    ("spotify", 17, "Lana Del Rey - Born To Die"),
]


@pytest.mark.parametrize("scenario,query,answer", WRONG_LISTS)
def test_a_list_with_an_unknown_item_or_alternatives_fails(scenario, query, answer):
    ok, why = verdict(scenario, query, answer)
    assert not ok, f"passed ({why}): {answer}"


@pytest.mark.parametrize("scenario,query,answer", RIGHT_LISTS)
def test_known_titles_and_a_track_with_its_artist_pass(scenario, query, answer):
    ok, why = verdict(scenario, query, answer)
    assert ok, f"failed ({why}): {answer}"


@pytest.mark.parametrize(
    "scenario,query,answer,right",
    [
        # the clause that names the question's subject gives the answer
        (
            "tmdb",
            15,
            "Catherine Hardwicke directed Twilight; Chris Weitz directed the sequel New Moon.",
            True,
        ),
        (
            "tmdb",
            15,
            "Chris Weitz directed Twilight; Catherine Hardwicke directed the sequel New Moon.",
            False,
        ),
        # a count of a part is no other total; another total still is
        ("tmdb", 53, "138 episodes over 6 seasons (2011-2017), the last with 22 episodes.", True),
        ("tmdb", 53, "138 in total, about 23 episodes per season.", True),
        ("tmdb", 53, "138 episodes, or 160 episodes with the specials.", False),
    ],
)
def test_the_subject_clause_and_counts_of_a_part(scenario, query, answer, right):
    assert verdict(scenario, query, answer)[0] is right, answer


@pytest.mark.parametrize(
    "scenario,query,answer,right",
    [
        # a short sentence that doubts the claim before it takes it back
        ("tmdb", 2, "Christian Bale. At least that's my best guess from the credits.", False),
        ("tmdb", 2, "Christian Bale. Not 100% sure, though.", False),
        # ... a remark about something else does not
        ("tmdb", 2, "Christian Bale. It is likely his best-known role.", True),
        # guesses and picks are hedges
        ("tmdb", 2, "I'd guess Christian Bale.", False),
        ("tmdb", 2, "Christian Bale, if I had to pick one.", False),
        # "no" in a phrase of certainty denies nothing
        ("tmdb", 26, "No doubt: Cillian Murphy.", True),
        ("tmdb", 26, "There's no question the lead is Cillian Murphy.", True),
        # a short denial ends at its colon too
        ("tmdb", 9, "Not Tenet: Oppenheimer is newer.", True),
    ],
)
def test_hedges_that_take_back_and_negations_that_do_not_deny(scenario, query, answer, right):
    assert verdict(scenario, query, answer)[0] is right, answer


@pytest.mark.parametrize(
    "scenario,query,answer,right",
    [
        # a numbered or bulleted list quoted from an API response is data; the statement is the answer
        (
            "tmdb",
            17,
            "Results: 1. The Godfather (8.7) 2. The Shawshank Redemption (8.7) 3. The Godfather Part II (8.6)."
            " The top-rated movie is The Godfather.",
            True,
        ),
        (
            "tmdb",
            17,
            "Top rated:\n1. The Shawshank Redemption\n2. The Godfather\n\nThe top-rated movie is The Godfather.",
            True,
        ),
        (
            "tmdb",
            17,
            "Top rated:\n1. The Godfather\n2. The Shawshank Redemption\n\nThe top-rated movie is The Shawshank Redemption.",
            False,
        ),
        # ... and a list alone still offers all its items
        (
            "tmdb",
            17,
            "Results: 1. The Godfather (8.7) 2. The Shawshank Redemption (8.7) 3. The Godfather Part II (8.6).",
            False,
        ),
        ("tmdb", 2, "- Christian Bale\n- Heath Ledger\n- Gary Oldman", False),
        # a markdown table row is one clause; cells of one row are a list
        (
            "tmdb",
            26,
            "| Role | Actor |\n|---|---|\n| Lead | Cillian Murphy |\n| Support | Emily Blunt |",
            True,
        ),
        (
            "tmdb",
            26,
            "| Role | Actor |\n|---|---|\n| Lead | Emily Blunt |\n| Support | Cillian Murphy |",
            False,
        ),
        ("tmdb", 2, "| Christian Bale | Heath Ledger |", False),
    ],
)
def test_quoted_lists_and_tables(scenario, query, answer, right):
    assert verdict(scenario, query, answer)[0] is right, answer


@pytest.mark.parametrize(
    "scenario,query,answer,right",
    [
        # a two-word subtitle alone and "Volume" for "Vol." name the title
        ("tmdb", 44, "He also directed Once Upon a Time in Hollywood and Kill Bill Volume 1.", True),
        ("tmdb", 38, "2 Fast 2 Furious, Tokyo Drift, Fast Five.", True),
        # a misspelt right title is no unknown title; a title the sandbox lacks is
        ("tmdb", 44, "Reservoir Dogs, Pulp Fiction and Inglorious Basterds.", True),
        ("tmdb", 44, "Reservoir Dogs, Pulp Fiction and Sin City.", False),
        # a subtitle after a known title is part of it, not an unknown item
        ("tmdb", 38, "Fast Five (2011), Furious 7 (2015), F9: The Fast Saga (2021), Fast X (2023).", True),
    ],
)
def test_title_variants(scenario, query, answer, right):
    assert verdict(scenario, query, answer)[0] is right, answer


@pytest.mark.parametrize(
    "scenario,query,answer,right",
    [
        # what held before is context; what holds now is the answer
        ("tmdb", 19, "Margot Robbie was the most popular last week; today it's Cillian Murphy.", False),
        ("tmdb", 19, "Cillian Murphy was the most popular last week; today it's Margot Robbie.", True),
        ("tmdb", 9, "Tenet was his latest until Oppenheimer came out in 2023.", True),
        ("tmdb", 9, "Oppenheimer was his latest until Tenet came out.", False),
        ("spotify", 24, "Lana Del Rey used to be your favorite; now it's Taylor Swift.", False),
        ("spotify", 30, "Red Pill Blues was their newest until JORDI (2021).", True),
        # a parenthesis that offers another answer
        ("tmdb", 2, "Christian Bale (some sources say Heath Ledger).", False),
        ("tmdb", 17, "The Godfather (or, by some counts, The Shawshank Redemption).", False),
        # a reply's opening "No," does not deny the statement after it
        (
            "tmdb",
            14,
            "Barbie's director Greta Gerwig? No, today's most trending is Oppenheimer by Christopher Nolan.",
            True,
        ),
    ],
)
def test_former_answers_asides_and_a_leading_no(scenario, query, answer, right):
    assert verdict(scenario, query, answer)[0] is right, answer


@pytest.mark.parametrize(
    "scenario,query,answer,right",
    [
        # co-stars and supporting names are context
        (
            "tmdb",
            2,
            "Christian Bale plays Batman in The Dark Knight. Heath Ledger co-stars as the Joker.",
            True,
        ),
        ("tmdb", 2, "Heath Ledger leads The Dark Knight. Christian Bale co-stars as Batman.", False),
        # a rank cue reaches across the sentence and the nearest name's list
        ("tmdb", 19, "That's Margot Robbie. Cillian Murphy and Ryan Gosling are next.", True),
        ("tmdb", 76, "Friends. Band of Brothers is rated higher but is less popular.", True),
        ("tmdb", 76, "Band of Brothers. Friends is less popular.", False),
        # "made" is said for "directed"
        ("tmdb", 3, "Francis Ford Coppola made it in 1972. Marlon Brando and Al Pacino starred.", True),
    ],
)
def test_co_stars_lower_ranks_and_made(scenario, query, answer, right):
    assert verdict(scenario, query, answer)[0] is right, answer
