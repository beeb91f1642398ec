"""A study: the matrix of runs a sweep executes, and the folder that holds them.

A study is benchmarks x agents x models x option variants x seeds. Each combination is a
:class:`Cell`, executed as one ordinary run folder ``<study>/<cell key>/`` (``traces.jsonl``,
``config.json``, ``summary.json``), so everything that reads runs (``score``, ``report``, the
loaders) reads a sweep's cells unchanged. ``study.json`` records the spec and the cells.

Cells are named from what they are (``restbench-tmdb--react--openai-gpt-4o--s0``), so a resumed
study finds its folders again; a cell whose folder holds a run with other options is refused
rather than mixed.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

STUDY_FILE = "study.json"


class SweepError(ValueError):
    """A study that cannot run as given (bad spec, changed cell, unknown name): a usage error."""


class Variant(BaseModel):
    """A named set of option overrides; every variant is crossed with every other axis."""

    model_config = ConfigDict(extra="forbid")

    name: str = "default"
    agent_options: dict[str, Any] = Field(default_factory=dict)
    bench_options: dict[str, Any] = Field(default_factory=dict)
    model_options: dict[str, Any] = Field(default_factory=dict)


class Cell(BaseModel):
    """One run of the study: what ``restgraph run`` would be given."""

    model_config = ConfigDict(extra="forbid")

    benchmark: str
    agent: str
    model: str
    seed: int = 0
    variant: str = "default"
    limit: int | None = None
    epochs: int = 1
    concurrency: int = 4
    max_connections: int | None = Field(default=None, ge=1)
    max_steps: int | None = None
    episode_timeout_s: float | None = None
    agent_options: dict[str, Any] = Field(default_factory=dict)
    bench_options: dict[str, Any] = Field(default_factory=dict)
    model_options: dict[str, Any] = Field(default_factory=dict)

    @property
    def key(self) -> str:
        """Folder name: readable parts, plus a short hash when a variant carries options."""
        parts = [self.benchmark, self.agent, _slug(self.model), f"s{self.seed}"]
        if self.variant != "default" or self.agent_options or self.bench_options or self.model_options:
            digest = hashlib.sha256(
                json.dumps(
                    [self.agent_options, self.bench_options, self.model_options], sort_keys=True, default=str
                ).encode()
            ).hexdigest()[:6]
            parts.append(f"{_slug(self.variant)}-{digest}")
        return "--".join(parts)

    def run_options(self, out_dir: Path) -> Any:
        """The ``RunOptions`` of this cell's run (imported late: the harness is heavy)."""
        from restgraph.evals.benchmark import RunOptions

        data: dict[str, Any] = {
            "benchmark": self.benchmark,
            "agent": self.agent,
            "model": self.model,
            "limit": self.limit,
            "seed": self.seed,
            "epochs": self.epochs,
            "concurrency": self.concurrency,
            "max_connections": self.max_connections,
            "episode_timeout_s": self.episode_timeout_s,
            "bench_options": dict(self.bench_options),
            "agent_options": dict(self.agent_options),
            "model_options": dict(self.model_options),
            "run_dir": str(out_dir),
        }
        if self.max_steps is not None:
            data["max_steps"] = self.max_steps
        return RunOptions(**data)


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-")[:60] or "x"


class StudySpec(BaseModel):
    """The matrix. Agents that cannot act on a benchmark's environment are left out of it."""

    model_config = ConfigDict(extra="forbid")

    name: str = "study"
    benchmarks: list[str] = Field(min_length=1)
    agents: list[str] = Field(min_length=1)
    models: list[str] = Field(default_factory=lambda: ["local"], min_length=1)
    seeds: list[int] = Field(default_factory=lambda: [0], min_length=1)
    variants: list[Variant] = Field(default_factory=lambda: [Variant()], min_length=1)
    limit: int | None = Field(default=None, ge=1)
    #: each task runs this many times per cell (pass@k, pass^k in the cell's summary)
    epochs: int = Field(default=1, ge=1)
    concurrency: int = Field(default=4, ge=1)
    #: model requests in flight per endpoint, shared by every episode of the sweep (``restgraph run
    #: --max-connections``): on Ray by all workers together (``restgraph.evals.sweep.shared_slots``)
    max_connections: int | None = Field(default=None, ge=1)
    max_steps: int | None = Field(default=None, ge=1)
    episode_timeout_s: float | None = Field(default=None, gt=0)
    #: report layout written over all cells at the end (``table4``, ``shortcuts``, ...), if any
    report: str | None = None

    @classmethod
    def from_file(cls, path: Path) -> StudySpec:
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as exc:
            raise SweepError(f"cannot read study file {path}: {exc}") from None
        if not isinstance(data, dict):
            raise SweepError(f"{path}: a study file is a mapping (benchmarks:, agents:, models:, ...)")
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise SweepError(f"{path}: {where}: {first['msg']}") from None

    def cells(self) -> list[Cell]:
        """Every compatible combination, in a stable order; unknown names are usage errors."""
        from restgraph.evals.benchmark import get_benchmark
        from restgraph.graphs.registry import get_agent

        cells: list[Cell] = []
        for bench_name, agent_name in itertools.product(self.benchmarks, self.agents):
            try:
                bench, agent = get_benchmark(bench_name), get_agent(agent_name)
            except KeyError as exc:
                raise SweepError(str(exc.args[0])) from None
            if agent.env_kind not in (bench.env_kind, "any"):
                continue
            models = self.models if agent.needs_model else ["none"]
            for model, variant, seed in itertools.product(models, self.variants, self.seeds):
                cells.append(
                    Cell(
                        benchmark=bench_name,
                        agent=agent_name,
                        model=model,
                        seed=seed,
                        variant=variant.name,
                        limit=self.limit,
                        epochs=self.epochs,
                        concurrency=self.concurrency,
                        max_connections=self.max_connections,
                        max_steps=self.max_steps,
                        episode_timeout_s=self.episode_timeout_s,
                        agent_options=variant.agent_options,
                        bench_options=variant.bench_options,
                        model_options=variant.model_options,
                    )
                )
        unique = list({c.key: c for c in cells}.values())
        if not unique:
            raise SweepError("the study has no cell: no listed agent can act on any listed benchmark")
        return unique


def prepare_study_dir(study_dir: Path, spec: StudySpec, cells: list[Cell], *, resume: bool) -> None:
    """Create or re-open the study folder; refuse to mix a changed cell into an old run.

    A cell's folder is checked exactly as ``restgraph run --resume`` checks a run folder
    (``restgraph.evals.run_guard.check_resume``), against the options its runner would use.
    """
    from restgraph.evals.run_guard import RunMismatch, check_resume
    from restgraph.evals.runner import EpisodeRunner

    path = study_dir / STUDY_FILE
    if path.exists() and not resume:
        raise SweepError(
            f"{study_dir} already holds a study; pass --resume to continue it or choose another --out"
        )
    for cell in cells:
        out = study_dir / cell.key
        if (out / "config.json").is_file():
            runner = EpisodeRunner(cell.run_options(out), out, progress=False)
            try:
                check_resume(out, runner.options.model_dump(mode="json"), [])
            except RunMismatch as exc:
                raise SweepError(
                    f"cell {cell.key} changed since it ran ({exc}); use another --out or remove {out}"
                ) from None
    study_dir.mkdir(parents=True, exist_ok=True)
    payload = {
        "spec": spec.model_dump(mode="json"),
        "cells": [{"key": c.key, **c.model_dump(mode="json")} for c in cells],
    }
    _atomic_write(path, json.dumps(payload, indent=2, sort_keys=True) + "\n")


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
