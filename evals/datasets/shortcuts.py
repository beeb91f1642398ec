"""ShortcutsBench data: the API catalogue, categories, and the queries with their gold shortcuts.

Two kinds of source (``restgraph run shortcuts --source PATH``):
- the authors' full release, distributed outside git (spec §1.2): a folder holding
  ``generated_success_queries.json``, ``1_final_detailed_records_filter_apis_leq_30.json`` and,
  for the static-parameter metric, the check_intersection file; or each file given explicitly
  (``-B queries=... -B gold=... -B check_intersection=...``). Never bundled.
- an experiment log ``experiment_res_<model>.jsonl`` (§1.3): its queries, raw gold ``aseqs``,
  logged candidate list and predictions. Without ``--source`` the pinned sample log is used.

The catalogue and categories come from ``$RESTGRAPH_DATA_DIR/shortcutsbench/`` or are downloaded
from the pinned upstream commit and checked against their sha256.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from restgraph.evals.datasets import DataFile, resolve

BENCH = "shortcutsbench"
_COMMIT = "5c2e07d0b20bb306f17e0e57895ce8863685250c"
_UPSTREAM = f"https://raw.githubusercontent.com/EachSheep/ShortcutsBench/{_COMMIT}/data"


def _pinned(name: str, sha256: str) -> DataFile:
    return DataFile(BENCH, name, f"{_UPSTREAM}/{name}", sha256)


FILES = {
    "api2info": _pinned(
        "all_api2info.json", "48ce7e362c8c739256b8e7f2807d8e38b61af3b74010d275c7dbb28800f0f270"
    ),
    "api2paratypes": _pinned(
        "all_api2paraname2paratype.json", "13d51d557e70a84f6873f6d4a14e445764f27507ab556c8e6421981983fbefc3"
    ),
    "categories": _pinned(
        "generated_success_categories.json",
        "a6f899b294f50a969efa61d7ab9c844207e0955781f8fa0ae2a354ed6ac3ec9a",
    ),
    "sample_log": _pinned(
        "experiment_res_open-mixtral-8x7b.jsonl",
        "48abc8121a1b583bac2d288982449143cb3c4f6ab03122ed00ace677c95d1cd2",
    ),
}

RELEASE_QUERIES = "generated_success_queries.json"
RELEASE_GOLD = "1_final_detailed_records_filter_apis_leq_30.json"
RELEASE_CHECK = "json-gpt-3.5-turbo_check_intersection_of_query_and_para_necessary.json"
ESSENTIAL = "Essential parameter"


class ShortcutsDataError(ValueError):
    """A source file that is missing or does not have the documented shape."""


class ShortcutRecord(BaseModel):
    """One query with its gold shortcut; ``bseqs``/``api_names`` only when it comes from a log."""

    url: str
    query: str
    aseqs: list[Any]
    api_names: list[str] | None = None
    bseqs: list[dict[str, Any]] | None = None
    category: str | None = None
    #: ``{raw action index: [parameter names judged essential]}``; None = no check_intersection data
    essential: dict[str, list[str]] | None = None
    source: str = "log"


class Catalogue(BaseModel):
    api2info: dict[str, str]
    returns: dict[str, str]
    categories: dict[str, str] = Field(default_factory=dict)


def _read_json(path: Path) -> Any:
    try:
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except FileNotFoundError:
        raise ShortcutsDataError(f"{path} does not exist") from None
    except json.JSONDecodeError as exc:
        raise ShortcutsDataError(f"{path} is not valid JSON: {exc}") from None


@functools.lru_cache(maxsize=2)
def load_catalogue() -> Catalogue:
    """The 1,414 API texts, their default return names, and each URL's category label."""
    from restgraph.tools.shortcuts.cleaning import return_names

    cats = _read_json(resolve(FILES["categories"]))
    return Catalogue(
        api2info=_read_json(resolve(FILES["api2info"])),
        returns=return_names(_read_json(resolve(FILES["api2paratypes"]))),
        categories={
            url: v["category"]
            for url, v in cats.items()
            if isinstance(v, dict) and isinstance(v.get("category"), str)
        },
    )


