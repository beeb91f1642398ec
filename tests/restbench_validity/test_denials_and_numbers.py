"""Denials, numbers and partial lists (issue 28): answers written for this test, none in a suite, for
other queries than the suites' misses they generalise. Each wrong answer passed the checker before the
rule its family names; each right one beside it reads alike and must still pass."""

from __future__ import annotations

import pytest

from tests.restbench_validity.probes import ARGS, assert_fails, assert_passes, cases

WRONG = {
    # a list key: a right item the answer denies is a wrong statement about the list
    "denied list item": [
        (
            "tmdb",
            45,
            "The Witcher's cast includes Henry Cavill and Freya Allan, though Anya Chalotra isn't part of it.",
        ),
        (
            "tmdb",
            13,
            "Better Call Saul and Ozark are similar to Breaking Bad, but The Sopranos is not on that list.",
        ),
        (
            "tmdb",
            78,
            "Nolan is known for Oppenheimer and Inception. Interstellar was never one of his films.",
        ),
        ("spotify", 31, "Lorde and Halsey are related to Lana Del Rey; Marina does not appear among them."),
        ("tmdb", 80, "Barbie qualifies. Oppenheimer doesn't make the cut: it is rated below 7."),
        ("tmdb", 34, "Mark Hamill and Carrie Fisher, but not Harrison Ford."),
    ],
    # a closed list (``need: all``): a person no key knows, listed beside the right ones, is an extra item
    "extra person in a closed list": [
        (
            "tmdb",
            41,
            "Season 1 directors: David Fincher, James Foley, Joel Schumacher, Charles McDougall, Allen Coulter"
            " and Carl Franklin.",
        ),
        ("tmdb", 70, "On Top Gear: Richard Hammond, James May and Chris Harris."),
        ("tmdb", 30, "The stars are Leonardo DiCaprio, Kate Winslet, Billy Zane and Orlando Bloom."),
    ],
    # in a list of titles like the question's own, a namesake of it is another title, not it with a subtitle
    "namesake of the question's title": [
        ("tmdb", 13, "Ozark, Breaking Bad: The Movie and Peaky Blinders."),
        ("tmdb", 42, "The West Wing, House of Cards: Washington and Succession."),
        ("tmdb", 68, "Game of Thrones, The Witcher: Blood Origin and House of the Dragon."),
        ("tmdb", 44, "Pulp Fiction, Django Unchained 2 and Jackie Brown."),
    ],
    "parts and ratings in a title list": [
        ("tmdb", 44, "Pulp Fiction, Kill Bill: Vol. 1 and 3."),
        ("tmdb", 44, "Reservoir Dogs, Jackie Brown & 2 Fast 2 Furious."),
    ],
    # a right name said of another season or episode than the asked one (``item_labels``)
    "another episode": [
        ("tmdb", 84, "The Heiress is S1E3; S2E3 is Chapter 19."),
        ("tmdb", 57, "Season 1 episode 3 is about the Raj and a Bengal tiger."),
        ("tmdb", 49, "Jon Favreau guest-stars in season 3, episode 23."),
        ("tmdb", 77, "Carl Tibbetts directed S2E3; Bryn Higgins directed season 2 episode 2."),
        ("tmdb", 58, "Season 2 aired on 2013-03-31. Game of Thrones premiered on 2012-04-01."),
    ],
    # a comparison's cue speaks of the name right before it, not of the sentence's first name
    "comparison cue on the other name": [
        ("tmdb", 79, "Avatar: The Way of Water has 7.7 and Avatar 7.6, so Avatar rates higher."),
        ("tmdb", 93, "Spielberg has 34 credits and Kurosawa 30; in the end Kurosawa directed more."),
        (
            "tmdb",
            89,
            "The Double Life of Véronique premiered in 1991 and Mulholland Drive in 2001, so Mulholland Drive came first.",
        ),
        # the numbers contradict the conclusion
        ("tmdb", 93, "Spielberg directed 9 movies and Kurosawa 16, so Spielberg directed more."),
    ],
    # a right month denied denies the date; a month is read only with its year
    "denied month": [
        ("tmdb", 18, "The Matrix opened in Britain on 1999-06-11; it did not open in the US in March 1999."),
        (
            "tmdb",
            23,
            "Cry Macho: UK release 12 November 2021. It was not released in the US in September 2021.",
        ),
        (
            "tmdb",
            33,
            "Titanic came out on 23 January 1998 in the UK; it never came out in the US in Dec. 1997.",
        ),
    ],
    # a release or air date key (``precision: month``): another month is another date
    "another month": [
        ("tmdb", 43, "The Witcher first aired in November 2019."),
        ("tmdb", 40, "Dec '02."),
        ("tmdb", 58, "Season 2 aired in April 2012, or maybe May 2012."),
    ],
    # a fact the question does not require but the answer gives (a key's ``optional`` year or count) must
    # be right: a right album with a wrong release year or track count is wrong album information
    "wrong optional fact": [
        ("spotify", 27, "Album: Born To Die (Lana Del Rey), 2011, 12 tracks."),
        ("spotify", 27, "The track comes from Born To Die, an album of 15 songs."),
        ("spotify", 27, "It's on the album Born To Die | released 2014-06-13"),
        ("tmdb", 53, "138 episodes across 7 seasons."),
        ("tmdb", 53, "It ran for five seasons, 138 episodes in all."),
        ("spotify", 27, "The song is Born To Die (2012)."),
        ("spotify", 27, "Blue Jeans, 12 tracks, 2012."),
    ],
    # another value said to be the total is the count the answer commits to
    "another total": [
        ("tmdb", 53, "2 Broke Girls has 138 episodes across six seasons, plus 10 shorts: 148 in all."),
        ("tmdb", 1, "Sofia Coppola directed 7 feature films and 2 shorts, 9 altogether."),
        ("tmdb", 96, "Sword Art Online has 3 seasons, plus the Alicization arc, for a total of 4."),
        # another count under another reading, after "i.e." or in an aside ("that's", not a label "s")
        (
            "tmdb",
            96,
            "Sword Art Online has 3 seasons and 97 episodes, i.e. 4 seasons if you count Alternative.",
        ),
        ("tmdb", 53, "138 episodes (that's 139 with the unaired pilot)."),
    ],
}

