"""Histories to test and measure with: real results (from tests/fixtures/legacy-data, runs of
real fio) copied with other dates, devices and figures, as a drive's months of runs would be.
Used by the history tests and by benchmarks/history_speed.py."""

from __future__ import annotations

import copy
import json
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

LEGACY = Path(__file__).parents[1] / "fixtures" / "legacy-data"
#: One pass per test (noise: the 3% default), eight tests, on tmpfs.
EIGHT_TESTS = "20261123T213147Z-23e084"
#: Three passes per test on an ext4 loop device.
THREE_PASSES = "20261123T231639Z-4d3a01"


def real_result(stem: str = EIGHT_TESTS) -> dict[str, Any]:
    """The ``diskmark.result/1`` document of a real run."""
    return json.loads((LEGACY / "history" / f"{stem}.json").read_text())["result"]


def _scale_run(run: dict[str, Any], factor: float) -> None:
    for key in ("mb_s", "iops", "io_bytes", "read_mb_s", "write_mb_s"):
        if isinstance(run.get(key), (int, float)):
            run[key] = type(run[key])(run[key] * factor)
    run["bw_samples"] = [v * factor for v in run.get("bw_samples", [])]
    run["lat_us"] = run["lat_us"] / factor
    run["lat_percentiles"] = {k: v / factor for k, v in run.get("lat_percentiles", {}).items()}


def clone(doc: dict[str, Any], started: datetime, factor: float = 1.0, **system: str) -> dict:
    """``doc`` measured at ``started`` with every figure ``factor`` times as good (latency
    divided by it), and system facts replaced by ``system`` (device=..., hostname=...)."""
    out = copy.deepcopy(doc)
    out["started"] = started.isoformat(timespec="seconds")
    out["finished"] = (started + timedelta(minutes=2)).isoformat(timespec="seconds")
    out["system"].update(system)
    for test in out["tests"]:
        for run in test["runs"]:
            _scale_run(run, factor)
        if test.get("warmup"):
            _scale_run(test["warmup"], factor)
    return out


def series(doc: dict[str, Any], factors: list[float], start: datetime | None = None,
           step: timedelta = timedelta(days=7), **system: str) -> list[dict[str, Any]]:
    """One run a ``step`` apart per factor, oldest first."""
    start = start or datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)
    return [clone(doc, start + i * step, f, **system) for i, f in enumerate(factors)]


def write_reports(directory: Path, docs: list[dict[str, Any]]) -> list[Path]:
    """Each document as the file ``diskmark run --format json`` would write."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for i, doc in enumerate(docs):
        path = directory / f"run-{i:05d}.json"
        path.write_text(json.dumps(doc))
        paths.append(path)
    return paths
