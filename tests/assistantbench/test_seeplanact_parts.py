"""SeePlanAct's reply parsing, action resolution and URL rule, without a browser."""

from __future__ import annotations

import pytest

from restgraph.agents.browser.policy import BrowserDecision
from restgraph.agents.browser.seeplanact_act import goto_url, resolve
from restgraph.agents.browser.seeplanact_observe import StepView, choice_text
from restgraph.agents.browser.seeplanact_parse import (
    Grounding,
    history_entry,
    original_plan,
    parse_grounding,
    refined_plan,
    task_answer,
)
from restgraph.tools.browser.elements import PageElement

FIRST = """(Original plan)
1. Open the gym directory.
2. Filter by Northgate and Yoga.

(Current Webpage Identification)
The start page.

(Relevant information)
The portal lists (four) sites.

(Refined plan)
Open FitFinder.

(Next Action Based on Webpage and Analysis)
Click FitFinder."""

LATER = """(Current Webpage Identification)
Results.

(Relevant information)
Lotus Yoga costs $72.50 a month.

(New refined plan)
Terminating, the task has been completed. Task answer: 72.5

(Next Action Based on Webpage and Analysis)
Terminate."""


def test_plan_and_memory_are_read_as_upstream_does() -> None:
    assert original_plan(FIRST) == "1. Open the gym directory.\n2. Filter by Northgate and Yoga."
    assert history_entry(FIRST, 1) == "\nStep 1. \nThe portal lists four sites."
    assert refined_plan(LATER) == "Terminating, the task has been completed. Task answer: 72.5"
    assert history_entry(LATER, 2) == "\nStep 2. \nLotus Yoga costs $72.50 a month."


@pytest.mark.parametrize(
    ("reply", "answer"),
    [
        (LATER, "72.5"),
        (FIRST, None),
        (
            '(New refined plan)\nTask answer: ["Avea Pilates", "Core & Reformer"]\n\n(Next Action Based on Webpage and Analysis)\nx',
            '["Avea Pilates", "Core & Reformer"]',
        ),
        ('(Refined plan)\nDone. Task answer: ""\n(Next Action Based on Webpage', ""),
        ("no sections at all. Task answer: Clara Voss", "Clara Voss"),
        ("(New refined plan)\nTask answer: 1 (old)\nTask answer: 2\n\n3. verify", "2"),
    ],
)
def test_task_answer(reply: str, answer: str | None) -> None:
    assert task_answer(reply) == answer


@pytest.mark.parametrize(
    ("reply", "parsed"),
    [
        (
            "(Reiteration)\nThe button.\n\nELEMENT: B\nACTION: CLICK\nVALUE: None",
            Grounding("B", "CLICK", "None"),
        ),
        ('ELEMENT: AB\nACTION: TYPE\nVALUE: "Imogen Hale".', Grounding("AB", "TYPE", "Imogen Hale")),
        (
            "ELEMENT: The uppercase letter of your choice.\nELEMENT: C\nACTION: SELECT\nVALUE: Northgate",
            Grounding("C", "SELECT", "Northgate"),
        ),
        (
            "ELEMENT: A\nsome words\nELEMENT: D\nACTION: PRESS ENTER\nVALUE: None",
            Grounding("D", "PRESS ENTER", "None"),
        ),
        ("I am not sure.", Grounding("Invalid", "None", "")),
    ],
)
def test_grounding_parse(reply: str, parsed: Grounding) -> None:
    assert parse_grounding(reply) == parsed


def _view() -> StepView:
    elements = [
        PageElement((10, 10), "Home", "a", (0, 0, 20, 20), "a", 0, 0),
        PageElement((10, 50), "Find gyms", 'button type="submit"', (0, 40, 20, 60), "button", 1, 0),
    ]
    return StepView(
        elements, choices=[["1", choice_text(1, elements[1])], ["0", choice_text(0, elements[0])]]
    )


def test_resolution_follows_upstream() -> None:
    view = _view()
    click = resolve(Grounding("A", "CLICK", "None"), view)
    assert (
        click.kind == "ELEMENT"
        and click.element is view.elements[1]
        and click.history == '[button type="submit"] Find gyms -> CLICK'
    )
    typed = resolve(Grounding("B", "TYPE", "yoga"), view)
    assert typed.history == "[a] Home -> TYPE: yoga"
    assert (
        resolve(Grounding("Z", "TYPE", "example.org"), view).kind == "GOTO"
    )  # a TYPE off the list becomes a GOTO, as upstream
    assert (
        resolve(Grounding("C", "CLICK", "None"), view).kind is None
    )  # "none of the other options": no operation
    assert resolve(Grounding("D", "SEARCH", "gyms"), view).kind == "SEARCH"
    assert resolve(Grounding("Invalid", "TERMINATE", "None"), view).kind == "TERMINATE"
    assert resolve(Grounding("Invalid", "NONE", "None"), view).kind is None
    assert choice_text(1, view.elements[1]) == '<button type="submit" id="1">Find gyms</button>'


def test_long_descriptions_are_cut_to_30_words_except_selects() -> None:
    long = " ".join(f"w{i}" for i in range(40))
    assert choice_text(0, PageElement((0, 0), long, "a", (0, 0, 0, 0), "a", 0, 0)).endswith("w29...</a>")
    assert choice_text(0, PageElement((0, 0), long, "select", (0, 0, 0, 0), "select", 0, 0)).endswith(
        "w39</select>"
    )


def test_goto_urls() -> None:
    assert goto_url("wikipedia.org", "http://127.0.0.1:8/", "upstream") == "https://www.wikipedia.org"
    assert goto_url("www.wikipedia.org", "http://127.0.0.1:8/", "upstream") == "https://www.wikipedia.org"
    assert (
        goto_url("/gyms/", "http://127.0.0.1:8/books/", "upstream") == "https://www./gyms/"
    )  # upstream's rule, kept by default
    assert goto_url("/gyms/", "http://127.0.0.1:8/books/", "resolve") == "http://127.0.0.1:8/gyms/"
    assert goto_url("http://127.0.0.1:8/x", "http://127.0.0.1:8/", "resolve") == "http://127.0.0.1:8/x"


def test_aria_policy_schema_puts_thought_first() -> None:
    assert next(iter(BrowserDecision.model_json_schema()["properties"])) == "thought"
