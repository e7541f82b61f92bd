"""Reading fio's JSON: the per-second status objects and the final result.

With ``--output-format=json --status-interval=1`` fio prints one complete, cumulative JSON
object per second on stdout and a last one at the end. :class:`JsonStream` splits them as
bytes arrive; :func:`run_result` turns the last object into diskmark's figures.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from diskmark.model import Op, RunResult

PERCENTILES = {"50": "50.000000", "90": "90.000000", "99": "99.000000",
               "99.9": "99.900000", "99.99": "99.990000"}


class JsonStream:
    """Incrementally split concatenated JSON objects (fio's status stream)."""

    def __init__(self) -> None:
        self._buf = ""
        self._decoder = json.JSONDecoder()
        self.noise: list[str] = []  # non-JSON text fio wrote to stdout (warnings)

    def feed(self, text: str) -> list[dict[str, Any]]:
        self._buf += text
        out: list[dict[str, Any]] = []
        while True:
            start = self._buf.find("{")
            if start < 0:
                self._keep_noise(self._buf)
                self._buf = ""
                return out
            if start:
                self._keep_noise(self._buf[:start])
                self._buf = self._buf[start:]
            try:
                obj, end = self._decoder.raw_decode(self._buf)
            except json.JSONDecodeError:
                return out  # incomplete: wait for more
            self._buf = self._buf[end:]
            if isinstance(obj, dict):
                out.append(obj)

    def _keep_noise(self, text: str) -> None:
        self.noise.extend(line for line in text.splitlines() if line.strip())


def job(obj: dict[str, Any]) -> dict[str, Any]:
    jobs = obj.get("jobs") or []
    if not jobs:
        raise ValueError("fio output has no jobs")
    return jobs[0]  # --group_reporting folds all threads into one


def _sides(op: Op) -> tuple[str, ...]:
    return {Op.READ: ("read",), Op.WRITE: ("write",), Op.MIX: ("read", "write")}[op]


def io_bytes(obj: dict[str, Any]) -> int:
    """Bytes moved so far in a status object, both directions."""
    j = job(obj)
    return int(j.get("read", {}).get("io_bytes", 0)) + int(j.get("write", {}).get("io_bytes", 0))


def runtime_ms(obj: dict[str, Any]) -> int:
    return int(job(obj).get("job_runtime", 0))


def run_result(obj: dict[str, Any], op: Op, bw_samples: list[float] | None = None) -> RunResult:
    """diskmark's figures from fio's final object: MB/s = bw_bytes / 1e6 (decimal, as CDM),
    IOPS as fio reports, latency = mean total latency in µs (IO-weighted across a mix)."""
    j = job(obj)
    sides = [j[s] for s in _sides(op)]
    mb = [s.get("bw_bytes", 0) / 1e6 for s in sides]
    ios = [s.get("total_ios", 0) for s in sides]
    lat = [s.get("lat_ns", {}).get("mean", 0.0) / 1000 for s in sides]
    total_ios = sum(ios)
    lat_us = sum(l * n for l, n in zip(lat, ios)) / total_ios if total_ios else 0.0
    return RunResult(
        mb_s=sum(mb),
        iops=sum(s.get("iops", 0.0) for s in sides),
        lat_us=lat_us,
        io_bytes=sum(int(s.get("io_bytes", 0)) for s in sides),
        runtime_ms=int(j.get("job_runtime", 0)),
        read_mb_s=j.get("read", {}).get("bw_bytes", 0) / 1e6,
        write_mb_s=j.get("write", {}).get("bw_bytes", 0) / 1e6,
        lat_percentiles=percentiles(sides),
        bw_samples=list(bw_samples or []),
    )


def percentiles(sides: list[dict[str, Any]]) -> dict[str, float]:
    """Completion-latency percentiles in µs; across a mix, the slower side's value."""
    out: dict[str, float] = {}
    for side in sides:
        clat = side.get("clat_ns", {})
        if not clat.get("N"):
            continue
        table = clat.get("percentile", {})
        for name, key in PERCENTILES.items():
            if key in table:
                out[name] = max(out.get(name, 0.0), table[key] / 1000)
        out["max"] = max(out.get("max", 0.0), clat.get("max", 0) / 1000)
    if "max" in out:  # fio reports a percentile's bucket, which can lie above the true max
        out = {k: min(v, out["max"]) for k, v in out.items()}
    return out


def job_error(obj: dict[str, Any]) -> int:
    try:
        return int(job(obj).get("error", 0))
    except ValueError:
        return 0


@dataclass
class LiveRate:
    """Instantaneous MB/s from two consecutive cumulative status objects (Δbytes / Δtime)."""

    last_bytes: int = 0
    last_ms: int = 0
    samples: list[float] = field(default_factory=list)

    def update(self, obj: dict[str, Any]) -> float | None:
        now_bytes, now_ms = io_bytes(obj), runtime_ms(obj)
        if now_ms < self.last_ms or now_bytes < self.last_bytes:
            # fio reset its counters (end of ramp_time): start over from here
            self.last_bytes, self.last_ms = now_bytes, now_ms
            self.samples.clear()
            return None
        dt = now_ms - self.last_ms
        if dt <= 0:
            return None
        rate = (now_bytes - self.last_bytes) / dt / 1000  # bytes/ms -> MB/s
        self.last_bytes, self.last_ms = now_bytes, now_ms
        if dt >= 500:
            self.samples.append(rate)
        return rate
