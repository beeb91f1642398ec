"""tools/shortcuts: cleaning, ignore-list rewrites, lengths, candidate sampling, plans, parsing.

Expected values are written out by hand from the spec (§2.2-§2.5, §4), not produced by the code.
"""

from __future__ import annotations

import json

import pytest

from restgraph.tools.shortcuts.candidates import (
    candidate_lines,
    candidate_table,
    gold_api_set,
    n_extra,
    sample_candidates,
)
from restgraph.tools.shortcuts.cleaning import (
    CleaningError,
    clean_action,
    output_names,
    return_names,
    rewrite_ignored,
    truncate_strings,
)
from restgraph.tools.shortcuts.episode import build_plan
from restgraph.tools.shortcuts.length import shortcut_length, top_level_positions
from restgraph.tools.shortcuts.output import bstep_from_reply, is_context_error
from restgraph.tools.shortcuts.protocol import level_of

P = "is.workflow.actions."


def act(ident: str, **params):
    return {"WFWorkflowActionIdentifier": P + ident, "WFWorkflowActionParameters": params}


# -- cleaning ------------------------------------------------------------------------------------
RAW = act(
    "notification",
    UUID="U1",
    ShowWhenRun=False,
    OpenWhenRun=True,
    AppIntentDescriptor={"x": 1},
    WFInput={
        "Value": {
            "OutputUUID": "N1",
            "Type": "ActionOutput",
            "OutputName": "Number",
            "Aggrandizements": [
                {"Type": "WFCoercionVariableAggrandizement", "CoercionItemClass": "WFNumberContentItem"}
            ],
        },
        "WFSerializationType": "WFTextTokenAttachment",
    },
    Title={
        "Value": {
            "string": "a\ufffcb\ufffcc",
            "attachmentsByRange": {
                "{3, 1}": {"Type": "Clipboard"},
                "{1, 1}": {
                    "OutputUUID": "N1",
                    "Type": "ActionOutput",
                    "Aggrandizements": [
                        {"Type": "WFDictionaryValueVariableAggrandizement", "DictionaryKey": "k"},
                        {"Type": "WFUnitVariableAggrandizement"},
                    ],
                },
            },
        },
        "WFSerializationType": "WFTextTokenString",
    },
)


def test_cleaning_follows_the_spec_steps_with_upstream_numbering_bug():
    cleaned = clean_action(RAW, {P + "notification": "Notification Result"})
    params = cleaned["WFWorkflowActionParameters"]
    assert "ShowWhenRun" not in params and "OpenWhenRun" not in params and "AppIntentDescriptor" not in params
    assert params["WFInput"] == {
        "Value": {"OutputUUID": "N1", "Type": "ActionOutput", "OutputName": "Number"}
    }  # coercion dropped, empty list deleted
    title = params["Title"]["Value"]
    assert title["string"] == "a${Value1}b${Value1}c"  # every placeholder is ${Value1} upstream
    assert title["attachmentsByRange"] == {
        "Value1": {
            "OutputUUID": "N1",
            "Type": "ActionOutput",
            "Aggrandizements": [{"Type": "WFDictionaryValueVariableAggrandizement", "DictionaryKey": "k"}],
        },
        "Value2": {"Type": "Clipboard"},
    }
    assert params["OutputName"] == "Notification Result" and "CustomOutputName" not in params
    assert "WFSerializationType" not in json.dumps(cleaned)
    assert RAW["WFWorkflowActionParameters"]["ShowWhenRun"] is False  # the gold itself is untouched


