"""Differential tests of the default (upstream) prompts against ShortcutsBench's original script.

``upstream_vectors/prompts_dev.jsonl`` holds the requests the original ``all_experiments.py``
built for the first query of the Mixtral log, recorded by running it unmodified. Driving
``shortcuts-next-action`` over that query must reproduce every request byte for byte, and for
every query and action position of the log the messages must equal a reference built here from
the upstream template file and the assembly the spec describes (§2.2-§2.4), written out again.
"""

from __future__ import annotations

import ast
import asyncio
import copy
import json
import re

import pytest

from restgraph.agents.shortcuts.request import describe_request
from restgraph.evals.datasets.shortcuts import load_catalogue
from restgraph.graphs.shortcuts import build_next_action
from restgraph.tools.shortcuts.candidates import candidate_table
from restgraph.tools.shortcuts.episode import build_plan
from tests.fake_openai import recording_openai
from tests.shortcuts.conftest import read_log

P = "is.workflow.actions."
FILTER = {P + "comment", P + "alert"}
IGNORE = {
    P + n
    for n in (
        "conditional",
        "choosefrommenu",
        "repeat.each",
        "repeat.count",
        "getvariable",
        "setvariable",
        "appendvariable",
        "runworkflow",
        "gettext",
        "ask",
    )
}
PHRASES = {
    "0": "less/earlier than",
    "1": "less than or equal",
    "2": "greater/later than",
    "3": "greater than or equal",
    "4": "is",
    "5": "is not",
    "8": "begin with",
    "9": "end with",
    "99": "contain",
    "100": "have value",
    "101": "do not have any value",
    "999": "do not contain",
    "1000": "is after",
    "1001": "is the most recent",
    "1002": "is today",
    "1003": "is between",
    "Contains": "contains",
    "Equals": "equals",
    "Is Less Than": "is less than",
    "Is Greater Than": "is greater than",
}
MODES = {
    P + "conditional": ("If Begin", "Else", "End If"),
    P + "choosefrommenu": ("Case Begin", "Case", "End Case"),
}
FIRST_QUERY = "e6fe98154bec4042ad04955ed06c8270"


@pytest.fixture(scope="module")
def upstream(data_dir):
    root = data_dir / "shortcutsbench"
    log = read_log(root / "experiment_res_open-mixtral-8x7b.jsonl")
    vectors = read_log(root / "upstream_vectors" / "prompts_dev.jsonl")
    module = ast.parse(
        (root / "upstream" / "experiments" / "all_experiments_prompt.py").read_text(encoding="utf-8")
    )
    templates = {n.targets[0].id: n.value.value for n in module.body if isinstance(n, ast.Assign)}
    paratypes = json.loads((root / "all_api2paraname2paratype.json").read_text())
    return log, vectors, templates, paratypes


# -- the reference: spec §2.2-§2.4 written out again -------------------------------------------------
def _walk(obj, fn):
    obj = fn(obj)
    if isinstance(obj, dict):
        return {k: _walk(v, fn) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_walk(v, fn) for v in obj]
    return obj


def _clean_dict(d):
    if not isinstance(d, dict):
        return d
    d = {k: v for k, v in d.items() if k != "WFSerializationType"}
    if isinstance(d.get("Aggrandizements"), list):
        kept = [
            a
            for a in d["Aggrandizements"]
            if not (
                isinstance(a, dict)
                and a.get("Type")
                in (
                    "WFCoercionVariableAggrandizement",
                    "WFDateFormatVariableAggrandizement",
                    "WFUnitVariableAggrandizement",
                )
            )
        ]
        d = {k: v for k, v in d.items() if k != "Aggrandizements" or kept}
        if kept:
            d["Aggrandizements"] = kept
    if "string" in d and "attachmentsByRange" in d:
        ordered = sorted(
            d["attachmentsByRange"].items(), key=lambda kv: int(re.search(r"\{(\d+),", kv[0]).group(1))
        )
        d["string"] = d["string"].replace("\ufffc", "${Value1}")  # upstream's numbering bug
        d["attachmentsByRange"] = {f"Value{i}": v for i, (_, v) in enumerate(ordered, start=1)}
    return d


def _truncate(obj):
    return _walk(obj, lambda v: v[:300] + "..." if isinstance(v, str) and len(v) > 300 else v)


def reference_histories(aseqs, paratypes):
    """[(raw position, history shown)] for every scored action, per the spec."""
    names = {}
    for a in aseqs:
        ident, params = a["WFWorkflowActionIdentifier"], a["WFWorkflowActionParameters"]
        if ident in paratypes and "UUID" in params:
            default = next(
                (k.split(":", 1)[1].strip() for k in paratypes[ident] if k.startswith("ThisIsReturnValue:")),
                None,
            )
            if params.get("CustomOutputName") or default:
                names[params["UUID"]] = params.get("CustomOutputName") or default
    history, out = [], []
    for pos, a in enumerate(aseqs):
        ident = a["WFWorkflowActionIdentifier"]
        params = {
            k: v
            for k, v in copy.deepcopy(a["WFWorkflowActionParameters"]).items()
            if k not in ("ShowWhenRun", "OpenWhenRun", "AppIntentDescriptor")
        }
        params = _walk(params, _clean_dict)
        if params.get("UUID") in names and "CustomOutputName" not in params:
            params["CustomOutputName"] = names[params["UUID"]]
        if "CustomOutputName" in params:
            params["OutputName"] = params.pop("CustomOutputName")
        if ident in FILTER:
            continue
        if ident in MODES:
            params["WFControlFlowMode"] = MODES[ident][params["WFControlFlowMode"]]
        if ident == P + "conditional" and "WFCondition" in params:
            code = str(params["WFCondition"])
            params["WFCondition"] = f'"{PHRASES[code]}"' if code in PHRASES else code
        if ident not in IGNORE:
            out.append((pos, _truncate(copy.deepcopy(history))))
        history.append({"WFWorkflowActionIdentifier": ident, "WFWorkflowActionParameters": params})
    return out


