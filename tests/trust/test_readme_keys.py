"""Every ``summary.json`` key the README names is produced: the benchmark table's metric keys (by
real runs where they run offline, else by scoring traces of the benchmark's shape), the keys of
"Results you can trust and read" (n, n_tasks, errors, cost_usd, episode_stats, metric_stats),
``epochs`` with pass@k / pass^k under ``--epochs``, and ``judge`` under ``--judge``.

The names are parsed from README.md, so a key added to the README is checked without editing this test."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from restgraph.evals.summary import write_summary
from restgraph.evals.trace import TraceStore
from tests.foundation.conftest import cli

README = Path(__file__).resolve().parents[2] / "README.md"
TICKED = re.compile(r"`([^`]+)`")
#: how each benchmark of the table runs offline in a test: a real run (CLI args), or None to score traces of its shape
REAL_RUNS: dict[str, list[str] | None] = {
    "restbench-tmdb": ["--agent", "oracle", "--limit", "2"],
    "restbench-spotify": ["--agent", "oracle", "--limit", "2"],
    "shortcuts": ["--model", "scripted:shortcuts-gold", "--limit", "3"],
    "api-use": ["--model", "scripted:api-use-target", "--limit", "2"],
    "assistantbench-local": None,  # a browser run: covered by scoring traces (tests/assistantbench run the agent)
    "assistantbench": None,  # the real web: never in tests
}


def _text() -> str:
    return " ".join(README.read_text(encoding="utf-8").split())  # one line: README sentences wrap anywhere


def readme_metric_keys() -> dict[str, list[str]]:
    """The benchmark table: ``{benchmark: [metric keys]}`` ("same as TMDB" repeats the row above)."""
    lines = README.read_text(encoding="utf-8").splitlines()
    header = next(
        i for i, line in enumerate(lines) if line.startswith("|") and "(`summary.json` keys)" in line
    )
    rows = []
    for line in lines[header + 2 :]:  # past the header and its |---| line, to the table's end
        if not line.startswith("|"):
            break
        rows.append(line)
    out: dict[str, list[str]] = {}
    previous: list[str] = []
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        if len(cells) < 3:
            continue
        keys = TICKED.findall(cells[-1]) or (previous if cells[-1].startswith("same as") else [])
        for name in TICKED.findall(cells[0]):
            out[name] = keys
        previous = keys
    return out


def readme_summary_keys() -> list[str]:
    """``summary.json` has `n`, `n_tasks`, ... (explanations in parentheses) and `metric_stats` (...).``"""
    text = _text()
    start = text.find("`summary.json` has ")
    assert start >= 0, "README no longer says which keys summary.json has"
    depth, kept = 0, []
    for i, ch in enumerate(text[start + len("`summary.json` has ") :]):
        depth += (ch == "(") - (ch == ")")
        if (
            depth == 0
            and ch == "."
            and text[start + len("`summary.json` has ") + i + 1 : start + len("`summary.json` has ") + i + 2]
            in (" ", "")
        ):
            break  # the end of the sentence, outside any parenthesis
        if depth == 0 and ch != ")":
            kept.append(ch)
    return TICKED.findall("".join(kept))


def readme_gets_keys() -> dict[str, list[str]]:
    """``summary.json` gets `epochs: {k, pass@1..k}``` and ``gets `judge```: key -> its named sub-keys."""
    out = {}
    for body in re.findall(r"`summary\.json` gets `([^`]+)`", _text()):
        key, _, sub = body.partition(":")
        out[key.strip()] = [s.strip() for s in sub.strip().strip("{}").split(",") if s.strip()]
    return out


def _expand(sub: str, k: int) -> list[str]:
    """``pass@1..k`` -> pass@1 ... pass@k."""
    match = re.fullmatch(r"(.*?)1\.\.k", sub)
    return [f"{match.group(1)}{i}" for i in range(1, k + 1)] if match else [sub]


#: metrics measured only with a -B option (ShortcutsBench scores static parameters only against the
#: release file of essential parameters, which the offline sample lacks)
NEEDS_OPTION = {"static_param_accuracy": "check_intersection"}


def _missing_metrics(summary: dict[str, Any], keys: list[str], options: dict[str, Any]) -> list[str]:
    """Named metrics absent from ``metrics``. By design a rate with nothing to measure in the run is
    left out and its ``<key>_n`` count says 0 (ShortcutsBench's ask-for-input on the sample log)."""
    metrics = summary["metrics"]
    unmeasured = {k for k, option in NEEDS_OPTION.items() if not options.get(option)}
    return [k for k in keys if k not in metrics and metrics.get(f"{k}_n") != 0 and k not in unmeasured]


def test_the_readme_names_keys_for_every_benchmark_it_lists() -> None:
    from restgraph.evals.benchmark import benchmark_names

    table = readme_metric_keys()
    assert set(REAL_RUNS) <= set(table) and all(table[name] for name in REAL_RUNS), table
    assert set(table) - {"smoke"} <= set(benchmark_names())
    assert {"n", "n_tasks", "errors", "cost_usd", "episode_stats", "metric_stats"} <= set(
        readme_summary_keys()
    )
    assert {"epochs", "judge"} <= set(readme_gets_keys())


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n, args in REAL_RUNS.items() if args is not None])
def test_a_real_run_produces_the_keys_the_readme_names(name: str, tmp_path: Path, data_dir: Path) -> None:
    out = tmp_path / "run"
    result = cli("run", name, *REAL_RUNS[name], "--out", out, "--quiet")  # type: ignore[misc]
    assert result.exit_code == 0, result
    summary = json.loads((out / "summary.json").read_text())
    options = json.loads((out / "config.json").read_text())["options"].get("bench_options") or {}
    assert not _missing_metrics(summary, readme_metric_keys()[name], options), sorted(summary["metrics"])
    assert not [k for k in readme_summary_keys() if k not in summary]


@pytest.mark.parametrize("name", [n for n, args in REAL_RUNS.items() if args is None])
def test_scored_traces_produce_the_keys_the_readme_names(name: str, tmp_path: Path, data_dir: Path) -> None:
    from tests.trust.test_results import _traces

    store = TraceStore(tmp_path)
    for trace in _traces(name):
        store.append(trace)
    summary = write_summary(tmp_path)
    assert not _missing_metrics(summary, readme_metric_keys()[name], {}), sorted(summary["metrics"])
    assert not [k for k in readme_summary_keys() if k not in summary]


def test_epochs_and_judge_keys_are_produced(tmp_path: Path, data_dir: Path) -> None:
    gets = readme_gets_keys()
    out = tmp_path / "run"
    assert (
        cli(
            "run",
            "smoke",
            "--model",
            "scripted:smoke-oracle",
            "-B",
            "n=3",
            "--epochs",
            "2",
            "--out",
            out,
            "--quiet",
        ).exit_code
        == 0
    )
    summary = json.loads((out / "summary.json").read_text())
    assert not [k for k in readme_summary_keys() if k not in summary]
    wanted = [key for sub in gets["epochs"] for key in _expand(sub, 2)]
    assert wanted and not [k for k in wanted if k not in summary["epochs"]], summary["epochs"]

    tmdb = tmp_path / "tmdb"
    assert (
        cli("run", "restbench-tmdb", "--agent", "oracle", "--limit", "1", "--out", tmdb, "--quiet").exit_code
        == 0
    )
    assert cli("score", tmdb, "--judge", "scripted:constant?text=VERDICT: PASS").exit_code == 0
    judged = json.loads((tmdb / "summary.json").read_text())
    assert "judge" in judged and judged["judge"]["n"] == 1