def test_attachment_numbering_fix_and_custom_output_name():
    cleaned = clean_action(RAW, {}, fix_attachment_numbering=True)
    assert cleaned["WFWorkflowActionParameters"]["Title"]["Value"]["string"] == "a${Value1}b${Value2}c"
    assert "OutputName" not in cleaned["WFWorkflowActionParameters"]  # no return name known, none custom
    custom = clean_action(
        act("number", UUID="X", CustomOutputName="Mine", WFNumberActionNumber=1), {P + "number": "Number"}
    )
    assert custom["WFWorkflowActionParameters"] == {
        "UUID": "X",
        "WFNumberActionNumber": 1,
        "OutputName": "Mine",
    }
    no_uuid = clean_action(act("number", WFNumberActionNumber=1), {P + "number": "Number"})
    assert no_uuid["WFWorkflowActionParameters"] == {"WFNumberActionNumber": 1}


def test_ignore_list_rewrites():
    assert rewrite_ignored(act("conditional", WFControlFlowMode=0, WFCondition=4))[
        "WFWorkflowActionParameters"
    ] == {"WFControlFlowMode": "If Begin", "WFCondition": '"is"'}
    assert rewrite_ignored(act("conditional", WFControlFlowMode=2, WFCondition=101))[
        "WFWorkflowActionParameters"
    ] == {"WFControlFlowMode": "End If", "WFCondition": '"do not have any value"'}
    assert (
        rewrite_ignored(act("conditional", WFControlFlowMode=1, WFCondition="Contains"))[
            "WFWorkflowActionParameters"
        ]["WFCondition"]
        == '"contains"'
    )
    assert (
        rewrite_ignored(act("conditional", WFControlFlowMode=0, WFCondition=77))[
            "WFWorkflowActionParameters"
        ]["WFCondition"]
        == "77"
    )
    assert (
        rewrite_ignored(act("choosefrommenu", WFControlFlowMode=1))["WFWorkflowActionParameters"][
            "WFControlFlowMode"
        ]
        == "Case"
    )
    with pytest.raises(CleaningError):
        rewrite_ignored(act("choosefrommenu", WFControlFlowMode=5))
    assert (
        rewrite_ignored(act("repeat.count", WFControlFlowMode=0))["WFWorkflowActionParameters"][
            "WFControlFlowMode"
        ]
        == 0
    )


def test_cleaning_details_as_upstream():
    # default output names are stripped ("List " -> "List"), and an API without one is still known
    returns = return_names(
        {P + "list": {"WFItem": "String", "ThisIsReturnValue:List ": "List"}, P + "exit": {"WFResult": "Any"}}
    )
    assert returns == {P + "list": "List", P + "exit": ""}
    listed = clean_action(act("list", UUID="L"), returns)
    assert listed["WFWorkflowActionParameters"] == {"UUID": "L", "OutputName": "List"}
    # the name comes from the shortcut-wide UUID map (custom name, else default; a later action with the
    # same UUID overwrites), and only an action without a custom name takes it
    shortcut = [act("list", UUID="L", CustomOutputName="Mine"), act("list", UUID="L")]
    names = output_names(shortcut, returns)
    assert names == {"L": "List"} and output_names(shortcut[:1], returns) == {"L": "Mine"}
    assert [
        clean_action(a, returns, names=names)["WFWorkflowActionParameters"]["OutputName"] for a in shortcut
    ] == ["Mine", "List"]
    assert (
        clean_action(shortcut[1], returns, names={"L": "Mine"})["WFWorkflowActionParameters"]["OutputName"]
        == "Mine"
    )
    assert output_names(
        [
            act(
                "setvariable",
                WFVariableName="v",
                WFInput={
                    "Value": {"OutputUUID": "U", "Type": "ActionOutput"},
                    "WFSerializationType": "WFTextTokenAttachment",
                },
            )
        ],
        {P + "setvariable": ""},
    ) == {"v": "U"}
    assert (
        output_names([act("unknown.api", UUID="Z", CustomOutputName="n")], returns) == {}
    )  # not a catalogued API
    # the history entry is rebuilt from the identifier and the parameters only
    assert set(clean_action({**act("list", UUID="L"), "Extra": 1}, returns)) == {
        "WFWorkflowActionIdentifier",
        "WFWorkflowActionParameters",
    }
    # condition codes are looked up as str(code): string codes map to phrases as well
    for code, phrase in (
        (4, '"is"'),
        ("4", '"is"'),
        ("101", '"do not have any value"'),
        ("Equals", '"equals"'),
        (77, "77"),
        ("zz", "zz"),
    ):
        assert (
            rewrite_ignored(act("conditional", WFControlFlowMode=0, WFCondition=code))[
                "WFWorkflowActionParameters"
            ]["WFCondition"]
            == phrase
        )
    with pytest.raises(CleaningError):  # upstream raises on an if-marker mode other than 0/1/2 as on a menu's
        rewrite_ignored(act("conditional", WFControlFlowMode=3))


