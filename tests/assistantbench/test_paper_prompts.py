"""The paper's closed-book and retrieval-augmented prompts, parsed from the pinned paper text, and
their output protocols.

Reference: the CB prompt below was transcribed by hand from Figure 17 of arXiv 2407.15711 (the
version in ``docs/papers/assistantbench-paper.txt``, "21 Oct 2024"), reading the figure as printed:
a sentence or label that ends a printed line ends a prompt line, other line ends are the PDF's
wrapping; the typeset apostrophe is the ASCII one."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

from restgraph.agents.browser.closed_book_paper import (
    cb_messages,
    extract_answer,
    fill_placeholder,
    is_abstention,
)
from restgraph.agents.browser.paper_prompts import PAPER, PaperPromptError, figure_prompt, paper_path, unwrap
from restgraph.agents.browser.ralm import context_lines, ralm_messages, read_turn
from restgraph.tools.datafiles import sha256_of
from restgraph.tools.search import SearchResult

CB_SYSTEM = """You are a helpful agent that has to provide answers to tasks.
Don't ask the user any questions.
When done, end by generating a new line, followed by the final answer.
The format for the final answer should be The final answer is: ANSWER with ANSWER being the answer to the task.
Keep the answer as concise as possible. The answer should either be: a number, a string, a list of strings, or a list of jsons.
The answer should be parsed with the python method: json.loads(input_str). If no answer is found, generate an empty string.
At each step, generate either: an intermediate thought that can allow to reach the answer (Thought:), or the final answer (The final answer is:)."""

CB_EXAMPLE_USER = "Which member of the famous Beckham couple has the most Instagram followers?"
CB_EXAMPLE_ASSISTANT = """Intermediate question: Who are the members of the famous Beckham couple?
Intermediate answer: The members of the Beckham couple are Victoria Beckham and David Beckham. Intermediate question: How many followers does Victoria Beckham have on Instagram?
Intermediate answer: Victoria Beckham has 32.8M followers on Instagram.
Intermediate question: How many followers does David Beckham have on Instagram?
Intermediate answer: David Beckham has 87.1M followers on Instagram.
So the final answer is: David Beckham"""  # noqa: E501 (the paper's example, one line kept as printed)

TASK = "What is the cheapest monthly membership price among Northgate gyms that offer yoga?"


@pytest.fixture(autouse=True)
def _needs_data(data_dir):
    """The paper text is a pinned data file (skips without the data folder)."""


def test_the_paper_text_is_the_pinned_file() -> None:
    assert sha256_of(paper_path()) == PAPER.sha256


def test_cb_1s_prompt_equals_the_papers_figure_17() -> None:
    messages = cb_messages(TASK, one_shot=True)
    assert [type(m) for m in messages] == [SystemMessage, HumanMessage, AIMessage, HumanMessage]
    assert [m.content for m in messages] == [CB_SYSTEM, CB_EXAMPLE_USER, CB_EXAMPLE_ASSISTANT, TASK]


def test_cb_inst_prompt_is_the_system_prompt_and_the_task() -> None:
    assert [m.content for m in cb_messages(TASK, one_shot=False)] == [CB_SYSTEM, TASK]


def test_ralm_prompt_follows_figure_18() -> None:
    prompt = figure_prompt(18)
    assert prompt.system.startswith(
        "You are a helpful agent that has to provide answers to complex tasks.\nTasks can require accessing the web."
    )
    assert (
        'start your prediction with: "So the final answer is:" followed by the answer to the task.'
        in prompt.system
    )
    assert [role for role, _ in prompt.example] == ["user", "assistant", "user", "assistant"]
    assert prompt.example[0][1] == f"Task: {CB_EXAMPLE_USER}"
    assert prompt.example[2][1].startswith(
        "Context1: Posh and Becks: Posh and Becks is a widely used nickname"
    )
    assert prompt.example[2][1].endswith(
        f"\nTask: {CB_EXAMPLE_USER}\nIntermediate question: Who are the members of the famous Beckham couple?"
    )
    assert "..." not in prompt.example[3][1]  # the paper's elision is not part of the prompt
    contexts = context_lines([SearchResult(title="Gym A", url="u", snippet="Yoga, $72.50")], 1)
    one_shot = ralm_messages(
        TASK, contexts, ["Intermediate question: cheapest yoga gym Northgate"], one_shot=True
    )
    assert len(one_shot) == 6 and one_shot[0].content == prompt.system
    assert (
        one_shot[-1].content
        == f"Context1: Gym A: Yoga, $72.50\nTask: {TASK}\nIntermediate question: cheapest yoga gym Northgate"
    )
    assert ralm_messages(TASK, [], [], one_shot=False)[-1].content == f"Task: {TASK}"


def test_unwrap_keeps_sentence_ends_and_joins_wrapped_lines() -> None:
    assert (
        unwrap(
            [
                "First line ends here.",
                "Second starts",
                "mid-sentence: it goes on.",
                "...",
                "Done?",
                "no capital",
            ]
        )
        == "First line ends here.\nSecond starts mid-sentence: it goes on.\nDone? no capital"
    )


def test_a_paper_without_the_figures_layout_is_refused(monkeypatch) -> None:
    from restgraph.agents.browser import paper_prompts

    figure_prompt.cache_clear()
    paper_prompts.paper_text.cache_clear()
    monkeypatch.setattr(
        paper_prompts, "paper_text", lambda: "Figure 16: x\nSystem prompt: hi\nFigure 17: y\n"
    )
    try:
        with pytest.raises(PaperPromptError, match="labels"):
            figure_prompt(17)
    finally:
        figure_prompt.cache_clear()


@pytest.mark.parametrize(
    ("reply", "answer"),
    [
        ("Thought: hmm\nThe final answer is: 72.5", "72.5"),
        ("Intermediate answer: x\nSo the final answer is: David Beckham\n", "David Beckham"),
        ('So the final answer is: ["a",\n "b"]\nthanks', '["a",\n "b"]'),
        ("The final answer is:\n", ""),
        ('The final answer is: ""', '""'),
        ("The final answer is: 1,010,000", "1,010,000"),  # raw: the scorer's own quirks apply
        ("I think it is 5.", None),
    ],
)
def test_answer_extraction_is_raw(reply: str, answer: str | None) -> None:
    assert extract_answer(reply) == answer


def test_abstentions() -> None:
    assert all(is_abstention(a) for a in (None, "", " ", '""', "[]", "null"))
    assert not any(is_abstention(a) for a in ("0", "x", '["a"]'))


@pytest.mark.parametrize(
    ("reply", "kind", "value"),
    [
        ("Intermediate question: who?\nIntermediate answer: made up", "question", "who?"),
        ("Intermediate answer: yes.\nSo the final answer is: 4", "answer", "4"),
        ("So the final answer is: 4\nIntermediate question: why?", "question", "why?"),
        ("no protocol at all", "unparsed", None),
    ],
)
def test_ralm_turns(reply: str, kind: str, value: str | None) -> None:
    got_kind, got_value, text = read_turn(reply)
    assert got_kind == kind
    if value is not None:
        assert got_value == value
    if kind == "question":
        assert text.endswith(value) and "made up" not in text  # cut after the question


def test_placeholders() -> None:
    assert (
        fill_placeholder(
            "CONTEXT TASK MODEL GENERATIONS", {"CONTEXT": "", "TASK": "Task: t", "MODEL GENERATIONS": "g"}
        )
        == "Task: t\ng"
    )
    assert fill_placeholder("TASK", {"TASK": "do it"}) == "do it"
