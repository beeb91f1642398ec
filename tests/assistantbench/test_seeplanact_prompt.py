"""SPA's and SeeAct's prompts equal what upstream's own code builds for the same page state.

How the references are obtained: no recording of SeePlanAct's prompts exists in the shared data
(``assistantbench/`` has no ``upstream_vectors/``), so the reference is computed by upstream's
own prompt code. The test takes, from the pinned upstream files (the same sha256-checked copies
the agent reads), the function definitions ``generate_prompt`` and the module-level prompt
constants of ``prompts.py`` and ``generate_new_query_prompt``, ``generate_new_referring_prompt``,
``format_options``, ``generate_option_name`` of ``format_prompt_utils.py``, compiles them with
``ast`` and runs them in an isolated namespace (their module imports, lxml / bs4 / dom_utils, are
not used by these functions and are left out). That code is only ever run here, in the test, as
the oracle: the package reads the texts and re-implements the logic.

Page states: the first step (no plan yet), a later step with original plan, history and refined
plan, an empty page (no choices) and one with more than 26 choices (two-letter options), with
the choices formatted as upstream's ``format_choices`` does for real fixture elements.
"""

from __future__ import annotations

import ast
import os
import string
from typing import Any

import pytest

from restgraph.agents.browser.seeplanact_prompt import build_prompt, option_index, option_name
from restgraph.agents.browser.seeplanact_source import FORMAT_FILE, PROMPTS_FILE, load_texts
from restgraph.tools.datafiles import resolve

pytestmark = pytest.mark.skipif(
    not os.environ.get("RESTGRAPH_DATA_DIR"),
    reason="needs RESTGRAPH_DATA_DIR with assistantbench/upstream/SeePlanAct",
)

TASK = "What is the cheapest monthly membership price among FitFinder gyms in Northgate that offer yoga?"
CHOICES = [
    ["0", '<a id="0">FitFinder home</a>'],
    ["1", '<a id="1">All sites</a>'],
    [
        "3",
        '<select id="3">parent_node: Neighborhood Selected Options: Any - Options: Any | Eastside | Northgate | Old Town | Westbank</select>',
    ],
    [
        "4",
        '<select id="4">parent_node: Activity Selected Options: Any - Options: Any | Boxing | CrossFit | Pilates | Spin | Yoga</select>',
    ],
    ["2", '<button type="submit" id="2">Find gyms</button>'],
]
MANY = [[str(i), f'<a id="{i}">Result {i}</a>'] for i in range(31)]
PREVIOUS = ["[select] parent_node: Neighborhood Selected Options: Any -> SELECT: Northgate", "No Operation"]


def upstream_namespace() -> dict[str, Any]:
    """Upstream's prompt functions, compiled from the pinned files (test oracle only)."""
    namespace: dict[str, Any] = {"string": string}
    wanted = {
        "generate_new_query_prompt",
        "generate_new_referring_prompt",
        "format_options",
        "generate_option_name",
    }
    tree = ast.parse(resolve(FORMAT_FILE).read_text(encoding="utf-8"))
    functions = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in wanted]
    exec(compile(ast.Module(body=functions, type_ignores=[]), "format_prompt_utils.py", "exec"), namespace)  # noqa: S102
    tree = ast.parse(resolve(PROMPTS_FILE).read_text(encoding="utf-8"))
    body = [n for n in tree.body if not isinstance(n, ast.Import | ast.ImportFrom)]
    exec(compile(ast.Module(body=body, type_ignores=[]), "prompts.py", "exec"), namespace)  # noqa: S102
    return namespace


@pytest.fixture(scope="module")
def upstream() -> dict[str, Any]:
    return upstream_namespace()


STATES = {
    "first_step": {
        "previous": [],
        "choices": CHOICES,
        "original_plan": None,
        "history": "",
        "refined_plan": None,
    },
    "second_step": {
        "previous": PREVIOUS[:1],
        "choices": CHOICES,
        "original_plan": "1. Open FitFinder\n2. Filter Northgate and Yoga",
        "history": "Step 1. no new infromation",
        "refined_plan": None,
    },
    "later_step": {
        "previous": PREVIOUS,
        "choices": CHOICES,
        "original_plan": "1. Open FitFinder",
        "history": "Step 1. x\nStep 2. Northgate gyms: Lotus Yoga $72.50",
        "refined_plan": "1. Read prices. Task answer: 72.5",
    },
    "no_choices": {
        "previous": PREVIOUS,
        "choices": [],
        "original_plan": "1. a",
        "history": "Step 1. b",
        "refined_plan": "2. c",
    },
    "many_choices": {
        "previous": [],
        "choices": MANY,
        "original_plan": None,
        "history": "",
        "refined_plan": None,
    },
}


@pytest.mark.parametrize("state", STATES)
def test_spa_prompts_equal_upstream(upstream: dict[str, Any], state: str) -> None:
    s = STATES[state]
    expected = upstream["generate_prompt"](
        experiment_split="SeeAct",
        task=TASK,
        previous=s["previous"],
        choices=s["choices"],
        original_plan=s["original_plan"],
        history=s["history"],
        refined_plan=s["refined_plan"],
    )
    ours = build_prompt(
        load_texts(),
        planning=True,
        task=TASK,
        previous=s["previous"],
        choices=s["choices"],
        original_plan=s["original_plan"],
        history=s["history"],
        refined_plan=s["refined_plan"],
    )
    assert ours == expected


@pytest.mark.parametrize("state", ["first_step", "many_choices"])
def test_seeact_prompts_equal_upstream_seeact_texts(upstream: dict[str, Any], state: str) -> None:
    """SeeAct without the answer instruction: SeeAct's online prompts through upstream's builders."""
    s, d = STATES[state], upstream["seeact_choice_prompt_dict"]
    expected = upstream["generate_new_query_prompt"](
        system_prompt=upstream["seeact_online_sys_prompt"],
        task=TASK,
        previous_actions=s["previous"],
        question_description=upstream["seeact_online_question_description_new_exp4"],
    )
    expected.append(
        upstream["generate_new_referring_prompt"](
            referring_description=d["referring_description"],
            element_format=d["element_format"],
            action_format=d["action_format"],
            value_format=d["value_format"],
            choices=s["choices"],
        )
    )
    assert (
        build_prompt(load_texts(), planning=False, task=TASK, previous=s["previous"], choices=s["choices"])
        == expected
    )


def test_seeact_answer_instruction_is_spas_sentence() -> None:
    texts = load_texts()
    with_instruction = build_prompt(
        texts, planning=False, task=TASK, previous=[], choices=CHOICES, with_answer_instruction=True
    )[1]
    assert with_instruction.endswith("If no answer is found, generate an empty string.")
    assert (
        '"Task answer:"' in with_instruction
        and '"Task answer:"' in texts.spa_question
        and '"Task answer:"' not in texts.seeact_question
    )


def test_option_names_match_upstream(upstream: dict[str, Any]) -> None:
    for i in range(0, 26 * 27, 7):
        assert option_name(i) == upstream["generate_option_name"](i)
        assert option_index(option_name(i)) == i
    assert option_index("Invalid") == -1 and option_index("a") == -1
