"""AssistantBench loader (HF dataset ``AssistantBench/AssistantBench``) and the leaderboard export.

- ``validation``: ``assistant_bench_v1.0_dev.jsonl`` (33 tasks, answers public);
- ``test``: ``assistant_bench_v1.0_test.jsonl`` (181 tasks, ``answer`` null; scored only by
  uploading ``{"id", "answer"}`` lines to the HF leaderboard, see ``export_predictions``).

Lookup order: ``$RESTGRAPH_DATA_DIR/assistantbench/<file>``, the user cache, then a download of
the file at the pinned revision. The dataset is gated, so the download needs an HF token
(``token=`` or ``$HF_TOKEN`` / ``$HUGGING_FACE_HUB_TOKEN``); the token is registered as a secret
so it can never reach a trace, and tasks are never redistributed by this project. Tests never
download: they use a JSONL in a temporary data folder.

Export a run's answers for the hidden test split with
``python -m restgraph.evals.datasets.assistantbench export RUN_DIR [OUT.jsonl]``.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx
from pydantic import BaseModel, ConfigDict, Field

from restgraph.evals.datasets import DatasetUnavailable, cache_root, data_dir
from restgraph.evals.redact import register_secret

BENCH = "assistantbench"
HF_REPO = "AssistantBench/AssistantBench"
REVISION = "482cbbc0400f6d048438c4021727f21a10cbff49"  # the revision inspect_evals pins
FILES = {"validation": "assistant_bench_v1.0_dev.jsonl", "test": "assistant_bench_v1.0_test.jsonl"}
SPLIT_ALIASES = {"dev": "validation", "val": "validation", "validation": "validation", "test": "test"}
PREDICTIONS_FILENAME = "assistantbench-predictions-test.jsonl"


class AssistantBenchTask(BaseModel):
    """One row of the HF dataset (unknown extra fields are kept)."""

    model_config = ConfigDict(extra="allow")

    id: str
    set: str | None = None
    task: str
    answer: str | None = None
    gold_url: str | None = None
    explanation: str | None = None
    metadata: Any = None
    difficulty: str | None = None


class Prediction(BaseModel):
    id: str
    answer: str = Field(description="the final answer; empty string for no answer")


def split_name(split: str | None) -> str:
    key = (split or "validation").lower()
    if key not in SPLIT_ALIASES:
        raise ValueError(f"unknown AssistantBench split {split!r}; use validation (dev) or test")
    return SPLIT_ALIASES[key]


def hf_url(filename: str, revision: str = REVISION) -> str:
    return f"https://huggingface.co/datasets/{HF_REPO}/resolve/{revision}/{filename}"


def _download(filename: str, dest: Path, token: str | None, timeout: float) -> Path:
    token = token or os.environ.get("HF_TOKEN") or os.environ.get("HUGGING_FACE_HUB_TOKEN")
    if not token:
        raise DatasetUnavailable(
            f"AssistantBench is gated on Hugging Face: put {filename} in $RESTGRAPH_DATA_DIR/{BENCH}/ "
            f"or set HF_TOKEN (after accepting the dataset's terms at https://huggingface.co/datasets/{HF_REPO})"
        )
    register_secret(token)
    try:
        with httpx.Client(follow_redirects=True, timeout=timeout) as client:
            response = client.get(hf_url(filename), headers={"Authorization": f"Bearer {token}"})
            response.raise_for_status()
    except httpx.HTTPError as exc:
        status = getattr(getattr(exc, "response", None), "status_code", None)
        hint = (
            " (401/403: accept the dataset's terms on Hugging Face and check the token)"
            if status in (401, 403)
            else ""
        )
        raise DatasetUnavailable(
            f"could not download {hf_url(filename)}: {type(exc).__name__}{hint}"
        ) from exc
    dest.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=dest.parent, delete=False) as tmp:
        tmp.write(response.content)
    os.replace(tmp.name, dest)
    return dest


def dataset_path(
    split: str = "validation", *, token: str | None = None, download: bool = True, timeout: float = 60.0
) -> Path:
    filename = FILES[split_name(split)]
    local = data_dir(BENCH)
    if local is not None and (local / filename).is_file():
        return local / filename
    cached = cache_root() / "datasets" / BENCH / filename
    if cached.is_file():
        return cached
    if not download:
        raise DatasetUnavailable(f"{filename} is not in $RESTGRAPH_DATA_DIR/{BENCH}/ nor in {cached.parent}")
    return _download(filename, cached, token, timeout)


def load_tasks(
    split: str = "validation", *, path: str | Path | None = None, token: str | None = None
) -> list[AssistantBenchTask]:
    """Rows of one split, in file order. A malformed line is an error naming the line."""
    source = Path(path) if path else dataset_path(split, token=token)
    rows = []
    with open(source, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                rows.append(AssistantBenchTask.model_validate_json(line))
            except ValueError as exc:
                raise ValueError(f"{source}:{lineno}: not an AssistantBench row: {str(exc)[:300]}") from exc
    return rows


def export_predictions(traces: list[Any], out: str | Path) -> Path:
    """Write ``{"id", "answer"}`` lines (the leaderboard's upload format), one per trace."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", encoding="utf-8") as fh:
        for trace in traces:
            task_id = trace.task.metadata.get("hf_id", trace.task_id)
            fh.write(Prediction(id=task_id, answer=trace.final_answer or "").model_dump_json() + "\n")
    return out


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) not in (2, 3) or args[0] != "export":
        print(
            "usage: python -m restgraph.evals.datasets.assistantbench export RUN_DIR [OUT.jsonl]",
            file=sys.stderr,
        )
        return 2
    from restgraph.evals.trace import TraceStore, latest_per_task

    run_dir = Path(args[1])
    traces = latest_per_task(TraceStore(run_dir).load().traces)
    if not traces:
        print(f"no traces in {run_dir}", file=sys.stderr)
        return 1
    out = export_predictions(traces, args[2] if len(args) == 3 else run_dir / PREDICTIONS_FILENAME)
    print(json.dumps({"written": str(out), "predictions": len(traces)}))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