RIGHT = {
    "denied list item": [
        ("tmdb", 30, "Leonardo DiCaprio, Kate Winslet and Billy Zane star, not Brad Pitt."),
        (
            "tmdb",
            41,
            "David Fincher, James Foley, Joel Schumacher, Charles McDougall and Allen Coulter directed season 1;"
            " Steven Spielberg did not.",
        ),
        (
            "tmdb",
            13,
            "Better Call Saul and Ozark are similar to Breaking Bad; The Wire is not in TMDB's list.",
        ),
        # a negation that qualifies, or says something else of an item the answer lists, denies no item
        (
            "tmdb",
            8,
            "TMDB recommends The Notebook and Avatar. Twilight isn't as close a match, but it's also listed.",
        ),
        (
            "tmdb",
            8,
            "The Notebook, Romeo + Juliet and Avatar. Not the most obvious pick, Twilight is on the list too.",
        ),
        (
            "tmdb",
            30,
            "Leonardo DiCaprio, Kate Winslet and Billy Zane. Billy Zane doesn't get as much screen time as the other two.",
        ),
        ("tmdb", 45, "Henry Cavill, Anya Chalotra and Freya Allan star; Cavill didn't return for season 4."),
        (
            "tmdb",
            13,
            "Better Call Saul, The Sopranos and Ozark; Peaky Blinders is not American but is also similar.",
        ),
    ],
    "extra person in a closed list": [
        (
            "tmdb",
            30,
            "| Star | Character |\n|---|---|\n| Leonardo DiCaprio | Jack |\n| Kate Winslet | Rose |\n| Billy Zane | Cal Hockley |",
        ),
        ("tmdb", 70, "Richard Hammond and James May (plus the Stig, played by Ben Collins)."),
        (
            "tmdb",
            41,
            "David Fincher, James Foley, Joel Schumacher, Charles McDougall and Allen Coulter; Beau Willimon created it.",
        ),
    ],
    "namesake of the question's title": [
        ("tmdb", 13, "Better Call Saul, Ozark and The Sopranos, all like Breaking Bad."),
        ("tmdb", 42, "Like House of Cards: The West Wing and Succession."),
        ("tmdb", 13, "Better Call Saul (the Breaking Bad prequel) and Ozark."),
    ],
    # a title list's formats: the next part of a numbered title, a rating beside a title
    "parts and ratings in a title list": [
        ("tmdb", 44, "Pulp Fiction, Kill Bill: Vol. 1 and 2, Jackie Brown."),
        ("tmdb", 80, "| Movie | Score |\n|---|---|\n| Barbie | 7.2 |\n| Dune | 7.8 |"),
        ("tmdb", 80, "Barbie (7.2), Oppenheimer (8.1) and Dune: 7.8."),
    ],
    "another episode": [
        ("tmdb", 84, "The Heiress (Chapter 11). Season 1's third episode was Chapter 3: The Sin."),
        ("tmdb", 77, "Bryn Higgins directed S2E3; Owen Harris directed episode 1."),
        ("tmdb", 49, "Jon Favreau guest-stars in the third season's 24th episode."),
        # a date said of another season is no rival
        ("tmdb", 58, "Season 2 began on 2012-04-01 and season 3 on 2013-03-31."),
        # the right date said of the asked season; the show's own premiere is no rival
        ("tmdb", 58, "Game of Thrones premiered on 2011-04-17. Its second season first aired on 2012-04-01."),
        (
            "tmdb",
            58,
            "Season 2 of Game of Thrones aired from 2012-04-01. Game of Thrones itself began on 2011-04-17.",
        ),
    ],
    "comparison cue on the other name": [
        ("tmdb", 93, "Kurosawa directed 30 films and Spielberg 34, so Spielberg directed more."),
        ("tmdb", 79, "The Way of Water scores 7.7 against Avatar's 7.6, so the sequel is rated higher."),
        ("tmdb", 79, "Avatar is rated lower than Avatar: The Way of Water."),
        ("tmdb", 89, "The Double Life of Véronique (1991) came out before Mulholland Drive (2001)."),
    ],
    "another total": [
        ("tmdb", 53, "138 episodes in total, over 6 seasons."),
        ("tmdb", 53, "6 seasons in all, 138 episodes."),
        ("tmdb", 96, "Sword Art Online has 3 seasons in total."),
        ("tmdb", 53, "138 episodes; that's 6 seasons."),
        ("tmdb", 1, "Sofia Coppola directed 7 movies (2 of them with Bill Murray)."),
    ],
    # a release or air date key (``precision: month``): its month and year state it; a birthday needs its day
    "month and year": [
        ("tmdb", 43, "The Witcher first aired in December 2019."),
        ("tmdb", 58, "Season two of Game of Thrones began airing in Apr. 2012."),
        ("tmdb", 40, "Dec '01 (December 18, 2001 in the US)."),
        ("tmdb", 33, "Titanic came out in the US in December 1997."),
    ],
    "wrong optional fact": [
        ("spotify", 27, "Album: Born To Die."),
        ("spotify", 27, "Born To Die is the album: twelve tracks, January 2012."),
        ("spotify", 27, "It's from the album Born To Die (2012), the follow-up to her 2010 debut."),
        ("tmdb", 53, "It has 138 episodes. It ran for 6 seasons."),
        # a count only the album has names it the album, though no cue word says "album"
        ("spotify", 27, "Born To Die - Lana Del Rey - 2012 - 12 tracks"),
    ],
    # "not ... until" gives the value, it denies nothing
    "not until": [
        ("tmdb", 33, "Titanic wasn't released in the US until 19 December 1997."),
        ("tmdb", 43, "The Witcher didn't premiere until 20 December 2019."),
        ("tmdb", 55, "The Big Bang Theory didn't air until 2007."),
    ],
    # zero full years said as less than one
    "less than a year": [
        ("tmdb", 98, "Mamoru Miyano is older, but by under a year."),
        (
            "tmdb",
            98,
            "Miyano (born 10 June 1983) is older than Gerwig (4 August 1983) by less than a full year.",
        ),
    ],
}

MORE_WRONG = [
    ("tmdb", 43, "The Witcher did not premiere on 20 December 2019."),
    ("tmdb", 43, "The Witcher didn't premiere until 27 December 2019."),
    ("tmdb", 72, "Pedro Pascal was born in April 1975."),
    ("tmdb", 98, "Greta Gerwig is older, by less than a year."),
    ("tmdb", 98, "Mamoru Miyano is older by less than a year - about 2 years, actually."),
]


@pytest.mark.parametrize(
    ARGS,
    cases(WRONG)
    + [
        pytest.param(*row, id=name)
        for row, name in zip(
            MORE_WRONG, ["denied", "until another", "birthday month", "older-0", "older-1"], strict=True
        )
    ],
)
def test_a_wrong_answer_fails(scenario, query, answer):
    assert_fails(scenario, query, answer)


@pytest.mark.parametrize(ARGS, cases(RIGHT))
def test_a_right_answer_passes(scenario, query, answer):
    assert_passes(scenario, query, answer)