def essential_params(check: dict[str, Any], url: str) -> dict[str, list[str]]:
    """``significant_paras[pos][p][p] == "Essential parameter"`` reduced to ``{pos: [p, ...]}``."""
    entry = check.get(url)
    out: dict[str, list[str]] = {}
    if not isinstance(entry, dict):
        return out
    for pos, params in (entry.get("significant_paras") or {}).items():
        if not isinstance(params, dict):
            continue
        names = [
            p for p, verdict in params.items() if isinstance(verdict, dict) and verdict.get(p) == ESSENTIAL
        ]
        if names:
            out[str(pos)] = names
    return out


def load_log(path: str | Path) -> list[ShortcutRecord]:
    """Records of an ``experiment_res_*.jsonl`` log; a malformed line is an error naming the line."""
    path = Path(path)
    if not path.is_file():
        raise ShortcutsDataError(f"experiment log {path} does not exist")
    records = []
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                raw = json.loads(line)
                records.append(
                    ShortcutRecord(
                        url=raw["URL"],
                        query=raw["query"],
                        aseqs=raw["aseqs"],
                        api_names=raw.get("api_names"),
                        bseqs=raw.get("bseqs"),
                        source="log",
                    )
                )
            except (json.JSONDecodeError, KeyError, ValueError) as exc:
                raise ShortcutsDataError(
                    f"{path}:{lineno}: not a ShortcutsBench log record ({type(exc).__name__}: {exc})"
                ) from None
    return records


def load_release(queries: str | Path, gold: str | Path) -> list[ShortcutRecord]:
    """Queries joined with gold shortcuts (length <= 30); entries with a null shortcut are skipped,
    and a URL listed twice keeps its last record (upstream builds ``{URL: record}`` in file order)."""
    query_map = _read_json(Path(queries))
    gold_list = _read_json(Path(gold))
    if not isinstance(query_map, dict) or not isinstance(gold_list, list):
        raise ShortcutsDataError(f"{queries} must be a {{URL: ...}} object and {gold} a list of records")
    records: dict[str, ShortcutRecord] = {}
    for entry in gold_list:
        url = entry.get("URL") if isinstance(entry, dict) else None
        shortcut = entry.get("shortcut") if isinstance(entry, dict) else None
        if not url or not isinstance(shortcut, dict):
            continue  # a null shortcut is skipped; for a duplicate URL the last record wins, as upstream's dict
        query = ((query_map.get(url) or {}).get("GeneratedQuery") or {}).get("query")
        if not isinstance(query, str):
            continue  # upstream skips URLs without a generated query
        records[url] = ShortcutRecord(
            url=url, query=query, aseqs=list(shortcut.get("WFWorkflowActions") or []), source="release"
        )
    return list(records.values())


def load_source(options: dict[str, Any]) -> list[ShortcutRecord]:
    """Records for ``bench_options`` (``source``, ``queries``, ``gold``, ``check_intersection``), sorted by URL."""
    source = options.get("source")
    queries, gold, check = options.get("queries"), options.get("gold"), options.get("check_intersection")
    if source and Path(source).is_dir():
        folder = Path(source)
        queries, gold = queries or folder / RELEASE_QUERIES, gold or folder / RELEASE_GOLD
        if check is None and (folder / RELEASE_CHECK).is_file():
            check = folder / RELEASE_CHECK
        records = load_release(queries, gold)
    elif source:
        records = load_log(source)
    elif queries and gold:
        records = load_release(queries, gold)
    else:
        records = load_log(resolve(FILES["sample_log"]))
    if check:
        check_data = _read_json(Path(check))
        for record in records:
            record.essential = essential_params(check_data, record.url)
    categories = load_catalogue().categories
    for record in records:
        record.category = categories.get(record.url)
    return sorted(records, key=lambda r: r.url)
