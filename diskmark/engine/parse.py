"""Reading fio's JSON: the per-second status objects and the final result.

With ``--output-format=json --status-interval=1`` fio prints one complete, cumulative JSON
object per second on stdout and a last one at the end. :class:`JsonStream` splits them as
bytes arrive. A test's passes run as stonewalled jobs of one fio process, so every object
holds one entry per pass (``jobs[i]``, one reporting group each); :func:`run_result` turns
one entry into diskmark's figures.

fio's output is data from another program: every field read here is checked, and anything
malformed raises :class:`FioOutputError` (a ValueError) naming the field, never a TypeError
from deep inside a sum.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

from diskmark.model import Op, RunResult

PERCENTILES = {"50": "50.000000", "90": "90.000000", "99": "99.000000",
               "99.9": "99.900000", "99.99": "99.990000"}
BUFFER_MAX = 16 * 1024 * 1024  # one status object is a few KiB; more is not fio talking


class FioOutputError(ValueError):
    """fio printed JSON diskmark cannot use."""


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
            except RecursionError:  # absurdly nested: not fio's; skip to the next object
                cut = self._buf.find("\n{", 1)
                self._keep_noise(self._buf[:cut + 1 if cut > 0 else len(self._buf)][:200])
                self._buf = self._buf[cut + 1:] if cut > 0 else ""
                continue
            except json.JSONDecodeError:
                if len(self._buf) <= BUFFER_MAX:
                    return out  # incomplete: wait for more
                self._keep_noise(self._buf[:1])  # a stray '{' that never closes
                self._buf = self._buf[1:]
                continue
            self._buf = self._buf[end:]
            if isinstance(obj, dict):
                out.append(obj)

    def _keep_noise(self, text: str) -> None:
        self.noise.extend(line for line in text.splitlines() if line.strip())
        del self.noise[:-200]


def _num(d: Any, key: str, where: str, default: float = 0) -> float:
    if not isinstance(d, dict):
        raise FioOutputError(f"fio's output has {where} that is not an object")
    value = d.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise FioOutputError(f"fio's output has {where}.{key} = {value!r}, not a number")
    return value


def _side(job: dict[str, Any], name: str) -> dict[str, Any]:
    side = job.get(name, {})
    if not isinstance(side, dict):
        raise FioOutputError(f"fio's output has a {name!r} section that is not an object")
    return side


def jobs(obj: dict[str, Any]) -> list[dict[str, Any]]:
    """The job entries of one object: one per pass (stonewall starts a reporting group)."""
    found = obj.get("jobs") if isinstance(obj, dict) else None
    if not isinstance(found, list) or not found or not all(isinstance(j, dict) for j in found):
        raise FioOutputError("fio's output has no job entries")
    return found


def job(obj: dict[str, Any]) -> dict[str, Any]:
    return jobs(obj)[0]  # --group_reporting folds all threads of a pass into one


def _sides(op: Op) -> tuple[str, ...]:
    return {Op.READ: ("read",), Op.WRITE: ("write",), Op.MIX: ("read", "write")}[op]


def io_bytes(entry: dict[str, Any]) -> int:
    """Bytes one job entry moved so far, both directions. Takes a job entry or a whole
    object (its first job)."""
    j = job(entry) if "jobs" in entry else entry
    return int(_num(_side(j, "read"), "io_bytes", "read") + _num(_side(j, "write"), "io_bytes", "write"))


def runtime_ms(entry: dict[str, Any]) -> int:
    """fio's ``job_runtime``: milliseconds summed over the pass's threads."""
    j = job(entry) if "jobs" in entry else entry
    return int(_num(j, "job_runtime", "a job"))


def run_result(entry: dict[str, Any], op: Op, bw_samples: list[float] | None = None) -> RunResult:
    """diskmark's figures from one finished job entry: MB/s = bw_bytes / 1e6 (decimal, as
    CDM), IOPS as fio reports, latency = mean total latency in µs (IO-weighted across a mix),
    and fio's CPU use, which tells whether the CPU set the figure."""
    j = job(entry) if "jobs" in entry else entry
    names = _sides(op)
    sides = [_side(j, s) for s in names]
    mb = [_num(s, "bw_bytes", n) / 1e6 for s, n in zip(sides, names)]
    ios = [_num(s, "total_ios", n) for s, n in zip(sides, names)]
    lat = [_num(_lat(s, n), "mean", f"{n}.lat_ns") / 1000 for s, n in zip(sides, names)]
    total_ios = sum(ios)
    lat_us = sum(l * n for l, n in zip(lat, ios)) / total_ios if total_ios else 0.0
    return RunResult(
        mb_s=sum(mb),
        iops=sum(_num(s, "iops", n) for s, n in zip(sides, names)),
        lat_us=lat_us,
        io_bytes=int(sum(_num(s, "io_bytes", n) for s, n in zip(sides, names))),
        runtime_ms=int(_num(j, "job_runtime", "a job")),
        read_mb_s=_num(_side(j, "read"), "bw_bytes", "read") / 1e6,
        write_mb_s=_num(_side(j, "write"), "bw_bytes", "write") / 1e6,
        lat_percentiles=percentiles(sides),
        bw_samples=list(bw_samples or []),
        usr_cpu=_num(j, "usr_cpu", "a job"),
        sys_cpu=_num(j, "sys_cpu", "a job"),
    )