def reference_messages(templates, record, history):
    table = dict(sorted(record["api_descs"].items()))
    listing = "\n".join(f"{i + 1}. {api}. {text}" for i, (api, text) in enumerate(table.items()))
    system = templates["SYSTEM_PROMPT_TEMPLATE"].format(all_api_descs=listing, all_api_names=list(table))
    user = templates["USER_PROMPT_TEMPLATE"].format(
        query=record["query"], history_actions=json.dumps(history, indent=2)
    )
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


# -- the tests -----------------------------------------------------------------------------------
def _drive(record, model):
    """shortcuts-next-action over one logged query with its logged candidates, one call per scored action."""
    catalogue = load_catalogue()
    graph = build_next_action(model, None, {"prompts": "upstream", "structured": 0, "request": "upstream"})
    table = candidate_table(record["api_names"], catalogue.api2info)
    plan = build_plan(record["aseqs"], catalogue.returns).scored

    async def run():
        return [
            await graph.ainvoke(
                {
                    "instruction": record["query"],
                    "candidates": table,
                    "history": list(p.history),
                    "position": p.position,
                }
            )
            for p in plan
        ]

    return plan, asyncio.run(run())


def test_first_query_reproduces_the_recorded_requests_byte_for_byte(upstream):
    log, vectors, _, _ = upstream
    record = next(r for r in log if r["URL"].endswith(FIRST_QUERY))
    model, requests = recording_openai(["not json at all"], seed=7)  # the harness's seed must not be sent
    plan, results = _drive(record, model)
    assert [p.position for p in plan] == [v["action_index"] for v in vectors]
    for body, vector in zip(requests, vectors, strict=True):
        assert [(m["role"], m["content"].encode()) for m in body["messages"]] == [
            (m["role"], m["content"].encode()) for m in vector["messages"]
        ]  # byte for byte
        sent = {k: v for k, v in body.items() if k not in ("messages", "stream")}
        assert sent == vector["params"] and body.get("stream") in (
            None,
            False,
        )  # model only: no temperature, seed, schema
    assert describe_request({"structured": 0}, "openai:gpt-3.5-turbo", {})["params"] == vectors[0]["params"]
    assert all(
        r["prediction"]["state"] == "json_error" and r["prediction"]["aseq"] == "not json at all"
        for r in results
    )


def test_every_query_and_position_follows_upstreams_assembly(upstream, run_shortcuts, data_dir):
    log, _, templates, paratypes = upstream
    _, traces = run_shortcuts(
        model="scripted:garbage",
        source=data_dir / "shortcutsbench" / "experiment_res_open-mixtral-8x7b.jsonl",
        candidates="logged",
    )
    by_url = {r["URL"]: r for r in log}
    checked = 0
    for trace in traces:
        record = by_url[trace.task.gold["url"]]
        calls = list(trace.model_calls())
        expected = reference_histories(record["aseqs"], paratypes)
        assert len(calls) == len(expected) == sum(b["state"] != "copy_from_true" for b in record["bseqs"])
        for call, (_, history) in zip(calls, expected, strict=True):
            want = reference_messages(templates, record, history)
            assert [m["content"] for m in call.messages] == [m["content"] for m in want]
            checked += 1
    assert checked == 56


def test_structured_is_an_option_and_sends_a_schema(upstream):
    log, _, _, _ = upstream
    record = next(r for r in log if r["URL"].endswith(FIRST_QUERY))
    reply = json.dumps(
        {"Thought": "t", "WFWorkflowActionIdentifier": P + "number", "WFWorkflowActionParameters": {}}
    )
    model, requests = recording_openai(
        [reply], model="gpt-4o-mini"
    )  # a model with OpenAI's json_schema response_format
    graph = build_next_action(model, None, {"structured": 1})
    result = asyncio.run(
        graph.ainvoke(
            {"instruction": record["query"], "candidates": {P + "number": "n"}, "history": [], "position": 0}
        )
    )
    assert result["prediction"] == {"state": "generated_by_agent", "aseq": json.loads(reply)}
    schema = requests[0]["response_format"]
    assert (
        schema["type"] == "json_schema"
        and "WFWorkflowActionIdentifier" in json.dumps(schema)
        and "WFWorkflowActionParameters" in json.dumps(schema)
    )
    default_model, default_requests = recording_openai([reply])
    asyncio.run(
        build_next_action(default_model, None, {}).ainvoke(
            {"instruction": "q", "candidates": {P + "number": "n"}, "history": [], "position": 0}
        )
    )
    assert (
        "response_format" not in default_requests[0] and "tools" not in default_requests[0]
    )  # free-form by default
    assert describe_request({"structured": 1}, "openai:gpt-4o-mini", {})["response_format"]