def test_truncation_cuts_strings_to_300_plus_dots():
    out = truncate_strings({"a": "x" * 301, "b": ["y" * 300], "c": 5})
    assert out == {"a": "x" * 300 + "...", "b": ["y" * 300], "c": 5}


# -- lengths and levels ----------------------------------------------------------------------------
def block(ident, group, mode):
    return act(ident, GroupingIdentifier=group, WFControlFlowMode=mode)


def test_length_is_the_longest_branch():
    actions = [
        act("comment"),
        act("gettext"),  # 1 (ignore-list actions count)
        block("conditional", "g", 0),
        act("url"),  # branch 1: 1
        block("conditional", "g", 1),
        act("url"),
        act("alert"),  # 0
        block("repeat.count", "r", 0),
        act("url"),
        act("url"),  # loop body 2, counted once
        block("repeat.count", "r", 2),  # branch 2: 1 + 2 = 3
        block("conditional", "g", 2),
        act("exit"),  # 1
    ]
    assert shortcut_length(actions) == 1 + 3 + 1


def test_malformed_blocks():
    assert shortcut_length([block("conditional", "z", 2), act("url")]) == 1  # stray end skipped
    assert (
        shortcut_length([block("conditional", "lonely", 0), act("url"), act("url")]) == 2
    )  # no partner: skipped
    assert (
        shortcut_length(
            [
                block("choosefrommenu", "m", 0),
                block("choosefrommenu", "m", 1),
                act("url"),
                act("url"),
                block("choosefrommenu", "m", 1),
                act("url"),
                block("choosefrommenu", "m", 2),
            ]
        )
        == 2
    )
    # a stray middle marker opens a block, as upstream counts it (any mode but 2 starts one)
    stray_middle = [
        act("url"),
        block("conditional", "s", 1),
        act("url"),
        act("url"),
        act("url"),
        block("conditional", "s", 2),
        act("url"),
    ]
    assert shortcut_length(stray_middle) == 1 + 3 + 1
    # partners are found by GroupingIdentifier alone, whatever the action (upstream's rule)
    assert (
        shortcut_length(
            [
                block("repeat.each", "q", 0),
                act("url"),
                act("url"),
                act("url", GroupingIdentifier="q", WFControlFlowMode=2),
                act("url"),
            ]
        )
        == 2 + 1
    )


def test_positions_are_top_level_longest_branch_positions():
    """cal_shortcut_len.label_each_WFWorkflowAction_pos_inplace: plain top-level actions get the
    running length, a block opener the length before it plus one, nested actions nothing."""
    actions = [
        act("comment"),  # no position (counts 0)
        act("url"),  # 1
        block("conditional", "g", 0),  # 2 (the block: longest branch 2)
        act("url"),
        act("url"),
        block("conditional", "g", 1),
        act("url"),
        block("conditional", "g", 2),
        act("openurl"),  # 4
        block("conditional", "z", 2),  # stray end: nothing
        act("exit"),  # 5
    ]
    assert top_level_positions(actions) == {1: 1, 2: 2, 8: 4, 10: 5}
    assert shortcut_length(actions) == 5


@pytest.mark.parametrize(
    ("length", "level"),
    [
        (0, "(0,1]"),
        (1, "(0,1]"),
        (2, "(1,5]"),
        (5, "(1,5]"),
        (6, "(5,15]"),
        (15, "(5,15]"),
        (16, "(15,30]"),
        (30, "(15,30]"),
        (31, "(30,inf)"),
    ],
)
def test_levels(length, level):
    assert level_of(length) == level


