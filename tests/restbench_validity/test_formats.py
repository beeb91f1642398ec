"""The formats a careful judge accepts, written for this test (none is in the dev suite): each right
answer passes, and the same format carrying a wrong value fails (so a pass is not a blanket pass)."""

from __future__ import annotations

import pytest

from tests.restbench_validity.probes import ARGS, assert_fails, assert_passes, cases

ACCEPTED = {
    "surname alone": [
        ("tmdb", 2, "Bale plays the lead."),
        ("tmdb", 14, "Nolan directed it."),
        ("tmdb", 3, "Coppola."),
    ],
    "initials": [
        ("tmdb", 2, "C. Bale"),
        ("tmdb", 3, "F. F. Coppola"),
        ("tmdb", 15, "C Hardwicke directed Twilight."),
    ],
    "without the middle name": [("tmdb", 3, "Francis Coppola directed it.")],
    "nickname": [("tmdb", 14, "Chris Nolan.")],
    "surnames in a list": [
        ("tmdb", 30, "DiCaprio, Winslet and Zane."),
        ("tmdb", 41, "Fincher, Foley, Schumacher, McDougall and Coulter."),
    ],
    "alias table": [
        ("tmdb", 63, "HBO is headquartered in NYC."),
        ("tmdb", 88, "Lucasfilm is based in SF (the Presidio)."),
        ("spotify", 24, "Your top artist right now is LDR."),
    ],
    "numbers in words": [
        ("tmdb", 53, "one hundred thirty-eight episodes"),
        ("tmdb", 53, "It has a hundred and thirty-eight episodes in total."),
        ("tmdb", 96, "Three seasons."),
    ],
    "two-digit years and short months": [
        ("tmdb", 72, "He was born on Apr 2 '75."),
        ("tmdb", 95, "22 Nov '84"),
        ("tmdb", 58, "It premiered on Apr 1, '12."),
        ("tmdb", 55, "It first aired in Sept '07."),
    ],
    "comparisons by their numbers": [
        ("tmdb", 79, "Avatar: The Way of Water 7.655 vs Avatar 7.572."),
        ("tmdb", 79, "Avatar (2009) 7.572, Avatar: The Way of Water (2022) 7.655"),
        ("tmdb", 93, "Spielberg 16, Kurosawa 9."),
        ("tmdb", 89, "Mulholland Drive (2001), The Double Life of Veronique (1991)"),
    ],
    "zero years in words": [
        ("tmdb", 98, "Mamoru Miyano is the older one; the difference is zero years, both were born in 1983."),
    ],
    "stylised titles": [
        ("tmdb", 10, "GOODFELLAS"),
        ("tmdb", 80, "Mission Impossible Dead Reckoning Part 1 qualifies."),
        ("tmdb", 80, "Spiderman: Across the Spiderverse."),
    ],
    "terse answer inside a sentence": [
        ("tmdb", 84, "The episode is called The Heiress, and it is the third of season 2."),
        ("tmdb", 91, "Lynch? He was born in Missoula, Montana."),
    ],
}
WRONG_IN_THE_SAME_FORMAT = [
    ("tmdb", 2, "Ledger plays the lead."),
    ("tmdb", 2, "H. Ledger"),
    ("tmdb", 2, "Kevin Bale."),  # another person with the surname
    ("tmdb", 63, "HBO is headquartered in LA."),
    ("tmdb", 53, "one hundred thirty-seven episodes"),
    ("tmdb", 72, "He was born on Apr 2 '76."),
    ("tmdb", 55, "It first aired in Sept '08."),
    ("tmdb", 79, "Avatar: The Way of Water 7.572 vs Avatar 7.655."),
    ("tmdb", 93, "Spielberg 9, Kurosawa 16."),
    ("tmdb", 98, "Greta Gerwig is the older one; the difference is zero years."),
]


@pytest.mark.parametrize(ARGS, cases(ACCEPTED))
def test_a_format_a_judge_accepts_passes(scenario, query, answer):
    assert_passes(scenario, query, answer)


@pytest.mark.parametrize(ARGS, WRONG_IN_THE_SAME_FORMAT)
def test_the_same_format_with_a_wrong_value_fails(scenario, query, answer):
    assert_fails(scenario, query, answer)
