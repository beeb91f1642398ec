"""Loader: release files from user paths (a folder or explicit files), logs, bad input, options."""

from __future__ import annotations

import json

import pytest

from restgraph.evals.datasets.shortcuts import (
    RELEASE_CHECK,
    RELEASE_GOLD,
    RELEASE_QUERIES,
    ShortcutsDataError,
    load_catalogue,
    load_log,
    load_source,
)
from tests.shortcuts.conftest import FIXTURES, read_log


@pytest.fixture
def release(tmp_path):
    """A tiny release folder in the authors' formats (§1.2), built from the hand-made fixture log."""
    records = read_log(FIXTURES / "tiny_log.jsonl")
    folder = tmp_path / "release"
    folder.mkdir()
    queries = {
        r["URL"]: {
            "GeneratedQuery": {"shortcut_name": "n", "shortcut_description": "d", "query": r["query"]},
            "RecordName": "n",
        }
        for r in records
    }
    gold = [{"Source": "fixture", "URL": "https://www.icloud.com/shortcuts/null", "shortcut": None}]
    gold.append(
        {"URL": records[0]["URL"], "shortcut": {"WFWorkflowActions": []}}
    )  # a duplicate: the last one wins
    gold += [
        {
            "Source": "fixture",
            "NameINStore": "n",
            "URL": r["URL"],
            "shortcut": {"WFWorkflowActions": r["aseqs"]},
        }
        for r in records
    ]
    gold.append({"URL": records[1]["URL"], "shortcut": None})  # a null shortcut never replaces a record
    gold.append(
        {
            "URL": "https://www.icloud.com/shortcuts/noquery",
            "shortcut": {"WFWorkflowActions": records[1]["aseqs"]},
        }
    )
    (folder / RELEASE_QUERIES).write_text(json.dumps(queries))
    (folder / RELEASE_GOLD).write_text(json.dumps(gold))
    (folder / RELEASE_CHECK).write_text((FIXTURES / "tiny_check_intersection.json").read_text())
    return folder


def test_release_folder_and_explicit_files(release, data_dir):  # categories come from the catalogue
    records = load_source({"source": str(release)})
    assert [r.url[-8:] for r in records] == ["tiny0001", "tiny0002"]
    assert len(records[0].aseqs) == 11 and records[0].source == "release" and records[0].bseqs is None
    assert records[0].essential == {"2": ["WFNumberActionNumber"], "3": ["WFMathOperation", "WFMathOperand"]}
    later = json.loads((release / RELEASE_GOLD).read_text()) + [
        {"URL": records[1].url, "shortcut": {"WFWorkflowActions": records[0].aseqs}}
    ]
    (release / "later.json").write_text(json.dumps(later))
    reloaded = load_source({"queries": str(release / RELEASE_QUERIES), "gold": str(release / "later.json")})
    assert (
        reloaded[1].aseqs == records[0].aseqs
    )  # upstream builds {URL: record} in file order: the last record stays
    explicit = load_source({"queries": str(release / RELEASE_QUERIES), "gold": str(release / RELEASE_GOLD)})
    assert [r.url for r in explicit] == [r.url for r in records] and explicit[0].essential is None


def test_gold_run_on_release_files_scores_one(release, run_shortcuts):
    summary, traces = run_shortcuts(source=release)
    assert (
        summary["metrics"]["api_selection_accuracy"] == 1.0
        and summary["metrics"]["static_param_accuracy"] == 1.0
    )
    assert summary["metrics"]["ask_input_accuracy"] == 1.0 and summary["n"] == 2
    with pytest.raises(ValueError, match="experiment log"):  # replay needs logged predictions
        from restgraph.graphs.shortcuts import build_replay

        build_replay(None, None, {}).invoke({"instruction": "q", "gold": {}, "position": 0})


def test_bad_input_is_a_clear_error(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"URL": "u", "query": "q", "aseqs": []}\n{"URL": "u2"}\n')
    with pytest.raises(ShortcutsDataError, match="bad.jsonl:2"):
        load_log(bad)
    with pytest.raises(ShortcutsDataError, match="does not exist"):
        load_source({"source": str(tmp_path / "missing.jsonl")})


def test_catalogue(data_dir):
    catalogue = load_catalogue()
    assert len(catalogue.api2info) == 1414 and len(catalogue.categories) == 5205
    assert catalogue.returns["is.workflow.actions.number"] == "Number"


def test_fix_attachment_numbering_reaches_the_prompt(run_shortcuts):
    _, faithful = run_shortcuts(model="scripted:garbage", source=FIXTURES / "tiny_log.jsonl")
    _, fixed = run_shortcuts(
        model="scripted:garbage", source=FIXTURES / "tiny_log.jsonl", fix_attachment_numbering=1
    )

    def last_prompt(traces):
        trace = next(t for t in traces if t.task_id.endswith("tiny0001"))
        return list(trace.model_calls())[-1].messages[1]["content"]

    assert "Result ${Value1} of ${Value1}" in last_prompt(faithful)
    assert "Result ${Value1} of ${Value2}" in last_prompt(fixed)