# -- candidates ------------------------------------------------------------------------------------
ALL = [f"api.{i:04d}" for i in range(200)]


def test_extra_count_formula():
    assert [n_extra(2, m) for m in (3, 4, 5)] == [6, 8, 10]
    assert n_extra(5, 5) == 15 and n_extra(18, 3) == 2 and n_extra(20, 3) == 0 and n_extra(25, 5) == 0


def test_candidates_seeded_sorted_and_gold_first():
    gold = ["api.0150", "api.0003"]
    a = sample_candidates(gold, ALL, run_seed=1, url="u")
    assert a[:2] == ["api.0003", "api.0150"] and len(a) in (8, 10, 12) and len(set(a)) == len(a)
    assert a == sample_candidates(
        list(reversed(gold)), reversed(ALL), run_seed=1, url="u"
    )  # order-independent
    draws = {tuple(sample_candidates(gold, ALL, run_seed=s, url="u")) for s in range(6)}
    assert len(draws) > 1
    assert sample_candidates(gold, ALL, run_seed=1, url="other") != a
    big = [f"api.{i:04d}" for i in range(21)]
    assert sample_candidates(big, ALL, run_seed=0, url="u") == big  # k >= 20: no extras


def test_gold_set_and_table():
    actions = [
        act("comment"),
        act("url"),
        act("url"),
        act("gettext"),
        {"WFWorkflowActionIdentifier": "com.x.Y"},
    ]
    assert gold_api_set(actions) == ["com.x.Y", P + "url"]
    table = candidate_table(["b", "a", "zz"], {"a": "A text", "b": "B text"})
    assert list(table) == ["a", "b", "zz"] and table["zz"] == "No description available."
    assert candidate_lines(table).splitlines()[0] == "1. a. A text"


# -- teacher-forced plan ---------------------------------------------------------------------------
def test_plan_history_is_the_cleaned_gold_prefix():
    actions = [
        act("comment"),
        act("number", UUID="N", WFNumberActionNumber=2),
        block("conditional", "g", 0),
        act("url", WFURLActionURL="x" * 400),
        act("alert"),
        act("exit"),
    ]
    plan = build_plan(actions, {P + "number": "Number"})
    kinds = [(a.position, a.kind) for a in plan.actions]
    assert kinds == [(0, "filter"), (1, "scored"), (2, "ignore"), (3, "scored"), (4, "filter"), (5, "scored")]
    scored = plan.scored
    assert scored[0].history == ()
    assert [h["WFWorkflowActionIdentifier"] for h in scored[2].history] == [
        P + "number",
        P + "conditional",
        P + "url",
    ]
    assert scored[2].history[0]["WFWorkflowActionParameters"]["OutputName"] == "Number"
    assert scored[2].history[1]["WFWorkflowActionParameters"]["WFControlFlowMode"] == "If Begin"
    assert scored[2].history[2]["WFWorkflowActionParameters"]["WFURLActionURL"] == "x" * 300 + "..."


# -- parsing ---------------------------------------------------------------------------------------
def test_reply_parser_is_upstreams():
    assert bstep_from_reply('Sure! {"a": {"b": 1}} done').aseq == {"a": {"b": 1}}
    assert bstep_from_reply("[1, 2]").aseq == [1, 2]  # any JSON value is accepted
    assert bstep_from_reply("42").aseq == 42
    bad = bstep_from_reply('{"a": 1} and {"b": 2}')  # greedy span fails, whole text fails
    assert bad.state == "json_error" and bad.aseq == '{"a": 1} and {"b": 2}'
    assert bstep_from_reply("}}{{ garbage").state == "json_error"
    assert is_context_error("Error code: 400 - This model's maximum context length is 8192 tokens")
    assert not is_context_error("rate limited")
