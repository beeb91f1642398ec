"""The per-level table and heat map, on the hand-counted fixture (see test_scoring)."""

from __future__ import annotations

import pytest

from restgraph.evals.reports.shortcuts import level_table, load_run, load_scores, write_report
from restgraph.evals.scorers.shortcuts import position_counts
from tests.shortcuts.conftest import FIXTURES


def test_level_table_and_heatmap(run_shortcuts, tmp_path):
    run_shortcuts(
        "replay",
        source=FIXTURES / "tiny_log.jsonl",
        check_intersection=FIXTURES / "tiny_check_intersection.json",
    )
    run_shortcuts(
        source=FIXTURES / "tiny_log.jsonl", check_intersection=FIXTURES / "tiny_check_intersection.json"
    )
    runs = [tmp_path / "run0", tmp_path / "run1"]
    label, counts = load_run(runs[0])
    assert label.startswith("replay")
    assert counts["api_selection_accuracy"] == {"(5,15]": (4, 6), "(0,1]": (1, 1), "Overall": (5, 7)}
    assert counts["static_param_accuracy"]["Overall"] == (2, 3)
    table = level_table([load_run(d) for d in runs])
    # each cell: percent, 95% Wilson interval, right/counted
    assert (
        "| replay (run0) | 100.00 [20.7, 100.0] (1/1) | – | 66.67 [30.0, 90.3] (4/6) | – | 71.43 [35.9, 91.8] (5/7) |"
        in table
    )
    assert (
        "| scripted:shortcuts-gold | 100.00 [20.7, 100.0] (1/1) | – | 100.00 [61.0, 100.0] (6/6) | – | 100.00 [64.6, 100.0] (7/7) |"
        in table
    )
    # tiny0001 (level (5,15]), upstream's top-level positions: ask 1, number 2 (right), math 3 (right),
    # the if-block 4 (its longest branch is 2 long; the actions inside get no position), savetocameraroll 6 (wrong id)
    per = position_counts(load_scores(runs[0])[1])["(5,15]"]
    assert per == {2: (1, 1), 3: (1, 1), 6: (0, 1)}
    paths = write_report(runs, tmp_path / "report")
    assert "API selection by action position" in paths["table"].read_text()
    assert (
        paths["heatmap"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and paths["heatmap"].stat().st_size > 5000
    )
    with pytest.raises(FileNotFoundError):
        load_run(tmp_path / "nothing")