def _lat(side: dict[str, Any], name: str) -> dict[str, Any]:
    lat = side.get("lat_ns", {})
    if not isinstance(lat, dict):
        raise FioOutputError(f"fio's output has {name}.lat_ns that is not an object")
    return lat


def percentiles(sides: list[dict[str, Any]]) -> dict[str, float]:
    """Completion-latency percentiles in µs; across a mix, the slower side's value.

    fio reports a percentile as the upper bound of its histogram bucket, which can lie a
    little above the slowest I/O actually seen; it is capped at that maximum so the table
    stays ordered (p99.99 ≤ max) and never shows a latency that did not happen."""
    out: dict[str, float] = {}
    for side in sides:
        clat = side.get("clat_ns", {})
        if not isinstance(clat, dict) or not clat.get("N"):
            continue
        table = clat.get("percentile", {})
        if not isinstance(table, dict):
            table = {}
        for name, key in PERCENTILES.items():
            if key in table:
                out[name] = max(out.get(name, 0.0), _num(table, key, "clat_ns.percentile") / 1000)
        out["max"] = max(out.get("max", 0.0), _num(clat, "max", "clat_ns") / 1000)
    if out.get("max"):
        out = {name: min(value, out["max"]) for name, value in out.items()}
    return out


def job_error(obj: dict[str, Any]) -> int:
    """The first non-zero ``error`` (an errno) of any job in the object, else 0."""
    try:
        for j in jobs(obj):
            err = j.get("error", 0)
            if isinstance(err, int) and not isinstance(err, bool) and err:
                return err
    except FioOutputError:
        pass
    return 0


def current_job(obj: dict[str, Any]) -> int:
    """Which pass of a stonewalled sequence is running: the last entry that has moved any
    data (later passes sit at zero until their turn), 0 before any has."""
    found = 0
    for i, j in enumerate(jobs(obj)):
        if io_bytes(j) > 0:
            found = i
    return found


@dataclass
class LiveRate:
    """Instantaneous MB/s of one pass from two consecutive status objects: Δbytes over
    Δ(job_runtime / threads), fio's own clock for the pass (job_runtime sums the threads)."""

    threads: int = 1
    last_bytes: int = 0
    last_ms: float = 0.0
    samples: list[float] = field(default_factory=list)

    def update(self, entry: dict[str, Any]) -> float | None:
        now_bytes, now_ms = io_bytes(entry), runtime_ms(entry) / max(self.threads, 1)
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
